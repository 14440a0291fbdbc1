/// A column of a table being created or altered, and its constraints.
///
/// You get one from ``TableDefinition/column(_:_:)`` or
/// ``TableAlteration/add(column:_:)``, and refine it with chained calls:
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("email", .text).notNull().unique().collate(.nocase)
///     t.column("score", .integer).notNull().defaults(to: 0).check(sql: "score >= 0")
///     t.column("teamId", .integer).references("team", onDelete: .cascade).indexed()
/// }
/// ```
public final class ColumnDefinition {
    enum Indexing {
        case index
        case unique(Database.ConflictResolution)
    }

    /// A generated column: `GENERATED ALWAYS AS (...) VIRTUAL`.
    public enum GeneratedColumnQualification: Sendable {
        /// Computed when read.
        case virtual
        /// Computed when written, and stored.
        case stored
    }

    let name: String
    let type: Database.ColumnType?
    var primaryKey: (conflictResolution: Database.ConflictResolution?, autoincrement: Bool)?
    var notNullConflictResolution: Database.ConflictResolution?
    var indexing: Indexing?
    var checks: [SQLExpression] = []
    var defaultExpression: SQLExpression?
    var collationName: String?
    var references: [ReferenceClause] = []
    var generated: (expression: SQLExpression, qualification: GeneratedColumnQualification)?

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    /// Makes the column the primary key: `PRIMARY KEY`.
    ///
    /// An `INTEGER` primary key is an alias for the rowid; `autoincrement`
    /// prevents the reuse of deleted ids.
    @discardableResult
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        autoincrement: Bool = false) -> Self
    {
        primaryKey = (conflictResolution, autoincrement)
        return self
    }

    /// Forbids NULL: `NOT NULL`.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// Forbids duplicate values: `UNIQUE`.
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        indexing = .unique(conflictResolution ?? .abort)
        return self
    }

    /// Creates an index on the column, named `<table>_on_<column>`
    /// (unless the column is unique, which is already indexed).
    @discardableResult
    public func indexed() -> Self {
        if case .none = indexing {
            indexing = .index
        }
        return self
    }

    /// Adds a check constraint built from the column:
    /// `t.column("score", .integer).check { $0 >= 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> any SQLExpressible) -> Self {
        checks.append(condition(Column(name)).sqlExpression)
        return self
    }

    /// Adds a check constraint: `.check(sql: "score >= 0")`.
    @discardableResult
    public func check(sql: String) -> Self {
        checks.append(SQL(sql: sql).sqlExpression)
        return self
    }

    /// Sets the default value, written in the schema as an SQL literal:
    /// `DEFAULT 'O''Brien'`.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultExpression = .value(value.databaseValue)
        return self
    }

    /// Sets the default value with SQL: `.defaults(sql: "CURRENT_TIMESTAMP")`.
    @discardableResult
    public func defaults(sql: String) -> Self {
        defaultExpression = SQL(sql: sql).sqlExpression
        return self
    }

    /// Sets the collation of the column: `.collate(.nocase)`.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        collationName = collation.rawValue
        return self
    }

    /// Sets a custom collation of the column, which must be added to each
    /// connection that uses the table.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collationName = collation.name
        return self
    }

    /// Makes the column a generated column, computed from SQL.
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generated = (SQL(sql: sql).sqlExpression, qualification)
        return self
    }

    /// Makes the column a generated column, computed from an expression.
    @discardableResult
    public func generatedAs(
        _ expression: some SQLExpressible,
        _ qualification: GeneratedColumnQualification = .virtual) -> Self
    {
        generated = (expression.sqlExpression, qualification)
        return self
    }

    /// Adds a foreign key to another table: `REFERENCES`.
    ///
    /// - parameters:
    ///   - table: The referenced table.
    ///   - column: The referenced column. If nil, the primary key of the
    ///     referenced table.
    ///   - deleteAction: What happens when the referenced row is deleted.
    ///   - updateAction: What happens when the referenced row is updated.
    ///   - isDeferred: Whether the foreign key is checked at the end of
    ///     the transaction only (`DEFERRABLE INITIALLY DEFERRED`).
    @discardableResult
    public func references(
        _ table: String,
        column: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false) -> Self
    {
        references.append(ReferenceClause(
            table: table, columns: column.map { [$0] },
            deleteAction: deleteAction, updateAction: updateAction,
            isDeferred: isDeferred))
        return self
    }

    /// The index that `indexed()` asks for.
    func index(in table: String, options: IndexOptions) -> IndexDefinition? {
        guard case .index = indexing else { return nil }
        return IndexDefinition(
            name: "\(table)_on_\(name)", table: table,
            expressions: [.column(name)], options: options, condition: nil)
    }
}

@available(*, unavailable)
extension ColumnDefinition: Sendable { }
