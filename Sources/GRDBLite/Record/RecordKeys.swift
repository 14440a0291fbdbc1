/// SQL conditions on primary keys and unique keys, shared by record
/// methods (`find`, `deleteOne`, `exists`...) and requests.
enum RecordKeys {
    /// `"id" = ?` or `"id" IN (?, ?)`, on the single-column primary key of
    /// `table` (or its hidden rowid).
    static func primaryKey(_ db: Database, table: String, values: [DatabaseValue]) throws -> SQL {
        let primaryKey = try db.primaryKey(table)
        guard primaryKey.columns.count == 1 else {
            fatalError("""
                Requesting by key requires a single-column primary key in the table \(table), \
                whose primary key is \(primaryKey.columns). Use a key dictionary instead: \
                `key: [\(primaryKey.columns.map { "\"\($0)\": ..." }.joined(separator: ", "))]`.
                """)
        }
        let column = primaryKey.columns[0].quotedDatabaseIdentifier
        switch values.count {
        case 0:
            return "0"
        case 1:
            return SQL(sql: "\(column) = ?", arguments: StatementArguments(values))
        default:
            let marks = Array(repeating: "?", count: values.count).joined(separator: ", ")
            return SQL(sql: "\(column) IN (\(marks))", arguments: StatementArguments(values))
        }
    }

    /// `("a" = ? AND "b" IS NULL) OR (...)`, on unique keys of `table`.
    /// Keys that are not unique are a programmer error, as in GRDB.
    static func uniqueKeys(
        _ db: Database,
        table: String,
        keys: [[String: (any DatabaseValueConvertible)?]]) throws -> SQL
    {
        guard !keys.isEmpty else { return "0" }
        var conditions: [String] = []
        var arguments = StatementArguments()
        for key in keys {
            precondition(!key.isEmpty, "Invalid empty key dictionary for table \(table)")
            guard try db.table(table, hasUniqueKey: key.keys) else {
                fatalError("""
                    table \(table) has no unique key on column(s) \(key.keys.sorted()): \
                    add a primary key or a unique index on them.
                    """)
            }
            let terms = key.sorted { $0.key < $1.key }.map { column, value -> String in
                let dbValue = value?.databaseValue ?? .null
                if dbValue.isNull { return "\(column.quotedDatabaseIdentifier) IS NULL" }
                arguments.values.append(dbValue)
                return "\(column.quotedDatabaseIdentifier) = ?"
            }
            conditions.append("(" + terms.joined(separator: " AND ") + ")")
        }
        return SQL(sql: conditions.joined(separator: " OR "), arguments: arguments)
    }
}
