/// A database table, for requests without a record type:
/// `Table("player")` fetches rows, `Table<Player>("player")` fetches
/// `Player` records.
///
/// ```swift
/// let playerTable = Table("player")
/// let rows = try playerTable.filter(Column("score") > 1000).fetchAll(db)  // [Row]
/// let count = try playerTable.fetchCount(db)
/// try playerTable.filter(key: 1).deleteAll(db)
/// ```
public struct Table<RowDecoder>: Sendable {
    /// The table name.
    public var tableName: String

    /// A table of `RowDecoder` records.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table where RowDecoder == Row {
    /// A table of rows.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table {
    /// All rows: `SELECT * FROM table`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(relation: .all(fromTable: tableName) { _ in [.allColumns] })
    }

    /// No row.
    public func none() -> QueryInterfaceRequest<RowDecoder> {
        all().none()
    }

    /// All rows, with the selected columns.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// All rows, with the selected columns.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// A request of another type: `Table("player").select(Column("name"), as: String.self)`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// A request of another type.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// All rows, with extra selected columns.
    /// The rows, selecting raw SQL: `select(sql: "id, name")`.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<
        RowDecoder
    > {
        all().select(sql: sql, arguments: arguments)
    }

    /// The rows, selecting an SQL literal.
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().select(literal: sqlLiteral)
    }

    /// A request of another type, that selects raw SQL.
    public func select<T>(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        as type: T.Type = T.self) -> QueryInterfaceRequest<T>
    {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// A request of another type, that selects an SQL literal.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// A request of the primary key values: `Table("player").selectPrimaryKey(as: Int64.self)`.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<
        PrimaryKey
    > {
        all().selectPrimaryKey(as: type)
    }

    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// All rows, with `selection` appended to the table's columns.
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// A request of the ids (the single-column primary key).
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> where RowDecoder: Identifiable {
        all().selectID()
    }

    /// The rows that match a condition.
    public func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(predicate)
    }

    /// The rows that match a condition written in SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<
        RowDecoder
    > {
        all().filter(sql: sql, arguments: arguments)
    }

    /// The rows that match a condition written as an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(literal: sqlLiteral)
    }

    /// The row with this primary key.
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// The rows with these primary keys.
    public func filter<Keys>(keys: Keys) -> QueryInterfaceRequest<RowDecoder>
    where Keys: Collection, Keys.Element: DatabaseValueConvertible
    {
        all().filter(keys: keys)
    }

    /// The row with this unique key.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// The rows with these unique keys.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }

    /// All rows, ordered.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// All rows, ordered.
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// All rows, ordered by an SQL ordering: `order(sql: "IFNULL(name, ?)", arguments: ["?"])`.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<
        RowDecoder
    > {
        all().order(sql: sql, arguments: arguments)
    }

    /// All rows, ordered by an SQL literal.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().order(literal: sqlLiteral)
    }

    /// All rows, ordered by primary key.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> {
        all().orderByPrimaryKey()
    }

    /// At most `limit` rows, after skipping `offset` rows.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
        all().limit(limit, offset: offset)
    }

    /// All rows, with the table named by `alias`.
    public func aliased(_ alias: TableAlias<Void>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }

    /// All rows, with the table named by `alias`.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }

    /// The number of rows.
    public func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }

    /// Deletes all rows; returns the number of deleted rows.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Updates all rows; returns the number of updated rows.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows; returns the number of updated rows.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder: TableRecord {
    /// Updates all rows: `Table<Player>("player").updateAll(db) { $0.score.set(to: 0) }`.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignment: assignment)
    }

    /// Updates all rows: `updateAll(db) { [$0.score.set(to: 0), $0.bonus += 1] }`.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments: assignments)
    }

    /// What the closures of requests receive: the `Columns` of the record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// The rows that match a condition: `Table<Player>("player").filter { $0.score > 1000 }`.
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows
        -> QueryInterfaceRequest<RowDecoder>
    {
        try all().filter(predicate)
    }

    /// All rows, ordered: `Table<Player>("player").order(\.name)`.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<
        RowDecoder
    > {
        try all().order(ordering)
    }

    /// All rows, with the selected columns.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<
        RowDecoder
    > {
        try all().select(selection)
    }
}

