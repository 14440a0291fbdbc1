/// Options of ``Database/create(index:on:columns:options:condition:)``.
public struct IndexOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Creates the index only if it does not exist yet: `IF NOT EXISTS`.
    public static let ifNotExists = IndexOptions(rawValue: 1 << 0)
    /// Creates a unique index: `CREATE UNIQUE INDEX`.
    public static let unique = IndexOptions(rawValue: 1 << 1)
}

/// An index to create.
struct IndexDefinition {
    var name: String
    var table: String
    var expressions: [SQLExpression]
    var options: IndexOptions
    var condition: SQLExpression?

    /// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON "table"(...) [WHERE ...]`
    func sql(_ db: Database) throws -> String {
        var sql = "CREATE "
        if options.contains(.unique) { sql += "UNIQUE " }
        sql += "INDEX "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += "\(name.quotedDatabaseIdentifier) ON \(table.quotedDatabaseIdentifier)("
        sql += try expressions.map { try $0.literalSQL(db) }.joined(separator: ", ")
        sql += ")"
        if let condition {
            sql += try " WHERE \(condition.literalSQL(db))"
        }
        return sql
    }
}

extension Database {
    /// The name of the index that ``create(indexOn:columns:options:condition:)``
    /// creates: `index_<table>_on_<column1>_<column2>`.
    static func defaultIndexName(on table: String, columns: [String]) -> String {
        "index_\(table)_on_\(columns.joined(separator: "_"))"
    }
}
