/// SQL conditions on primary keys and unique keys, shared by record
/// methods (`find`, `deleteOne`, `exists`...) and requests
/// (`filter(key:)`). Columns are unqualified, so that requests can qualify
/// them with their table.
enum RecordKeys {
    /// `"id" = ?` or `"id" IN (?, ?)`, on the single-column primary key of
    /// `table` (or its hidden rowid).
    static func primaryKey(_ db: Database, table: String, values: [DatabaseValue]) throws -> SQLExpression {
        // `columns` is built on each call: read once.
        let columns = try db.primaryKey(table).columns
        guard columns.count == 1 else {
            fatalError("""
                Requesting by key requires a single-column primary key in the table \(table), \
                whose primary key is \(columns). Use a key dictionary instead: \
                `key: [\(columns.map { "\"\($0)\": ..." }.joined(separator: ", "))]`.
                """)
        }
        return SQLCollection.array(values.map(SQLExpression.value)).contains(.column(columns[0]))
    }

    /// `("a" = ?) AND ("b" IS NULL)`, or several such conditions joined with
    /// `OR`, on unique keys of `table`. Keys that are not unique are a
    /// programmer error, as in GRDB.
    static func uniqueKeys(
        _ db: Database,
        table: String,
        keys: [[String: (any DatabaseValueConvertible)?]]) throws -> SQLExpression
    {
        try .associative(.or, keys.map { key in
            precondition(!key.isEmpty, "Invalid empty key dictionary for table \(table)")
            guard try db.table(table, hasUniqueKey: key.keys) else {
                fatalError("""
                    table \(table) has no unique key on column(s) \(key.keys.sorted()): \
                    add a primary key or a unique index on them.
                    """)
            }
            // The columns of the unique key in its order, as GRDB writes
            // them, then the other columns.
            let order = try uniqueKeyColumns(db, table: table, in: key.keys)
            let rank = { (column: String) in order.firstIndex(of: CaseInsensitiveIdentifier(column)) ?? order.count }
                return .associative(
                    .and,
                    key.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }.map { column, value in
                .equal(.column(column), .value(value?.databaseValue ?? .null))
            })
        })
    }

    /// The columns of the primary key or the first unique index of `table`
    /// that `columns` contain, in the order of the key.
    private static func uniqueKeyColumns(
        _ db: Database,
        table: String,
        in columns: some Collection<String>) throws -> [CaseInsensitiveIdentifier]
    {
        let columns = Set(columns.map(CaseInsensitiveIdentifier.init))
        if let primaryKey = try db.primaryKeyIfAny(table) {
            let keyColumns = primaryKey.columns.map(CaseInsensitiveIdentifier.init)
            if Set(keyColumns).isSubset(of: columns) { return keyColumns }
        }
        guard try db.tableExists(table) else { return [] }
        for index in try db.indexes(on: table) where index.isUnique {
            let keyColumns = index.columns.map(CaseInsensitiveIdentifier.init)
            if Set(keyColumns).isSubset(of: columns) { return keyColumns }
        }
        return []
    }
}
