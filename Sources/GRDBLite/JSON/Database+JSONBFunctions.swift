// SQLite's JSONB functions (SQLite 3.45+), which produce SQLite's binary
// JSON. They are always available here; on an older SQLite (Debian's 3.40)
// a statement that uses one fails when it is prepared, with SQLite's own
// `DatabaseError` ("no such function: JSONB"...).

extension Database {
    /// The flags of `JSON_VALID(value, flags)`: what counts as valid.
    public struct JSONValidationOptions: OptionSet, Sendable {
        public let rawValue: Int

        /// Options from SQLite's flags.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Canonical RFC 8259 JSON text.
        public static let json = JSONValidationOptions(rawValue: 1)
        /// JSON5 text.
        public static let json5 = JSONValidationOptions(rawValue: 2)
        /// A blob that looks like JSONB at a glance.
        public static let probablyJSONB = JSONValidationOptions(rawValue: 4)
        /// A blob that is well-formed JSONB.
        public static let jsonb = JSONValidationOptions(rawValue: 8)
    }

    /// `JSONB(value)`: `value` as JSONB.
    public static func jsonb(_ value: some SQLExpressible) -> SQLExpression {
        .function("JSONB", [value.sqlExpression])
    }

    /// `JSONB_ARRAY(value1, value2, ...)`: a JSONB array of the values.
    public static func jsonbArray(_ values: some Collection<some SQLExpressible>) -> SQLExpression {
        .function("JSONB_ARRAY", jsonElements(values.map(\.sqlExpression)))
    }

    /// `JSONB_ARRAY(value1, value2, ...)`: a JSONB array of values of
    /// mixed types.
    public static func jsonbArray(_ values: some Collection<any SQLExpressible>) -> SQLExpression {
        .function("JSONB_ARRAY", jsonElements(values.map(\.sqlExpression)))
    }

    /// `JSONB_EXTRACT(value, path)`: the value at `path`, arrays and
    /// objects as JSONB.
    public static func jsonbExtract(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSONB_EXTRACT", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSONB_EXTRACT(value, path1, path2, ...)`: the JSONB array of the
    /// values at the paths.
    public static func jsonbExtract(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        .function("JSONB_EXTRACT", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSONB_INSERT(value, path1, value1, ...)`, as ``jsonInsert(_:_:)``
    /// with a JSONB result.
    public static func jsonbInsert(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSONB_INSERT", [value.sqlExpression] + jsonPairs(assignments))
    }

    /// `JSONB_REPLACE(value, path1, value1, ...)`, as ``jsonReplace(_:_:)``
    /// with a JSONB result.
    public static func jsonbReplace(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSONB_REPLACE", [value.sqlExpression] + jsonPairs(assignments))
    }

    /// `JSONB_SET(value, path1, value1, ...)`, as ``jsonSet(_:_:)`` with a
    /// JSONB result.
    public static func jsonbSet(
        _ value: some SQLExpressible,
        _ assignments: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSONB_SET", [value.sqlExpression] + jsonPairs(assignments))
    }

    /// `JSONB_OBJECT(key1, value1, ...)`: a JSONB object.
    public static func jsonbObject(
        _ elements: some Collection<(key: String, value: any SQLExpressible)>) -> SQLExpression
    {
        .function("JSONB_OBJECT", jsonPairs(elements))
    }

    /// `JSONB_PATCH(value, patch)`, as ``jsonPatch(_:with:)`` with a
    /// JSONB result.
    public static func jsonbPatch(_ value: some SQLExpressible, with patch: some SQLExpressible) -> SQLExpression {
        .function("JSONB_PATCH", [value.sqlExpression, patch.sqlExpression])
    }

    /// `JSONB_REMOVE(value, path)`, as ``jsonRemove(_:atPath:)`` with a
    /// JSONB result.
    public static func jsonbRemove(_ value: some SQLExpressible, atPath path: some SQLExpressible) -> SQLExpression {
        .function("JSONB_REMOVE", [value.sqlExpression, path.sqlExpression])
    }

    /// `JSONB_REMOVE(value, path1, path2, ...)`, as
    /// ``jsonRemove(_:atPaths:)`` with a JSONB result.
    public static func jsonbRemove(
        _ value: some SQLExpressible,
        atPaths paths: some Collection<some SQLExpressible>) -> SQLExpression
    {
        .function("JSONB_REMOVE", [value.sqlExpression] + paths.map(\.sqlExpression))
    }

    /// `JSONB_GROUP_ARRAY(value [ORDER BY ordering]) [FILTER (WHERE filter)]`:
    /// the aggregate JSONB array of the values of a group.
    public static func jsonbGroupArray(
        _ value: some SQLExpressible,
        orderBy ordering: (any SQLOrderingTerm)? = nil,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        .aggregate(
            "JSONB_GROUP_ARRAY", [value.sqlExpression.jsonBuilderExpression],
            ordering: ordering?.sqlOrdering, filter: filter?.sqlExpression)
    }

    /// `JSONB_GROUP_OBJECT(key, value) [FILTER (WHERE filter)]`: the
    /// aggregate JSONB object of the key/value pairs of a group.
    public static func jsonbGroupObject(
        key: some SQLExpressible,
        value: some SQLExpressible,
        filter: (any SQLSpecificExpressible)? = nil) -> SQLExpression
    {
        .aggregate(
            "JSONB_GROUP_OBJECT", [key.sqlExpression, value.sqlExpression.jsonBuilderExpression],
            filter: filter?.sqlExpression)
    }
}