// MARK: - Keys

extension Table {
    /// Whether a row matches `condition`.
    private func exists(_ db: Database, where condition: SQLExpression) throws -> Bool {
        let (sql, arguments) = try SQL("SELECT EXISTS (\(all().filter(condition)))").build(db)
        return try Bool.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? false
    }

    /// Deletes the rows that match `condition`.
    private func deleteAll(_ db: Database, where condition: SQLExpression) throws -> Int {
        try all().filter(condition).deleteAll(db)
    }

    /// Whether a row has this primary key. A nil key matches no row: the
    /// database is not hit.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        let key = key.databaseValue
        if key.isNull { return false }
        return try exists(db, where: RecordKeys.primaryKey(db, table: tableName, values: [key]))
    }

    /// Whether a row matches this unique key: `["email": "a@example.com"]`.
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try exists(db, where: RecordKeys.uniqueKeys(db, table: tableName, keys: [key]))
    }

    /// Deletes the row with this primary key; returns whether a row was
    /// deleted.
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        let key = key.databaseValue
        if key.isNull { return false }
        return try deleteAll(db, where: RecordKeys.primaryKey(db, table: tableName, values: [key])) > 0
    }

    /// Deletes the rows with these primary keys; returns the number of
    /// deleted rows.
    @discardableResult
    public func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        if keys.isEmpty { return 0 }
        return try deleteAll(db, where: RecordKeys.primaryKey(db, table: tableName, values: keys.map(\.databaseValue)))
    }

    /// Deletes the row with this unique key; returns whether a row was
    /// deleted.
    @discardableResult
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try deleteAll(db, where: RecordKeys.uniqueKeys(db, table: tableName, keys: [key])) > 0
    }

    /// Deletes the rows with these unique keys; returns the number of
    /// deleted rows.
    @discardableResult
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        return try deleteAll(db, where: RecordKeys.uniqueKeys(db, table: tableName, keys: keys))
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Whether a row has this primary key.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        try exists(db, key: id)
    }

    /// Deletes the row with this primary key; returns whether a row was
    /// deleted.
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        try deleteOne(db, key: id)
    }

    /// Deletes the rows with these primary keys; returns the number of
    /// deleted rows.
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// The row with this id.
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(id: id)
    }

    /// The rows with these ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(ids: ids)
    }
}

// MARK: - Fetching

extension Table where RowDecoder: FetchableRecord {
    /// A cursor over all records.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> { try all().fetchCursor(db) }
    /// All records.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The first record, or nil.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// A set of all records.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder == Row {
    /// A cursor over all rows.
    public func fetchCursor(_ db: Database) throws -> RowCursor { try all().fetchCursor(db) }
    /// All rows.
    public func fetchAll(_ db: Database) throws -> [Row] { try all().fetchAll(db) }
    /// The first row, or nil.
    public func fetchOne(_ db: Database) throws -> Row? { try all().fetchOne(db) }
    /// A set of all rows.
    public func fetchSet(_ db: Database) throws -> Set<Row> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    /// The values of the leftmost column.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The value of the leftmost column of the first row, or nil.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    /// A set of the values of the leftmost column.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the leftmost column.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> { try all().fetchCursor(db) }
    /// The values of the leftmost column.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] { try all().fetchAll(db) }
    /// The value of the leftmost column of the first row, or nil.
    public func fetchOne(_ db: Database) throws -> RowDecoder? { try all().fetchOne(db) }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// A set of the values of the leftmost column.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> { try all().fetchSet(db) }
}

extension Table: DatabaseRegionConvertible {
    /// All rows and columns of the table:
    /// `try db.notifyChanges(in: Table("player"))`.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }
}
