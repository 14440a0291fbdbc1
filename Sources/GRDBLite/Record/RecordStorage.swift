import CSQLite

/// What the record layer keeps in a connection (`Database.recordStorage`,
/// dropped when the schema changes): a reusable persistence container and
/// the INSERT statements of record types, so that inserting records in a
/// loop prepares nothing, encodes into the same memory, and allocates
/// nothing per record.
@usableFromInline
final class RecordStorage {
    /// The table of a record type.
    struct Table {
        let name: String
        let primaryKey: PrimaryKeyInfo
    }

    /// A prepared INSERT for a record type, a conflict resolution and a
    /// list of columns.
    struct InsertStatement {
        let type: ObjectIdentifier
        let conflict: Database.ConflictResolution
        let columns: [String]
        let statement: Statement
    }

    private var spareContainer: PersistenceContainer?
    private var lastTable: (type: ObjectIdentifier, table: Table)?
    private var tables: [ObjectIdentifier: Table] = [:]
    private var lastInsert: InsertStatement?
    private var inserts: [InsertStatement] = []

    /// The storage of a connection.
    @usableFromInline
    static func of(_ db: Database) -> RecordStorage {
        if let storage = db.recordStorage {
            return unsafeDowncast(storage, to: RecordStorage.self)
        }
        let storage = RecordStorage()
        db.recordStorage = storage
        return storage
    }

    /// A container to encode a record into; give it back with
    /// `reuse(_:)`.
    @usableFromInline
    func takeContainer() -> PersistenceContainer {
        guard var container = spareContainer else {
            return PersistenceContainer(encoderCache: RecordEncoderCache())
        }
        spareContainer = nil // the caller holds the only reference
        container.prepareForReuse()
        return container
    }

    @usableFromInline
    func reuse(_ container: PersistenceContainer) {
        spareContainer = container
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

    /// Inserts the encoded record.
    @usableFromInline
    func insert(
        _ db: Database,
        type: ObjectIdentifier,
        tableName: () -> String,
        container: PersistenceContainer,
        onConflict conflict: Database.ConflictResolution) throws -> InsertionSuccess
    {
        precondition(!container.isEmpty, "Invalid empty persistence container: a record must encode at least one column")
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
            throw DatabaseError(
                resultCode: error.extendedResultCode, message: error.message, sql: error.sql,
                arguments: StatementArguments(container.databaseValues))
        }
        return InsertionSuccess(
            rowID: db.lastInsertedRowID,
            rowIDColumn: table.primaryKey.rowIDColumn,
            container: container)
    }

    private func insertStatement(
        _ db: Database,
        type: ObjectIdentifier,
        table: String,
        conflict: Database.ConflictResolution,
        container: PersistenceContainer) throws -> Statement
    {
        if let lastInsert, lastInsert.type == type, lastInsert.conflict == conflict,
           Self.columns(lastInsert.columns, match: container)
        {
            return lastInsert.statement
        }
        let insert: InsertStatement
        if let cached = inserts.first(where: { $0.type == type && $0.conflict == conflict && Self.columns($0.columns, match: container) }) {
            insert = cached
        } else {
            let columns = Array(container.columns)
            let sql = PersistenceEngine.insertSQL(table: table, columns: columns, conflict: conflict)
            insert = try InsertStatement(type: type, conflict: conflict, columns: columns,
                                         statement: db.makeStatement(sql: sql, persistent: true))
            inserts.append(insert)
        }
        lastInsert = insert
        return insert.statement
    }

    /// Whether the container has exactly `columns`, in order. Comparing
    /// string bits first makes the common case (the same literals) cheap.
    private static func columns(_ columns: [String], match container: PersistenceContainer) -> Bool {
        guard columns.count == container.setCount else { return false }
        let names = container.names
        for index in 0..<columns.count {
            let lhs = columns.withUnsafeBytes { $0.load(fromByteOffset: index * 16, as: (UInt64, UInt64).self) }
            let rhs = names.withUnsafeBytes { $0.load(fromByteOffset: index * 16, as: (UInt64, UInt64).self) }
            if lhs != rhs && columns[index] != names[index] { return false }
        }
        return true
    }
}
