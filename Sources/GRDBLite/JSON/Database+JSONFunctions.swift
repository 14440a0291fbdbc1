// SQLite's JSON functions (https://www.sqlite.org/json1.html), as SQL
// expressions. A function that takes JSON input reads any value as JSON
// text; a function that builds JSON (arrays, objects, inserted values)
// reads plain values as SQL values and JSON expressions (`JSONColumn`,
// `asJSON`) as JSON. SQLite reports malformed JSON when the statement runs,
// as a `DatabaseError` ("malformed JSON").

extension Database {
    /// `JSON(value)`: `value` as minified JSON text.
    public static func json(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON", [value.sqlExpression])
    }

    /// `JSON_ARRAY(value1, value2, ...)`: a JSON array of the values.
    ///
    /// ```swift
    /// // JSON_ARRAY(1, 2, 3)
    /// Database.jsonArray(1...3)
    /// ```
    public static func jsonArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        .function("JSON_ARRAY", jsonElements(values.map(\.sqlExpression)))
    }

    /// `JSON_ARRAY(value1, value2, ...)`: a JSON array of values of
    /// mixed types.
    public static func jsonArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        .function("JSON_ARRAY", jsonElements(values.map(\.sqlExpression)))
    }

    /// `JSON_ARRAY_LENGTH(value)`: the number of elements of a JSON array
    /// (0 for any other JSON value).
    public static func jsonArrayLength(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_ARRAY_LENGTH", [value.sqlExpression])
    }

    /// `JSON_ARRAY_LENGTH(value, path)`: the number of elements of the
    /// JSON array at `path`.
    public static func jsonArrayLength(
        _ value: some SQLExpressible,
        atPath path: some SQLExpressible) -> SQLExpression
    {
        .function("JSON_ARRAY_LENGTH", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_ERROR_POSITION(value)`: 0 for well-formed JSON, or the
    /// 1-based position of the first syntax error (SQLite 3.42+; an
    /// older SQLite fails with "no such function").
    public static func jsonErrorPosition(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_ERROR_POSITION", [value.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path)`: the value at the JSON path `path`
    /// (`"$.address.city"`), as an SQL value, or JSON text for arrays
    /// and objects.
    public static func jsonExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_EXTRACT(value, path1, path2, ...)`: the JSON array of the
    /// values at the JSON paths.
    public static func jsonExtract(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        .function("JSON_EXTRACT", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_INSERT(value, path1, value1, ...)`: `value` with the values
    /// inserted at paths where nothing is yet (`"$[#]"` appends to
    /// an array).
    public static func jsonInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSON_INSERT", [value.sqlExpression] + jsonPairs(assignments))
    }

    /// `JSON_REPLACE(value, path1, value1, ...)`: `value` with the values
    /// at existing paths replaced.
    public static func jsonReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSON_REPLACE", [value.sqlExpression] + jsonPairs(assignments))
    }

    /// `JSON_SET(value, path1, value1, ...)`: `value` with the values
    /// set at paths, existing or not.
    public static func jsonSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSON_SET", [value.sqlExpression] + jsonPairs(assignments))
    }

    /// `JSON_OBJECT(key1, value1, ...)`: a JSON object.
    ///
    /// ```swift
    /// // JSON_OBJECT('name', "name", 'score', "score")
    /// Database.jsonObject([
    ///     (key: "name", value: Column("name")),
    ///     (key: "score", value: Column("score")),
    /// ] as [(key: String, value: any SQLExpressible)])
    /// ```
    public static func jsonObject(
        _ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSON_OBJECT", jsonPairs(elements))
    }

    /// `JSON_PATCH(value, patch)`: `value` with the RFC 7396 merge
    /// patch applied.
    public static func jsonPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        .function("JSON_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// `JSON_REMOVE(value, path)`: `value` without the element at `path`.
    public static func jsonRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_REMOVE(value, path1, path2, ...)`: `value` without the
    /// elements at the paths.
    public static func jsonRemove(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        .function("JSON_REMOVE", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSON_TYPE(value)`: `'null'`, `'true'`, `'false'`, `'integer'`,
    /// `'real'`, `'text'`, `'array'` or `'object'`.
    public static func jsonType(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_TYPE", [value.sqlExpression])
    }

    /// `JSON_TYPE(value, path)`: the JSON type of the element at `path`,
    /// or NULL when there is none.
    public static func jsonType(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSON_TYPE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSON_VALID(value)`: 1 for well-formed JSON text, 0 otherwise.
    public static func jsonIsValid(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_VALID", [value.sqlExpression])
    }

    /// `JSON_VALID(value, flags)`: 1 for JSON valid under `options`
    /// (SQLite 3.45+; an older SQLite fails with its own error), or
    /// `JSON_VALID(value)` when `options` is nil.
    public static func jsonIsValid(
        _ value: some SQLExpressible,
        options: JSONValidationOptions?) -> SQLExpression
    {
        guard let options else {
            return .function("JSON_VALID", [value.sqlExpression])
        }
        return .function("JSON_VALID", [value.sqlExpression, options.rawValue.sqlExpression])
    }

    /// `JSON_QUOTE(value)`: `value` as JSON: a string is quoted, a JSON
    /// expression stays as it is.
    public static func jsonQuote(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSON_QUOTE", [value.sqlExpression.jsonBuilderExpression])
    }

    /// `JSON_GROUP_ARRAY(value) [FILTER (WHERE filter)]`: the aggregate
    /// JSON array of the values of a group.
    public static func jsonGroupArray(
        _ value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        jsonGroupArray(value, orderBy: nil, filter: filter)
    }

    /// `JSON_GROUP_ARRAY(value [ORDER BY ordering]) [FILTER (WHERE filter)]`:
    /// the aggregate JSON array of the values of a group. An ordering
    /// needs SQLite 3.44+ (older ones fail with their own syntax error).
    public static func jsonGroupArray(
        _ value: some SQLExpressible,
        orderBy ordering: (any SQLOrderingTerm)?,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        .aggregate(
            "JSON_GROUP_ARRAY", [value.sqlExpression.jsonBuilderExpression],
            ordering: ordering?.sqlOrdering, filter: filter?.sqlExpression)
    }

    /// `JSON_GROUP_OBJECT(key, value) [FILTER (WHERE filter)]`: the
    /// aggregate JSON object of the key/value pairs of a group.
    public static func jsonGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        .aggregate(
            "JSON_GROUP_OBJECT", [key.sqlExpression, value.sqlExpression.jsonBuilderExpression],
            filter: filter?.sqlExpression)
    }
}

extension Database {
    /// The arguments of a JSON-building function: JSON expressions parsed
    /// as JSON.
    static func jsonElements(_ values: [SQLExpression]) -> [SQLExpression] {
        values.map(\.jsonBuilderExpression)
    }

    /// `key1, value1, key2, value2...` for `JSON_OBJECT` and `JSON_SET`
    /// and their kind.
    static func jsonPairs(_ pairs: some Collection<(key: String, value: any SQLExpressible)>) -> [SQLExpression] {
        var arguments: [SQLExpression] = []
        arguments.reserveCapacity(pairs.count * 2)
        for (key, value) in pairs {
            arguments.append(key.sqlExpression)
            arguments.append(value.sqlExpression.jsonBuilderExpression)
        }
        return arguments
    }
}
