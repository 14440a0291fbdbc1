import CSQLite

/// What the record layer keeps in a connection (a cache that Core drops
/// when the schema changes): a reusable persistence container and the
/// INSERT statements of record types, so that inserting records in a loop
/// prepares nothing, encodes into the same memory, and allocates nothing
/// per record.
@usableFromInline
final class RecordStorage: SchemaDependentCache {
    /// A prepared INSERT for a record type, a conflict resolution and a
    /// list of columns. A class: the insert of each record reads the last
    /// one, and a reference costs one retain where a struct of five
    /// fields cost an outlined copy.
    final class InsertStatement {
        let type: ObjectIdentifier
        let conflict: Database.ConflictResolution
        /// The column names of the container that prepared the statement
        /// (sharing its buffer: the same buffer means the same columns).
        let names: [String]
        let columnCount: Int
        let statement: Statement
        /// The column that holds the rowid, if any.
        let rowIDColumn: String?

        init(
            type: ObjectIdentifier, conflict: Database.ConflictResolution, container: PersistenceContainer,
            statement: Statement, rowIDColumn: String?)
        {
            self.type = type
            self.conflict = conflict
            self.names = container.names
            self.columnCount = container.setCount
            self.statement = statement
            self.rowIDColumn = rowIDColumn
        }

        /// Whether the statement inserts records of `type` with `conflict`,
        /// and exactly the container's columns, in order. A container
        /// reused for many records keeps the same names buffer, which the
        /// statement shares: then a pointer comparison suffices. Inline:
        /// the insert of each record runs it.
        @inline(__always)
        func matches(
            type: ObjectIdentifier, conflict: Database.ConflictResolution, container: PersistenceContainer
        ) -> Bool {
            guard self.type == type, self.conflict == conflict, columnCount == container.setCount else { return false }
            // Unsafe: the addresses are compared, never dereferenced.
            let sameBuffer = names.withUnsafeBufferPointer { lhs in
                // Unsafe: the base addresses are compared, never dereferenced.
                container.names.withUnsafeBufferPointer { rhs in lhs.baseAddress == rhs.baseAddress }
            }
            if sameBuffer { return true }
            return names[0..<columnCount] == container.names[0..<container.setCount]
        }
    }

    /// The values of the last insert, whose container is reused for the
    /// next record once no ``InsertionSuccess`` holds it.
    private var lastInserted = InsertedValues(nil)
    /// The statement of the last insert, unretained: `inserts` keeps it
    /// as long as the storage lives, and the insert of each record would
    /// otherwise retain and release it.
    private var lastInsert: Unmanaged<InsertStatement>?
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
    @inline(__always)
    func reuse(_ container: consuming PersistenceContainer) {
        if isKnownUniquelyReferenced(&lastInserted) {
            lastInserted.putBack(container)
        } else {
            lastInserted = InsertedValues(container) // a success holds the previous one
        }
    }

    /// Inserts the encoded record, and keeps its container for reuse.
    /// The container is consumed: it moves into the storage, where a
    /// copy would retain and release each of its buffers.
    @usableFromInline
    func insert(
        _ db: Database,
        type: ObjectIdentifier,
        tableName: () -> String,
        container: consuming PersistenceContainer,
        onConflict conflict: Database.ConflictResolution) throws -> InsertionSuccess
    {
        // Unretained: `inserts` keeps its statements while the storage lives.
        let insert: Unmanaged<InsertStatement>
        do {
            insert = try execute(db, type: type, tableName: tableName, container: container, onConflict: conflict)
        } catch {
            reuse(container)
            throw error
        }
        reuse(container)
        // Unretained, unsafe: the statement is alive (see `lastInsert`).
        insert._withUnsafeGuaranteedRef { insert in
            // Assigned only when it changes: no retain and release per record.
            if lastInserted.rowIDColumn != insert.rowIDColumn {
                lastInserted.rowIDColumn = insert.rowIDColumn
            }
        }
        return InsertionSuccess(rowID: db.lastInsertedRowID, values: lastInserted)
    }

    /// Runs the INSERT of the container, and returns its statement
    /// (unretained: see `lastInsert`). Inline: one call and frame less
    /// for each record.
    @inline(__always)
    private func execute(
        _ db: Database,
        type: ObjectIdentifier,
        tableName: () -> String,
        container: PersistenceContainer,
        onConflict conflict: Database.ConflictResolution) throws -> Unmanaged<InsertStatement> // unretained
    {
        precondition(
            !container.isEmpty, "Invalid empty persistence container: a record must encode at least one column")
        // Unretained: `inserts` keeps its statements while the storage lives.
        let insert: Unmanaged<InsertStatement>
        // Unretained, unsafe: `inserts` keeps `lastInsert` alive while the storage lives.
        if let lastInsert, lastInsert._withUnsafeGuaranteedRef({
            $0.matches(type: type, conflict: conflict, container: container)
        }) {
            insert = lastInsert
        } else {
            insert = try .passUnretained(
                insertStatement(db, type: type, tableName: tableName, conflict: conflict, container: container))
        }
        // Unretained, unsafe: the statement is alive (see `lastInsert`).
        try insert._withUnsafeGuaranteedRef { insert in
            let statement = insert.statement
            let sqliteStatement = statement.sqliteStatement
            sqlite3_reset(sqliteStatement)
            // Integers are bound first, without a copy of the value: a switch
            // over all storage classes copies each value, and destroys the copy
            // out of line (about 230 instructions a row of ten integers).
            // Unsafe: the buffer is read within the closure, bounded by setCount.
            let code = container.values.withUnsafeBufferPointer { values in
                let count = container.setCount
                var index = 0
                while index < count {
                    let position = CInt(truncatingIfNeeded: index &+ 1)
                    if case .int64(let int64) = values[index].storage {
                        let code = sqlite3_bind_int64(sqliteStatement, position, int64)
                        if _slowPath(code != SQLITE_OK) { return code }
                    } else {
                        let code = values[index].bind(to: sqliteStatement, at: position)
                        if _slowPath(code != SQLITE_OK) { return code }
                    }
                    index &+= 1
                }
                return SQLITE_OK
            }
            if code != SQLITE_OK {
                throw statement.bindingFailure(code, arguments: StatementArguments(container.databaseValues))
            }
            do {
                try db.executeToCompletion(statement)
            } catch let error as DatabaseError {
                throw error.with(arguments: StatementArguments(container.databaseValues))
            }
        }
        return insert
    }

    /// The cached INSERT for the container's columns, prepared if needed.
    private func insertStatement(
        _ db: Database,
        type: ObjectIdentifier,
        tableName: () -> String,
        conflict: Database.ConflictResolution,
        container: PersistenceContainer) throws -> InsertStatement
    {
        let insert: InsertStatement
        if let cached = inserts.first(where: { $0.matches(type: type, conflict: conflict, container: container) }) {
            insert = cached
        } else {
            let table = tableName()
            let rowIDColumn = try db.primaryKey(table).rowIDColumn
            let sql = PersistenceEngine.insertSQL(table: table, columns: container.columns, conflict: conflict)
            insert = try InsertStatement(
                type: type, conflict: conflict, container: container,
                statement: db.makeStatement(sql: sql, persistent: true), rowIDColumn: rowIDColumn)
            inserts.append(insert)
        }
        lastInsert = .passUnretained(insert)
        return insert
    }
}
