/// A column that holds JSON text: a ``Column`` that is also a
/// ``SQLJSONExpressible``.
///
/// ```swift
/// struct Player: Codable, FetchableRecord, PersistableRecord {
///     var id: Int64
///     var address: Address // stored as JSON text
///
///     enum Columns {
///         static let address = JSONColumn(CodingKeys.address)
///     }
/// }
///
/// // SELECT * FROM player WHERE address ->> 'city' = 'Paris'
/// let parisians = try Player.filter { $0.address["city"] == "Paris" }.fetchAll(db)
/// ```
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, Sendable {
    /// The column name, unqualified.
    public var name: String

    /// A JSON column named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// A JSON column named after a coding key: `JSONColumn(CodingKeys.info)`.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}
