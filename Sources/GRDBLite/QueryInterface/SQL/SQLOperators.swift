// Swift operators that build SQL expressions:
//
//     Column("score") > 1000              // "score" > ?
//     Column("name") == nil               // "name" IS NULL
//     Column("a") == 1 && !Column("b")    // ("a" = ?) AND (NOT "b")
//     [1, 2, 3].contains(Column("id"))    // "id" IN (?, ?, ?)
//
// They are defined on `SQLSpecificExpressible`, which only GRDBLite types
// adopt: at least one operand is a column or an expression, so these
// operators never overload Swift's own.

// MARK: - Equality and identity (=, <>, IS, IS NOT)

extension SQLSpecificExpressible {
    /// `lhs = rhs`, or `lhs IS NULL` when rhs is nil.
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .equal(lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs = 1` or `lhs = 0`.
    public static func == (lhs: Self, rhs: Bool) -> SQLExpression {
        lhs.sqlExpression.isBoolean(rhs)
    }

    /// `lhs = rhs`, or `rhs IS NULL` when lhs is nil.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        .equal(lhs?.sqlExpression ?? .null, rhs.sqlExpression)
    }

    /// `rhs = 1` or `rhs = 0`.
    public static func == (lhs: Bool, rhs: Self) -> SQLExpression {
        rhs.sqlExpression.isBoolean(lhs)
    }

    /// `lhs = rhs`
    public static func == (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .equal(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <> rhs`, or `lhs IS NOT NULL` when rhs is nil.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        (lhs == rhs).negated
    }

    /// `lhs = 0` or `lhs = 1`.
    public static func != (lhs: Self, rhs: Bool) -> SQLExpression {
        (lhs == rhs).negated
    }

    /// `lhs <> rhs`, or `rhs IS NOT NULL` when lhs is nil.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        (lhs == rhs).negated
    }

    /// `rhs = 0` or `rhs = 1`.
    public static func != (lhs: Bool, rhs: Self) -> SQLExpression {
        (lhs == rhs).negated
    }

    /// `lhs <> rhs`
    public static func != (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        (lhs == rhs).negated
    }

    /// `lhs IS rhs`: equality where NULL is NULL.
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .compare(.is, lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs IS rhs`
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        guard let lhs else { return .compare(.is, rhs.sqlExpression, .null) }
        return .compare(.is, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs IS rhs`
    public static func === (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .compare(.is, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs IS NOT rhs`
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        (lhs === rhs).negated
    }

    /// `lhs IS NOT rhs`
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        (lhs === rhs).negated
    }

    /// `lhs IS NOT rhs`
    public static func !== (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        (lhs === rhs).negated
    }
}

// MARK: - Comparison (<, <=, >, >=)

extension SQLSpecificExpressible {
    /// `lhs < rhs`
    public static func < (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.lessThan, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs < rhs`
    public static func < (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.lessThan, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs < rhs`
    public static func < (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.lessThan, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <= rhs`
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.lessThanOrEqual, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <= rhs`
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.lessThanOrEqual, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <= rhs`
    public static func <= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.lessThanOrEqual, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs > rhs`
    public static func > (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.greaterThan, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs > rhs`
    public static func > (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.greaterThan, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs > rhs`
    public static func > (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.greaterThan, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >= rhs`
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.greaterThanOrEqual, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >= rhs`
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.greaterThanOrEqual, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >= rhs`
    public static func >= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.greaterThanOrEqual, lhs.sqlExpression, rhs.sqlExpression)
    }
}

// MARK: - Inclusion (IN, BETWEEN)

extension Range where Bound: SQLExpressible {
    /// `element >= lowerBound AND element < upperBound`
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        (element >= lowerBound) && (element < upperBound)
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// `element BETWEEN lowerBound AND upperBound`
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .between(element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression)
    }
}

extension Sequence where Element: SQLExpressible {
    /// `element IN (...)`; `element = value` for a single value, false for
    /// an empty sequence.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLCollection.array(map(\.sqlExpression)).contains(element.sqlExpression)
    }
}

extension Sequence where Element == any SQLExpressible {
    /// `element IN (...)`; `element = value` for a single value, false for
    /// an empty sequence.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLCollection.array(map(\.sqlExpression)).contains(element.sqlExpression)
    }
}

// MARK: - Arithmetic (+, -, *, /)

extension SQLSpecificExpressible {
    /// `lhs * rhs`
    public static func * (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs * rhs`
    public static func * (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs * rhs`
    public static func * (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.multiply, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs / rhs`
    public static func / (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.divide, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs / rhs`
    public static func / (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.divide, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs / rhs`
    public static func / (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.divide, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs + rhs`
    public static func + (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs + rhs`
    public static func + (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs + rhs`
    public static func + (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.add, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `-value`
    public static prefix func - (value: Self) -> SQLExpression {
        .unary(.minus, value.sqlExpression)
    }

    /// `lhs - rhs`
    public static func - (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.subtract, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs - rhs`
    public static func - (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.subtract, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs - rhs`
    public static func - (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.subtract, lhs.sqlExpression, rhs.sqlExpression)
    }
}

// MARK: - Logical (AND, OR, NOT)

extension SQLSpecificExpressible {
    /// `lhs AND rhs`
    public static func && (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs AND rhs`
    public static func && (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs AND rhs`
    public static func && (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.and, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`
    public static func || (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`
    public static func || (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs OR rhs`
    public static func || (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.or, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `NOT value`, or the negated operator: `!(a == b)` is `a <> b`,
    /// `!array.contains(a)` is `a NOT IN (...)`.
    public static prefix func ! (value: Self) -> SQLExpression {
        value.sqlExpression.negated
    }
}

// MARK: - Bitwise (&, |, ~, <<, >>)

extension SQLSpecificExpressible {
    /// `lhs & rhs`
    public static func & (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs & rhs`
    public static func & (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs & rhs`
    public static func & (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`
    public static func | (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`
    public static func | (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs | rhs`
    public static func | (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .associative(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression])
    }

    /// `lhs << rhs`
    public static func << (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.leftShift, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs << rhs`
    public static func << (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.leftShift, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs << rhs`
    public static func << (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.leftShift, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >> rhs`
    public static func >> (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        .binary(.rightShift, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >> rhs`
    public static func >> (lhs: some SQLExpressible, rhs: Self) -> SQLExpression {
        .binary(.rightShift, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs >> rhs`
    public static func >> (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .binary(.rightShift, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `~value`
    public static prefix func ~ (value: Self) -> SQLExpression {
        .unary(.bitwiseNot, value.sqlExpression)
    }
}

// MARK: - LIKE

extension SQLSpecificExpressible {
    /// `self LIKE pattern [ESCAPE escape]`
    ///
    /// ```swift
    /// Player.filter { $0.email.like("%@example.com") }
    /// ```
    public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
        .like(sqlExpression, pattern.sqlExpression, escape: escape?.sqlExpression)
    }
}
