// Requests of a record type: `Player.all()`, `Player.filter { ... }`...
// Each method is a shortcut for the same method of `all()`.

extension TableRecord {
    /// All rows of the table, with the columns of `databaseSelection`.
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(relation: .all(fromTable: databaseTableName) { _ in
            databaseSelection.map(\.sqlSelection)
        })
    }

    /// A request that returns no row.
    public static func none() -> QueryInterfaceRequest<Self> {
        all().none()
    }

    /// The number of columns of `databaseSelection` in the table (`*`
    /// counts all columns of the table), for row adapters (see
    /// ``splittingRowAdapters(columnCounts:)``).
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        try SQLQueryGenerator(relation: all().relation).makeStatement(db).columnCount
    }

    // MARK: Selection

    /// All rows, with the selected columns.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// All rows, with the selected columns.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// All rows, with the selected columns: `Player.select { $0.name }`.
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().select(selection)
    }

    /// All rows, with the selected columns: `Player.select { [$0.id, $0.name] }`.
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().select(selection)
    }

    /// All rows, with a selection written in SQL.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().select(sql: sql, arguments: arguments)
    }

    /// All rows, with a selection written as an SQL literal.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().select(literal: sqlLiteral)
    }

    /// A request of another type: `Player.select([max(Column("score"))], as: Int.self)`.
    public static func select<RowDecoder>(
        _ selection: [any SQLSelectable],
        as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(selection, as: type)
    }

    /// A request of another type: `Player.select(Column("name"), as: String.self)`.
    public static func select<RowDecoder>(
        _ selection: any SQLSelectable...,
        as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(selection, as: type)
    }

    /// A request of another type: `Player.select(\.name, as: String.self)`.
    public static func select<RowDecoder>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable,
        as type: RowDecoder.Type = RowDecoder.self) rethrows -> QueryInterfaceRequest<RowDecoder>
    {
        try all().select(selection, as: type)
    }

    /// A request of another type: `Player.select({ [$0.id, $0.name] }, as: Row.self)`.
    public static func select<RowDecoder>(
        _ selection: (DatabaseComponents) throws -> [any SQLSelectable],
        as type: RowDecoder.Type = RowDecoder.self) rethrows -> QueryInterfaceRequest<RowDecoder>
    {
        try all().select(selection, as: type)
    }

    /// A request of another type, that selects raw SQL.
    public static func select<RowDecoder>(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// A request of another type, that selects an SQL literal.
    public static func select<RowDecoder>(
        literal sqlLiteral: SQL,
        as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(literal: sqlLiteral, as: type)
    }

    /// A request of the primary key values.
    public static func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self)
        -> QueryInterfaceRequest<PrimaryKey>
    {
        all().selectPrimaryKey(as: type)
    }

    /// All rows, with extra selected columns.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// All rows, with extra selected columns.
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// All rows, with extra selected columns: `Player.annotated { ($0.score * 2).forKey("double") }`.
    public static func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: selection)
    }

    /// All rows, with extra selected columns.
    public static func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: selection)
    }

    // MARK: Filtering

    /// The rows that match a condition: `Player.filter(Column("score") > 1000)`.
    public static func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// The rows that match a condition: `Player.filter { $0.score > 1000 }`.
    public static func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().filter(predicate)
    }

    /// The row with this primary key.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// The rows with these primary keys.
    public static func filter<Keys>(keys: Keys) -> QueryInterfaceRequest<Self>
    where Keys: Collection, Keys.Element: DatabaseValueConvertible
    {
        all().filter(keys: keys)
    }

    /// The row with this unique key.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// The rows with these unique keys.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// The rows that match a condition written in SQL.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// The rows that match a condition written as an SQL literal.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().filter(literal: sqlLiteral)
    }

    // MARK: Ordering

    /// All rows, ordered: `Player.order(Column("score").desc)`.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// All rows, ordered.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// All rows, ordered: `Player.order { $0.name }`, `Player.order(\.name)`.
    public static func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().order(ordering)
    }

    /// All rows, ordered: `Player.order { [$0.score.desc, $0.name] }`.
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows
        -> QueryInterfaceRequest<Self>
    {
        try all().order(orderings)
    }

    /// All rows, ordered by primary key.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().orderByPrimaryKey()
    }

    /// All rows, ordered by raw SQL.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments())
        -> QueryInterfaceRequest<Self>
    {
        all().order(sql: sql, arguments: arguments)
    }

    /// All rows, ordered by an SQL literal.
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().order(literal: sqlLiteral)
    }

    // MARK: Limit and alias

    /// At most `limit` rows, after skipping `offset` rows.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }

    /// All rows, with the table named by `alias`.
    public static func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    /// All rows, with the table named by `alias`.
    public static func aliased(_ alias: TableAlias<Self>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }

    // MARK: Batch update

    /// Updates all rows; returns the number of updated rows.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = ?
    /// try Player.updateAll(db, Column("score").set(to: 0))
    /// ```
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows; returns the number of updated rows.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows: `Player.updateAll(db) { $0.score.set(to: 0) }`.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignment: assignment)
    }

    /// Updates all rows: `Player.updateAll(db) { [$0.score.set(to: 0), $0.bonus += 1] }`.
    @discardableResult
    public static func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments: assignments)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// The row with this id.
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> {
        all().filter(id: id)
    }

    /// The rows with these ids.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> {
        all().filter(ids: ids)
    }
}

extension TableRecord {
    /// A request of the ids (the single-column primary key).
    public static func selectID() -> QueryInterfaceRequest<Self.ID> where Self: Identifiable {
        all().selectID()
    }
}
