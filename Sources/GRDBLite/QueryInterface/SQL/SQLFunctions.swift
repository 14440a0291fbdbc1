// SQL functions: `count(Column("id"))`, `Column("name").lowercased`...

/// `ABS(value)`
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .function("ABS", [value.sqlExpression])
}

/// `AVG(value)`
public func average(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("AVG", [value.sqlExpression])
}

/// `AVG(value) FILTER (WHERE filter)`
public func average(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("AVG", [value.sqlExpression], filter: filter.sqlExpression)
}

/// `COALESCE(values...)`: the first non-null value.
public func coalesce(_ values: some Collection<any SQLSpecificExpressible>) -> SQLExpression {
    switch values.count {
    case 0: .null
    case 1: values.first!.sqlExpression
    default: .function("COALESCE", values.map(\.sqlExpression))
    }
}

/// `COUNT(counted)`
public func count(_ counted: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("COUNT", [counted.sqlExpression])
}

/// `COUNT(DISTINCT value)`
public func count(distinct value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("COUNT", [value.sqlExpression], isDistinct: true)
}

/// `CAST(value AS storageClass)`: `cast(Column("score"), as: .real)`.
public func cast(_ expression: some SQLSpecificExpressible, as storageClass: Database.StorageClass) -> SQLExpression {
    .cast(expression.sqlExpression, as: storageClass)
}

/// `LENGTH(value)`
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .function("LENGTH", [value.sqlExpression])
}

/// `MAX(value)`, the aggregate.
public func max(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("MAX", [value.sqlExpression])
}

/// `MAX(value) FILTER (WHERE filter)`
public func max(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("MAX", [value.sqlExpression], filter: filter.sqlExpression)
}

/// `MAX(value1, value2, ...)`, the largest of several values.
public func max(
    _ value1: any SQLSpecificExpressible,
    _ value2: any SQLExpressible,
    _ values: any SQLExpressible...) -> SQLExpression
{
    SQLExpression(impl: .function("MAX", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression)))
}

/// `MIN(value)`, the aggregate.
public func min(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("MIN", [value.sqlExpression])
}

/// `MIN(value) FILTER (WHERE filter)`
public func min(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("MIN", [value.sqlExpression], filter: filter.sqlExpression)
}

/// `MIN(value1, value2, ...)`, the smallest of several values.
public func min(
    _ value1: any SQLSpecificExpressible,
    _ value2: any SQLExpressible,
    _ values: any SQLExpressible...) -> SQLExpression
{
    SQLExpression(impl: .function("MIN", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression)))
}

/// `SUM(value)`: NULL for no row, an integer for integers.
public func sum(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("SUM", [value.sqlExpression])
}

/// `SUM(value) FILTER (WHERE filter)`
public func sum(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("SUM", [value.sqlExpression], filter: filter.sqlExpression)
}

/// `TOTAL(value)`: 0.0 for no row, always a double.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("TOTAL", [value.sqlExpression])
}

/// `TOTAL(value) FILTER (WHERE filter)`
public func total(_ value: some SQLSpecificExpressible, filter: some SQLSpecificExpressible) -> SQLExpression {
    .aggregate("TOTAL", [value.sqlExpression], filter: filter.sqlExpression)
}

extension SQLSpecificExpressible {
    /// `IFNULL(lhs, rhs)`
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression])
    }
}

// MARK: - String functions

extension SQLSpecificExpressible {
    /// The Swift `capitalized` string, computed by a function that every
    /// connection has: `swiftCapitalizedString(value)`.
    public var capitalized: SQLExpression { DatabaseFunction.capitalize(self) }

    /// The Swift `lowercased()` string (Unicode-aware, unlike SQLite's
    /// `LOWER`): `swiftLowercaseString(value)`.
    public var lowercased: SQLExpression { DatabaseFunction.lowercase(self) }

    /// The Swift `uppercased()` string (Unicode-aware, unlike SQLite's
    /// `UPPER`): `swiftUppercaseString(value)`.
    public var uppercased: SQLExpression { DatabaseFunction.uppercase(self) }

    /// The Swift `localizedCapitalized` string.
    public var localizedCapitalized: SQLExpression { DatabaseFunction.localizedCapitalize(self) }

    /// The Swift `localizedLowercase` string.
    public var localizedLowercased: SQLExpression { DatabaseFunction.localizedLowercase(self) }

    /// The Swift `localizedUppercase` string.
    public var localizedUppercased: SQLExpression { DatabaseFunction.localizedUppercase(self) }
}

// MARK: - Custom functions

extension DatabaseFunction {
    /// A call to the function, for requests:
    ///
    /// ```swift
    /// let square = DatabaseFunction("square", argumentCount: 1, pure: true) { ... }
    /// db.add(function: square)
    /// // SELECT square("score") FROM player
    /// let squares = try Player.select({ square($0.score) }, as: Int.self).fetchAll(db)
    /// ```
    public func callAsFunction(_ arguments: any SQLExpressible...) -> SQLExpression {
        let arguments = arguments.map(\.sqlExpression)
        return isAggregate ? .aggregate(name, arguments) : SQLExpression(impl: .function(name, arguments))
    }
}
