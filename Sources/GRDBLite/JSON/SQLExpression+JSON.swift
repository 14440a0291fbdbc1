extension SQLExpression {
    /// SQLite functions whose result is JSON (text or JSONB), which
    /// JSON-building functions take as is.
    private static let functionsReturningJSON: Set<String> = [
        "JSON", "JSON_ARRAY", "JSON_OBJECT", "JSON_QUOTE", "JSON_PATCH",
        "JSON_INSERT", "JSON_REPLACE", "JSON_SET", "JSON_REMOVE",
        "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT",
        "JSONB", "JSONB_ARRAY", "JSONB_OBJECT", "JSONB_PATCH",
        "JSONB_INSERT", "JSONB_REPLACE", "JSONB_SET", "JSONB_REMOVE",
        "JSONB_GROUP_ARRAY", "JSONB_GROUP_OBJECT",
    ]

    /// Whether the expression is known to produce JSON: NULL, `->`, or a
    /// function that returns JSON. False says nothing.
    var isJSONValue: Bool {
        switch impl {
        case .value(let dbValue):
            return dbValue.isNull
        case .binary(let op, _, _):
            return op == .jsonExtractJSON
        case .collated(let expression, _):
            return expression.isJSONValue
        case let .function(name, arguments):
            let name = name.uppercased()
            // With several paths, JSON_EXTRACT returns a JSON array.
            if name == "JSON_EXTRACT" && arguments.count > 2 { return true }
            return Self.functionsReturningJSON.contains(name)
        case let .aggregate(name, _, _, _, _):
            return Self.functionsReturningJSON.contains(name.uppercased())
        default:
            return false
        }
    }

    /// The expression as an argument of a JSON-building function: an
    /// expression read as JSON that does not already produce JSON is
    /// parsed with `JSON(...)` (`JSONB(...)` from SQLite 3.45), so that
    /// `'[1,2]'` becomes an array rather than a string.
    var jsonBuilderExpression: SQLExpression {
        guard interpretsAsJSON, !isJSONValue else { return self }
        let parser = Database.sqliteLibVersionNumber >= 3045000 ? "JSONB" : "JSON"
        return .function(parser, [self])
    }
}
