/// Builds and runs the statements of persistence methods (update, delete,
/// exists, upsert, RETURNING) for one record. Insertions without RETURNING
/// go through `RecordStorage`, which caches them.
struct PersistenceEngine {
    let db: Database
    let tableName: String
    let primaryKey: PrimaryKeyInfo
    let container: PersistenceContainer

    init<Record: MutablePersistableRecord>(_ db: Database, _ record: Record) throws {
        self.db = db
        self.tableName = Record.databaseTableName
        self.primaryKey = try db.primaryKey(tableName)
        self.container = try PersistenceContainer(record)
        precondition(!container.isEmpty, "\(Record.self): invalid empty persistence container, encode at least one column")
    }

    /// `INSERT [OR ...] INTO "table" ("a", "b") VALUES (?, ?)`
    static func insertSQL(table: String, columns: some Collection<String>, conflict: Database.ConflictResolution) -> String {
        let verb = conflict == .abort ? "INSERT" : "INSERT OR \(conflict.rawValue)"
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "\(verb) INTO \(table.quotedDatabaseIdentifier) "
            + "(\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(marks))"
    }

    // MARK: - Primary key

    var primaryKeyValues: [DatabaseValue] {
        primaryKey.columns.map { container.databaseValue(forColumn: $0) ?? .null }
    }

    /// `"a" = ? AND "b" = ?` on the primary key, or nil if the record has
    /// no primary key value (an unsaved record).
    func primaryKeyCondition() -> SQL? {
        let values = primaryKeyValues
        if values.allSatisfy(\.isNull) { return nil }
        let sql = primaryKey.columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        return SQL(sql: sql, arguments: StatementArguments(values))
    }

    func recordNotFound() -> RecordError {
        RecordError.recordNotFound(
            databaseTableName: tableName,
            key: Dictionary(zip(primaryKey.columns, primaryKeyValues), uniquingKeysWith: { $1 }))
    }

    // MARK: - Statements

    /// The SQL of a RETURNING clause.
    private func returningSQL(_ selection: [any SQLSelectable], _ context: SQLGenerationContext) throws -> String {
        try " RETURNING " + selection.map { try $0.sqlSelection.sql(context) }.joined(separator: ", ")
    }

    /// An INSERT with a RETURNING clause.
    func insertStatement(onConflict conflict: Database.ConflictResolution, returning selection: [any SQLSelectable]) throws -> Statement {
        let context = SQLGenerationContext(db)
        context.append(StatementArguments(container.databaseValues))
        let sql = try Self.insertSQL(table: tableName, columns: container.columns, conflict: conflict)
            + returningSQL(selection, context)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    /// `UPDATE ... SET ... WHERE <primary key>`, or nil if the record has no
    /// primary key value. Only the given columns that the record encodes
    /// and the table has are updated, primary key excluded; if none, the
    /// primary key is "updated" to itself, so that the update still
    /// checks the row exists and observers see it.
    func updateStatement(
        columns: Set<String>,
        onConflict conflict: Database.ConflictResolution,
        returning selection: [any SQLSelectable] = []) throws -> Statement?
    {
        guard primaryKeyCondition() != nil else { return nil }
        let requested = Set(columns.map(CaseInsensitiveIdentifier.init))
        let primaryKeyColumns = Set(primaryKey.columns.map(CaseInsensitiveIdentifier.init))
        var updated = try db.columns(in: tableName).map(\.name).filter {
            requested.contains(CaseInsensitiveIdentifier($0))
                && !primaryKeyColumns.contains(CaseInsensitiveIdentifier($0))
                && container.index(forColumn: $0) != nil
        }
        if updated.isEmpty { updated = primaryKey.columns }
        let context = SQLGenerationContext(db)
        let verb = conflict == .abort ? "UPDATE" : "UPDATE OR \(conflict.rawValue)"
        let assignments = updated.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
        let condition = primaryKey.columns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
        context.append(StatementArguments(updated.map { container.databaseValue(forColumn: $0) ?? .null } + primaryKeyValues))
        var sql = "\(verb) \(tableName.quotedDatabaseIdentifier) SET \(assignments) WHERE \(condition)"
        if !selection.isEmpty { sql += try returningSQL(selection, context) }
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    /// `INSERT ... ON CONFLICT [(target)] DO UPDATE SET ... RETURNING rowid,
    /// <selection>`: columns that are not in the primary key or the
    /// conflict target are overwritten with the inserted values.
    func upsertStatement(conflictTarget: [String], returning selection: [any SQLSelectable]) throws -> Statement {
        let context = SQLGenerationContext(db)
        context.append(StatementArguments(container.databaseValues))
        var sql = Self.insertSQL(table: tableName, columns: container.columns, conflict: .abort)
        sql += " ON CONFLICT"
        if !conflictTarget.isEmpty {
            sql += "(\(conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
        }
        let excluded = Set((primaryKey.columns + conflictTarget).map(CaseInsensitiveIdentifier.init))
        let assignments = container.columns
            .filter { !excluded.contains(CaseInsensitiveIdentifier($0)) }
            .map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }
        if assignments.isEmpty {
            // Something must be updated for RETURNING to return the row.
            let column = primaryKey.columns[0].quotedDatabaseIdentifier
            sql += " DO UPDATE SET \(column) = \(column)"
        } else {
            sql += " DO UPDATE SET " + assignments.joined(separator: ", ")
        }
        sql += try returningSQL([Column.rowID] + selection, context)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    /// Runs an UPDATE; throws `recordNotFound` when no row matched.
    func update<T>(columns: Set<String>, onConflict conflict: Database.ConflictResolution,
                   returning selection: [any SQLSelectable] = [], fetch: (Statement) throws -> T) throws -> T
    {
        guard let statement = try updateStatement(columns: columns, onConflict: conflict, returning: selection) else {
            throw recordNotFound()
        }
        let changes = db.totalChangesCount
        let result = try fetch(statement)
        if db.totalChangesCount == changes { throw recordNotFound() }
        return result
    }

    /// Runs a DELETE; returns whether a row was deleted.
    func delete() throws -> Bool {
        guard let condition = primaryKeyCondition() else { return false }
        let (sql, arguments) = try condition.build(db)
        try db.cachedStatement(sql: "DELETE FROM \(tableName.quotedDatabaseIdentifier) WHERE \(sql)").execute(arguments: arguments)
        return db.changesCount > 0
    }
}
