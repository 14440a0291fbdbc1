/// Builds and runs the statements of persistence methods (update, delete,
/// exists, upsert, RETURNING) for one record. Insertions without RETURNING
/// go through `RecordStorage`, which caches them.
struct PersistenceEngine {
    let db: Database
    let tableName: String
    let primaryKey: PrimaryKeyInfo
    let container: PersistenceContainer

    init<Record: TableRecord & EncodableRecord>(_ db: Database, _ record: Record) throws {
        self.db = db
        // The dynamic type: a `Record` subclass has its own table.
        self.tableName = type(of: record).databaseTableName
        self.primaryKey = try db.primaryKey(tableName)
        self.container = try PersistenceContainer(record)
        precondition(
            !container.isEmpty, "\(Record.self): invalid empty persistence container, encode at least one column")
    }

    /// `INSERT [OR ...] INTO "table" ("a", "b") VALUES (?,?)`, GRDB's text.
    static func insertSQL(table: String, columns: some Collection<String>, conflict: Database.ConflictResolution)
        -> String
    {
        let verb = conflict == .abort ? "INSERT" : "INSERT OR \(conflict.rawValue)"
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ",")
        return "\(verb) INTO \(table.quotedDatabaseIdentifier) "
            + "(\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(marks))"
    }

    /// `"a"=?, "b"=?` (separated by `separator`), GRDB's text.
    static func assignmentsSQL(_ columns: [String], separator: String) -> String {
        columns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: separator)
    }

    // MARK: - Primary key

    var primaryKeyValues: [DatabaseValue] {
        primaryKey.columns.map { container.databaseValue(forColumn: $0) ?? .null }
    }

    /// Whether the record has a primary key value (it may be saved).
    var hasPrimaryKey: Bool {
        !primaryKeyValues.allSatisfy(\.isNull)
    }

    /// ` WHERE "a"=? AND "b"=?` on the primary key.
    private var primaryKeyWhereSQL: String {
        " WHERE " + Self.assignmentsSQL(primaryKey.columns, separator: " AND ")
    }

    func recordNotFound() -> RecordError {
        RecordError.recordNotFound(
            databaseTableName: tableName,
            key: Dictionary(zip(primaryKey.columns, primaryKeyValues), uniquingKeysWith: { $1 }))
    }

    // MARK: - Statements

    /// A cached statement of `sql` with `arguments`, and a RETURNING clause
    /// for `selection`, if not empty.
    private func statement(sql: String, arguments: [DatabaseValue], returning selection: [any SQLSelectable]) throws
        -> Statement
    {
        var sql = sql
        var arguments = StatementArguments(arguments)
        if !selection.isEmpty {
            // Selections such as `.allColumns(excluding:)` need the table:
            // they are qualified with it (a single table: no qualifier is
            // written).
            let alias = TableAliasBase(tableName: tableName)
            let context = SQLGenerationContext(db, aliases: [alias])
            sql += try " RETURNING " + selection.map { try $0.sqlSelection.qualified(with: alias).sql(context) }
                .joined(separator: ", ")
            arguments.append(contentsOf: context.arguments)
        }
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }

    /// An INSERT with a RETURNING clause.
    func insertStatement(onConflict conflict: Database.ConflictResolution, returning selection: [any SQLSelectable])
        throws -> Statement
    {
        try statement(
            sql: Self.insertSQL(table: tableName, columns: container.columns, conflict: conflict),
            arguments: Array(container.databaseValues),
            returning: selection)
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
        guard hasPrimaryKey else { return nil }
        let requested = Set(columns.map(CaseInsensitiveIdentifier.init))
        let primaryKeyColumns = Set(primaryKey.columns.map(CaseInsensitiveIdentifier.init))
        var updated = try db.columns(in: tableName).map(\.name).filter {
            requested.contains(CaseInsensitiveIdentifier($0))
                && !primaryKeyColumns.contains(CaseInsensitiveIdentifier($0))
                && container.index(forColumn: $0) != nil
        }
        if updated.isEmpty { updated = primaryKey.columns }
        let verb = conflict == .abort ? "UPDATE" : "UPDATE OR \(conflict.rawValue)"
        return try statement(
            sql: "\(verb) \(tableName.quotedDatabaseIdentifier) SET \(Self.assignmentsSQL(updated, separator: ", "))"
                + primaryKeyWhereSQL,
            arguments: updated.map { container.databaseValue(forColumn: $0) ?? .null } + primaryKeyValues,
            returning: selection)
    }

    /// `INSERT ... ON CONFLICT [(target)] DO UPDATE SET ... RETURNING
    /// <selection>, "rowid"`.
    ///
    /// - parameter overwritesAllColumns: Whether the columns that are not
    ///   in the primary key, the conflict target or `assignments` are
    ///   overwritten with the inserted values.
    /// - parameter assignments: The columns to update, and how: nil
    ///   values leave a column as it is.
    func upsertStatement(
        conflictTarget: [String],
        overwritesAllColumns: Bool,
        assignments: [(column: String, value: SQLExpression?)],
        returning selection: [any SQLSelectable]) throws -> Statement
    {
        var sql = Self.insertSQL(table: tableName, columns: container.columns, conflict: .abort)
        sql += " ON CONFLICT"
        if !conflictTarget.isEmpty {
            sql += "(\(conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))"
        }
        var assignments = assignments
        if overwritesAllColumns {
            let kept = Set(
                (primaryKey.columns + conflictTarget + assignments.map(\.column)).map(CaseInsensitiveIdentifier.init))
            let excluded = TableAliasBase(tableName: tableName, userName: "excluded")
            for column in container.columns where !kept.contains(CaseInsensitiveIdentifier(column)) {
                assignments.append((column, excluded[column]))
            }
        }
        let context = SQLGenerationContext(db)
        let assignmentsSQL = try assignments.compactMap { column, value in
            try value.map { try "\(column.quotedDatabaseIdentifier) = \($0.sql(context))" }
        }
        if assignmentsSQL.isEmpty {
            // Something must be updated for RETURNING to return the row.
            let column = primaryKey.columns[0].quotedDatabaseIdentifier
            sql += " DO UPDATE SET \(column) = \(column)"
        } else {
            sql += " DO UPDATE SET " + assignmentsSQL.joined(separator: ", ")
        }
        return try statement(
            sql: sql,
            arguments: Array(container.databaseValues) + context.arguments.values,
            returning: selection + [Column.rowID])
    }

    /// Runs an UPDATE; throws `recordNotFound` when no row matched.
    func update<T>(columns: Set<String>, onConflict conflict: Database.ConflictResolution,
                   returning selection: [any SQLSelectable] = [], fetch: (Statement) throws -> T) throws -> T
    {
        guard let statement = try updateStatement(columns: columns, onConflict: conflict, returning: selection) else {
            throw recordNotFound()
        }
        // Changes of this statement only: FTS5 may write its pending
        // index data into its shadow tables while the statement runs.
        var result: T?
        let changes = try db.changesCount(writing: tableName) { result = try fetch(statement) }
        guard changes > 0, let result else { throw recordNotFound() }
        return result
    }

    /// Runs a DELETE; returns whether a row was deleted.
    func delete() throws -> Bool {
        guard hasPrimaryKey else { return false }
        return try db.changesCount(writing: tableName) {
            try db.cachedStatement(sql: "DELETE FROM \(tableName.quotedDatabaseIdentifier)" + primaryKeyWhereSQL)
                .execute(arguments: StatementArguments(primaryKeyValues))
        } > 0
    }

    /// Whether a row has the primary key of the record.
    func exists() throws -> Bool {
        guard hasPrimaryKey else { return false }
        let sql = "SELECT EXISTS (SELECT 1 FROM \(tableName.quotedDatabaseIdentifier)\(primaryKeyWhereSQL))"
        return try Bool.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(primaryKeyValues)) ?? false
    }
}
