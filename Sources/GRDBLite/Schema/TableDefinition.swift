/// Options of ``Database/create(table:options:body:)``.
public struct TableOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Creates the table only if it does not exist yet: `IF NOT EXISTS`.
    public static let ifNotExists = TableOptions(rawValue: 1 << 0)
    /// Creates a temporary table, dropped when the connection closes.
    public static let temporary = TableOptions(rawValue: 1 << 1)
    /// Creates a [`WITHOUT ROWID`](https://www.sqlite.org/withoutrowid.html) table.
    public static let withoutRowID = TableOptions(rawValue: 1 << 2)
    /// Creates a [`STRICT`](https://www.sqlite.org/stricttables.html) table.
    public static let strict = TableOptions(rawValue: 1 << 3)
}

/// The columns and constraints of a table being created by
/// ``Database/create(table:options:body:)``.
///
/// ```swift
/// try db.create(table: "book") { t in // t is a TableDefinition
///     t.autoIncrementedPrimaryKey("id")
///     t.column("title", .text).notNull()
///     t.belongsTo("author", onDelete: .cascade).notNull()
///     t.uniqueKey(["authorId", "title"])
/// }
/// ```
public final class TableDefinition {
    /// A column of a PRIMARY KEY or UNIQUE constraint.
    enum KeyComponent {
        case column(String)
        case columnDefinition(ColumnDefinition)
        case foreignKey(ForeignKeyDefinition)
    }

    struct KeyConstraint {
        var components: [KeyComponent]
        var conflictResolution: Database.ConflictResolution?
    }

    /// What defines columns, in order.
    enum ColumnComponent {
        case column(ColumnDefinition)
        case sql(SQL)
        case belongsTo(ForeignKeyDefinition)
        case foreignKey(TableForeignKey)
    }

    let name: String
    let options: TableOptions
    var columnComponents: [ColumnComponent] = []
    var primaryKeyConstraint: KeyConstraint?
    var uniqueKeyConstraints: [KeyConstraint] = []
    var checks: [SQLExpression] = []
    var constraints: [SQL] = []
    /// Inside `primaryKey { }`, columns join the primary key.
    private var isInPrimaryKeyBody = false

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    // MARK: - Columns

