/// A foreign key of a table, as `PRAGMA foreign_key_list` describes it,
/// with the referenced columns always known (the primary key of the
/// referenced table when the foreign key does not name them).
///
/// ```swift
/// // CREATE TABLE book (authorId REFERENCES author(id))
/// let foreignKey = try db.foreignKeys(on: "book")[0]
/// foreignKey.destinationTable   // "author"
/// foreignKey.originColumns      // ["authorId"]
/// foreignKey.destinationColumns // ["id"]
/// ```
public struct ForeignKeyInfo: Sendable {
    /// The identifier of the foreign key in the table.
    public var id: Int
    /// The referenced table.
    public let destinationTable: String
    /// Pairs of referencing and referenced columns.
    public let mapping: [(origin: String, destination: String)]

    /// The referencing columns.
    public var originColumns: [String] { mapping.map(\.origin) }

    /// The referenced columns.
    public var destinationColumns: [String] { mapping.map(\.destination) }
}
