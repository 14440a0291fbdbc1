/// An SQL expression that is read as JSON.
///
/// A JSON expression offers the `->` and `->>` operators and
/// `JSON_EXTRACT`, and JSON-building functions (``Database/jsonArray(_:)-(Collection)``,
/// ``Database/jsonObject(_:)``...) read it as JSON, not as a plain string:
///
/// ```swift
/// let address = JSONColumn("address")
///
/// // SELECT address ->> 'city' FROM player
/// let cities = try Player.select(address["city"], as: String.self).fetchAll(db)
///
/// // SELECT JSON_ARRAY(JSON(address), address) FROM player
/// // → '[{"city":"Paris"},"{\"city\":\"Paris\"}"]'
/// let array = Database.jsonArray([address, Column("address")] as [any SQLExpressible])
/// ```
///
/// ``JSONColumn`` and ``SQLSpecificExpressible/asJSON`` make JSON
/// expressions.
public protocol SQLJSONExpressible: SQLSpecificExpressible { }

extension ColumnExpression where Self: SQLJSONExpressible {
    /// The column, read as JSON by JSON-building functions.
    public var sqlExpression: SQLExpression {
        SQLExpression(impl: .column(name), interpretsAsJSON: true)
    }
}

/// Any JSON expression: the result of ``SQLSpecificExpressible/asJSON``.
public struct AnySQLJSONExpressible: SQLJSONExpressible, Sendable {
    /// The expression, read as JSON by JSON-building functions.
    public let sqlExpression: SQLExpression

    /// Wraps a JSON expression.
    public init(_ base: some SQLJSONExpressible) {
        self.sqlExpression = base.sqlExpression
    }

    /// Wraps `expression`, marked as JSON.
    init(sqlExpression expression: SQLExpression) {
        var expression = expression
        expression.interpretsAsJSON = true
        self.sqlExpression = expression
    }
}

extension SQLSpecificExpressible {
    /// The expression, read as JSON: it gets the `->` and `->>`
    /// operators, and JSON-building functions parse it as JSON.
    ///
    /// ```swift
    /// // SELECT info ->> 'firstName' FROM player
    /// let names = try Player.select(Column("info").asJSON["firstName"], as: String.self).fetchAll(db)
    /// ```
    public var asJSON: AnySQLJSONExpressible {
        AnySQLJSONExpressible(sqlExpression: sqlExpression)
    }
}

extension SQLJSONExpressible {
    /// `json ->> path`: the SQL value (text, number, NULL...) at `path`,
    /// a JSON path (`"$.address.city"`), an object key (`"city"`) or an
    /// array index (`2`).
    ///
    /// ```swift
    /// // SELECT * FROM player WHERE info ->> 'country' = 'FR'
    /// let players = try Player.filter(JSONColumn("info")["country"] == "FR").fetchAll(db)
    /// ```
    public subscript(_ path: some SQLExpressible) -> SQLExpression {
        .binary(.jsonExtractSQL, sqlExpression, path.sqlExpression)
    }

    /// `JSON_EXTRACT(json, path)`: the value at the JSON path `path`.
    public func jsonExtract(atPath path: some SQLExpressible) -> SQLExpression {
        Database.jsonExtract(self, atPath: path)
    }

    /// `JSON_EXTRACT(json, path1, path2, ...)`: the JSON array of the values
    /// at the JSON paths `paths`.
    public func jsonExtract(atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression {
        Database.jsonExtract(self, atPaths: paths)
    }

    /// `json -> path`: the JSON text of the subcomponent at `path`, a JSON
    /// path (`"$.address"`), an object key (`"address"`) or an array index.
    ///
    /// ```swift
    /// // SELECT info -> 'firstName' FROM player
    /// // → '"Arthur"'
    /// ```
    public func jsonRepresentation(atPath path: some SQLExpressible) -> SQLExpression {
        .binary(.jsonExtractJSON, sqlExpression, path.sqlExpression)
    }
}