    /// Appends a column: `t.column("name", .text)`.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        columnComponents.append(.column(column))
        if isInPrimaryKeyBody {
            // SQLite allows NULL in primary keys of rowid tables (a
            // historical quirk): forbid it explicitly.
            column.notNull()
            primaryKeyConstraint!.components.append(.columnDefinition(column))
        }
        return column
    }

    /// Appends a column defined with SQL: `t.column(sql: "name TEXT")`.
    public func column(sql: String) {
        column(literal: SQL(sql: sql))
    }

    /// Appends a column defined with an SQL literal, whose interpolated
    /// values are written as SQL literals.
    public func column(literal: SQL) {
        precondition(!isInPrimaryKeyBody, "Primary key columns can not be defined with raw SQL")
        columnComponents.append(.sql(literal))
    }

    // MARK: - Primary key

    /// Appends an auto-incremented primary key:
    /// `"id" INTEGER PRIMARY KEY AUTOINCREMENT`.
    ///
    /// Deleted ids are never reused.
    @discardableResult
    public func autoIncrementedPrimaryKey(
        _ name: String,
        onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition
    {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// Appends a primary key column: `t.primaryKey("uuid", .text)`.
    ///
    /// Unless the type is `INTEGER` (an alias for the rowid, never NULL),
    /// the column is also NOT NULL, which SQLite does not enforce by itself.
    @discardableResult
    public func primaryKey(
        _ name: String,
        _ type: Database.ColumnType,
        onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition
    {
        let column = column(name, type).primaryKey(onConflict: conflictResolution)
        if type != .integer {
            column.notNull()
        }
        return column
    }

    /// Defines a primary key made of the columns (and `belongsTo` foreign
    /// keys) declared in `body`, which are NOT NULL:
    ///
    /// ```swift
    /// try db.create(table: "membership") { t in
    ///     t.primaryKey {
    ///         t.belongsTo("user")
    ///         t.belongsTo("group")
    ///     }
    ///     t.column("role", .text)
    /// }
    /// ```
    public func primaryKey(
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        body: () throws -> Void) rethrows
    {
        precondition(primaryKeyConstraint == nil, "can't define several primary keys")
        primaryKeyConstraint = KeyConstraint(components: [], conflictResolution: conflictResolution)
        isInPrimaryKeyBody = true
        defer { isInPrimaryKeyBody = false }
        try body()
    }

    /// Defines a primary key on columns: `PRIMARY KEY ("a", "b")`.
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        precondition(primaryKeyConstraint == nil, "can't define several primary keys")
        primaryKeyConstraint = KeyConstraint(
            components: columns.map { .column($0) },
            conflictResolution: conflictResolution)
    }

    // MARK: - Other constraints

    /// Adds a unique constraint on columns: `UNIQUE ("a", "b")`.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        uniqueKeyConstraints.append(KeyConstraint(
            components: columns.map { .column($0) },
            conflictResolution: conflictResolution))
    }

    /// Adds a foreign key on columns:
    /// `FOREIGN KEY ("a", "b") REFERENCES "parent"("x", "y")`.
    ///
    /// - parameters:
    ///   - columns: The referencing columns.
    ///   - table: The referenced table.
    ///   - destinationColumns: The referenced columns. If nil, the primary
    ///     key of the referenced table.
    ///   - deleteAction: What happens when the referenced row is deleted.
    ///   - updateAction: What happens when the referenced row is updated.
    ///   - isDeferred: Whether the foreign key is checked at the end of
    ///     the transaction only.
    public func foreignKey(
        _ columns: [String],
        references table: String,
        columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false)
    {
        columnComponents.append(.foreignKey(TableForeignKey(columns: columns, reference: ReferenceClause(
            table: table, columns: destinationColumns,
            deleteAction: deleteAction, updateAction: updateAction, isDeferred: isDeferred))))
    }

    /// Adds columns that refer to the primary key of another table, and
    /// their foreign key.
    ///
    /// There is one column per primary key column of the referenced table,
    /// named `name` followed by the capitalized primary key column, with
    /// the same type: `belongsTo("author")` adds `authorId` when `author`
    /// has an `id` primary key, `belongsTo("country")` adds `countryCode`
    /// when `country` has a `code` primary key, and `authorId` again when
    /// `author` has a hidden rowid. The columns are indexed unless
    /// `indexed` is false.
    ///
    /// ```swift
    /// // CREATE TABLE "book" (
    /// //   "id" INTEGER PRIMARY KEY AUTOINCREMENT,
    /// //   "authorId" INTEGER NOT NULL REFERENCES "author"("id") ON DELETE CASCADE);
    /// // CREATE INDEX "book_on_authorId" ON "book"("authorId")
    /// try db.create(table: "book") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.belongsTo("author", onDelete: .cascade).notNull()
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - name: The prefix of the columns, and the referenced table when
    ///     `table` is nil (`name`, or its plural if only the plural table
    ///     exists).
    ///   - table: The referenced table.
    ///   - deleteAction: What happens when the referenced row is deleted.
    ///   - updateAction: What happens when the referenced row is updated.
    ///   - isDeferred: Whether the foreign key is checked at the end of
    ///     the transaction only.
    ///   - indexed: Whether the columns are indexed.
    @discardableResult
    public func belongsTo(
        _ name: String,
        inTable table: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false,
        indexed: Bool = true) -> ForeignKeyDefinition
    {
        let foreignKey = ForeignKeyDefinition(
            name: name, table: table,
            deleteAction: deleteAction, updateAction: updateAction,
            isDeferred: isDeferred,
            isIndexed: indexed && !isInPrimaryKeyBody) // the primary key is indexed already
        columnComponents.append(.belongsTo(foreignKey))
        if isInPrimaryKeyBody {
            foreignKey.notNull()
            primaryKeyConstraint!.components.append(.foreignKey(foreignKey))
        }
        return foreignKey
    }

    /// Adds a check constraint: `CHECK (...)`.
    public func check(_ condition: some SQLSpecificExpressible) {
        checks.append(condition.sqlExpression)
    }

    /// Adds a check constraint on a value, such as a string: `t.check("a <
    /// b")` checks the string `'a < b'`, which is not what one means.
    @available(*, deprecated, message: "Use check(sql:) for SQL, or check(_:) with an expression")
    public func check(_ condition: some SQLExpressible) {
        checks.append(condition.sqlExpression)
    }

    /// Adds a check constraint with SQL: `t.check(sql: "a < b")`.
    public func check(sql: String) {
        checks.append(SQL(sql: sql).sqlExpression)
    }

    /// Adds a table constraint with SQL: `t.constraint(sql: "CHECK (a < b)")`.
    public func constraint(sql: String) {
        constraints.append(SQL(sql: sql))
    }

    /// Adds a table constraint with an SQL literal, whose interpolated
    /// values are written as SQL literals.
    public func constraint(literal: SQL) {
        constraints.append(literal)
    }
}

@available(*, unavailable)
extension TableDefinition: Sendable { }
