import CSQLite

/// What the record layer keeps in a connection (a cache that Core drops
/// when the schema changes): a reusable persistence container and the
/// INSERT statements of record types, so that inserting records in a loop
/// prepares nothing, encodes into the same memory, and allocates nothing
/// per record.
@usableFromInline
final class RecordStorage: SchemaDependentCache {
    /// The table of a record type. A class: each insert reads it, and a
    /// reference costs one retain where the primary key's enum of column
    /// infos cost an outlined copy of several (about 150 instructions).
    final class Table {
        let name: String
        /// The column that holds the rowid, if any.
        let rowIDColumn: String?

        init(name: String, primaryKey: PrimaryKeyInfo) {
            self.name = name
            self.rowIDColumn = primaryKey.rowIDColumn
        }
    }

    /// A prepared INSERT for a record type, a conflict resolution and a
    /// list of columns.
    struct InsertStatement {
        let type: ObjectIdentifier
        let conflict: Database.ConflictResolution
        /// The column names of the container that prepared the statement
        /// (sharing its buffer: the same buffer means the same columns).
        let names: [String]
        let columnCount: Int
        let statement: Statement
    }

    /// The values of the last insert, whose container is reused for the
    /// next record once no ``InsertionSuccess`` holds it.
    private var lastInserted = InsertedValues(PersistenceContainer())
    private var lastTable: (type: ObjectIdentifier, table: Table)?
    private var tables: [ObjectIdentifier: Table] = [:]
    private var lastInsert: InsertStatement?
    private var inserts: [InsertStatement] = []

    init() { }

    /// The storage of a connection.
    @usableFromInline
    static func of(_ db: Database) -> RecordStorage {
        db.cache(RecordStorage.self)
    }

    /// A container to encode a record into; give it to `insert`, or back
    /// with `reuse(_:)`.
    @usableFromInline
    func takeContainer() -> PersistenceContainer {
        if isKnownUniquelyReferenced(&lastInserted), let container = lastInserted.takeReusableContainer() {
            return container
        }
        return PersistenceContainer(encoderCache: RecordEncoderCache())
    }

    @usableFromInline
    func reuse(_ container: PersistenceContainer) {
        if isKnownUniquelyReferenced(&lastInserted) {
            lastInserted.container = container
        } else {
            lastInserted = InsertedValues(container) // a success holds the previous one
        }
    }

    /// The table of a record type.
    func table(for type: ObjectIdentifier, _ db: Database, name: () -> String) throws -> Table {
        if let lastTable, lastTable.type == type { return lastTable.table }
        let table: Table
        if let cached = tables[type] {
            table = cached
        } else {
            let name = name()
            table = try Table(name: name, primaryKey: db.primaryKey(name))
            tables[type] = table
        }
        lastTable = (type, table)
        return table
    }

    /// Inserts the encoded record, and keeps its container for reuse.
    @usableFromInline
    func insert(
        _ db: Database,
        type: ObjectIdentifier,
        tableName: () -> String,
        container: PersistenceContainer,
        onConflict conflict: Database.ConflictResolution) throws -> InsertionSuccess
    {
        let rowIDColumn: String?
        do {
            rowIDColumn = try execute(db, type: type, tableName: tableName, container: container, onConflict: conflict)
        } catch {
            reuse(container)
            throw error
        }
        reuse(container)
        return InsertionSuccess(rowID: db.lastInsertedRowID, rowIDColumn: rowIDColumn, values: lastInserted)
    }

    /// Runs the INSERT of the container, and returns the rowid column.
    private func execute(
        _ db: Database,
        type: ObjectIdentifier,
        tableName: () -> String,
        container: PersistenceContainer,
        onConflict conflict: Database.ConflictResolution) throws -> String?
    {
        precondition(
            !container.isEmpty, "Invalid empty persistence container: a record must encode at least one column")
        let table = try table(for: type, db, name: tableName)
        let statement = try insertStatement(db, type: type, table: table.name, conflict: conflict, container: container)
        let sqliteStatement = statement.sqliteStatement
        sqlite3_reset(sqliteStatement)
        let values = container.values
        for index in 0..<container.setCount {
            let code = values[index].bind(to: sqliteStatement, at: CInt(index + 1))
            if code != SQLITE_OK {
                throw statement.bindingFailure(code, arguments: StatementArguments(container.databaseValues))
            }
        }
        do {
            try db.executeToCompletion(statement)
        } catch let error as DatabaseError {
            throw error.with(arguments: StatementArguments(container.databaseValues))
        }
        return table.rowIDColumn
    }

    private func insertStatement(
        _ db: Database,
        type: ObjectIdentifier,
        table: String,
        conflict: Database.ConflictResolution,
        container: PersistenceContainer) throws -> Statement
    {
        if let lastInsert, lastInsert.type == type, lastInsert.conflict == conflict,
           Self.columns(of: lastInsert, match: container)
        {
            return lastInsert.statement
        }
        let insert: InsertStatement
        if let cached = inserts.first(where: {
            $0.type == type && $0.conflict == conflict && Self.columns(of: $0, match: container)
        }) {
            insert = cached
        } else {
            let sql = PersistenceEngine.insertSQL(table: table, columns: container.columns, conflict: conflict)
            insert = try InsertStatement(
                type: type, conflict: conflict, names: container.names, columnCount: container.setCount,
                                         statement: db.makeStatement(sql: sql, persistent: true))
            inserts.append(insert)
        }
        lastInsert = insert
        return insert.statement
    }

    /// Whether the container has exactly the columns of `insert`, in order.
    /// A container reused for many records keeps the same names buffer,
    /// which the statement shares: then a pointer comparison suffices.
    private static func columns(of insert: InsertStatement, match container: PersistenceContainer) -> Bool {
        guard insert.columnCount == container.setCount else { return false }
        // Unsafe: the addresses are compared, never dereferenced.
        let sameBuffer = insert.names.withUnsafeBufferPointer { lhs in
            // Unsafe: see above.
            container.names.withUnsafeBufferPointer { rhs in lhs.baseAddress == rhs.baseAddress }
        }
        if sameBuffer { return true }
        return insert.names[0..<insert.columnCount] == container.names[0..<container.setCount]
    }
}
