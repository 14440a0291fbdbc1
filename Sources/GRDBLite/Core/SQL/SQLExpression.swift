/// An SQL expression: a value, a column, a literal, or an expression built
/// by the query interface (`Column("score") > 1000`).
///
/// Values are always bound as statement arguments, never written into SQL.
/// Table and column names are always quoted.
public struct SQLExpression: Sendable {
    indirect enum Impl: Sendable {
        /// A value, bound as `?`.
        case value(DatabaseValue)
        /// A column, unqualified: `"score"`.
        case column(String)
        /// A column of a table of the request: `"player"."score"` when the
        /// request involves several tables, `"score"` otherwise.
        case qualifiedColumn(String, TableAliasBase)
        /// Raw SQL with its arguments.
        case literal(SQL)
        /// `(SELECT ...)`
        case subquery(SQLSubquery)
        /// `EXISTS (SELECT ...)`
        case exists(SQLSubquery, isNegated: Bool)
        /// `expression IN (...)`
        case `in`(SQLExpression, SQLCollection, isNegated: Bool)
        /// `expression BETWEEN lowerBound AND upperBound`
        case between(SQLExpression, SQLExpression, SQLExpression, isNegated: Bool)
        /// `lhs < rhs`, `lhs - rhs`...
        case binary(BinaryOperator, SQLExpression, SQLExpression)
        /// `lhs = rhs`, `lhs IS rhs`...
        case compare(ComparisonOperator, SQLExpression, SQLExpression)
        /// `a AND b AND c`, `a + b + c`...
        case associative(AssociativeBinaryOperator, [SQLExpression])
        /// `lhs LIKE pattern [ESCAPE escape]`
        case like(SQLExpression, SQLExpression, escape: SQLExpression?, isNegated: Bool)
        /// `-expression`, `~expression`
        case unary(UnaryOperator, SQLExpression)
        /// `NOT expression`
        case not(SQLExpression)
        /// `expression COLLATE collation`
        case collated(SQLExpression, Database.CollationName)
        /// `NAME(arguments)`
        case function(String, [SQLExpression])
        /// `NAME([DISTINCT] arguments [ORDER BY ordering]) [FILTER (WHERE filter)]`
        case aggregate(String, [SQLExpression], isDistinct: Bool, ordering: SQLOrdering?, filter: SQLExpression?)
        /// `COUNT(*)`
        case countAll
        /// `CAST(expression AS storageClass)`
        case cast(SQLExpression, Database.StorageClass)
        /// An expression that depends on the schema, resolved when SQL is
        /// generated (by a layer that knows the schema).
        case resolved(any SQLExpressionResolver)
        /// `"table" MATCH pattern`: a full-text match against all columns
        /// of a table of the request.
        case tableMatch(TableAliasBase, SQLExpression)
    }

    let impl: Impl

    /// Whether JSON-building functions (`JSON_ARRAY`...) read the
    /// expression as JSON rather than as a plain value: true for
    /// `JSONColumn` and `asJSON`. The SQL of the expression itself is
    /// the same either way.
    var interpretsAsJSON: Bool

    init(impl: Impl, interpretsAsJSON: Bool = false) {
        self.impl = impl
        self.interpretsAsJSON = interpretsAsJSON
    }

    /// A value, bound as a statement argument.
    static func value(_ dbValue: DatabaseValue) -> SQLExpression {
        SQLExpression(impl: .value(dbValue))
    }

    /// `CAST(expression AS storageClass)`
    static func cast(_ expression: SQLExpression, as storageClass: Database.StorageClass) -> SQLExpression {
        SQLExpression(impl: .cast(expression, storageClass))
    }

    /// A column.
    static func column(_ name: String) -> SQLExpression {
        SQLExpression(impl: .column(name))
    }

    /// Raw SQL.
    static func literal(_ sql: SQL) -> SQLExpression {
        SQLExpression(impl: .literal(sql))
    }
}

// MARK: - Operators

extension SQLExpression {
    /// An operator between two operands.
    enum BinaryOperator: String, Sendable {
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="
        case subtract = "-"
        case divide = "/"
        case leftShift = "<<"
        case rightShift = ">>"
        case match = "MATCH"
        /// `json -> path`: the JSON representation of a subcomponent.
        case jsonExtractJSON = "->"
        /// `json ->> path`: the SQL value of a subcomponent.
        case jsonExtractSQL = "->>"
    }

    /// The equality and identity operators.
    enum ComparisonOperator: String, Sendable {
        case equal = "="
        case notEqual = "<>"
        case `is` = "IS"
        case isNot = "IS NOT"

        var negated: ComparisonOperator {
            switch self {
            case .equal: .notEqual
            case .notEqual: .equal
            case .is: .isNot
            case .isNot: .is
            }
        }
    }

    /// A prefix operator.
    enum UnaryOperator: String, Sendable {
        case minus = "-"
        case bitwiseNot = "~"
    }

    /// An operator that joins any number of operands: `a AND b AND c`.
    ///
    /// ```swift
    /// // score + bonus + 1000
    /// [Column("score"), Column("bonus"), 1000.databaseValue].joined(operator: .add)
    /// ```
    public struct AssociativeBinaryOperator: Hashable, Sendable {
        let sql: String
        /// The result of joining no operand.
        let neutralValue: DatabaseValue
        /// Whether `(a • b) • c` is `a • (b • c)`, so that nested operations
        /// can be flattened. Not the case for `+` and `*` on floats.
        let isStrictlyAssociative: Bool

        /// `+`
        public static let add = AssociativeBinaryOperator(
            sql: "+", neutralValue: 0.databaseValue, isStrictlyAssociative: false)
        /// `*`
        public static let multiply = AssociativeBinaryOperator(
            sql: "*", neutralValue: 1.databaseValue, isStrictlyAssociative: false)
        /// `AND`
        public static let and = AssociativeBinaryOperator(
            sql: "AND", neutralValue: true.databaseValue, isStrictlyAssociative: true)
        /// `OR`
        public static let or = AssociativeBinaryOperator(
            sql: "OR", neutralValue: false.databaseValue, isStrictlyAssociative: true)
        /// `||`, string concatenation.
        public static let concat = AssociativeBinaryOperator(
            sql: "||", neutralValue: "".databaseValue, isStrictlyAssociative: true)
        /// `&`, bitwise AND.
        public static let bitwiseAnd = AssociativeBinaryOperator(
            sql: "&", neutralValue: (-1).databaseValue, isStrictlyAssociative: true)
        /// `|`, bitwise OR.
        public static let bitwiseOr = AssociativeBinaryOperator(
            sql: "|", neutralValue: 0.databaseValue, isStrictlyAssociative: true)
    }
}

// MARK: - Building expressions

extension SQLExpression {
    static let null = SQLExpression.value(.null)

    static func binary(_ op: BinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        // `a COLLATE x < b` reads better as `a < b COLLATE x`: same meaning.
        if case let .collated(lhs, collation) = lhs.impl {
            return binary(op, lhs, rhs).withCollation(collation)
        }
        if case let .collated(rhs, collation) = rhs.impl {
            return binary(op, lhs, rhs).withCollation(collation)
        }
        return SQLExpression(impl: .binary(op, lhs, rhs))
    }

    static func compare(_ op: ComparisonOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if case let .collated(lhs, collation) = lhs.impl {
            return compare(op, lhs, rhs).withCollation(collation)
        }
        if case let .collated(rhs, collation) = rhs.impl {
            return compare(op, lhs, rhs).withCollation(collation)
        }
        return SQLExpression(impl: .compare(op, lhs, rhs))
    }

    /// `lhs = rhs`, or `lhs IS NULL` when an operand is NULL.
    static func equal(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if rhs.isNullValue { return compare(.is, lhs, .null) }
        if lhs.isNullValue { return compare(.is, rhs, .null) }
        return compare(.equal, lhs, rhs)
    }

    static func between(
        _ expression: SQLExpression,
        _ lowerBound: SQLExpression,
        _ upperBound: SQLExpression,
        isNegated: Bool = false) -> SQLExpression
    {
        if case let .collated(expression, collation) = expression.impl {
            return between(expression, lowerBound, upperBound, isNegated: isNegated).withCollation(collation)
        }
        return SQLExpression(impl: .between(expression, lowerBound, upperBound, isNegated: isNegated))
    }

    /// The operands joined with `op`; nested operations with the same
    /// strictly associative operator are flattened.
    static func associative(_ op: AssociativeBinaryOperator, _ operands: [SQLExpression]) -> SQLExpression {
        var flattened: [SQLExpression] = []
        for operand in operands {
            if op.isStrictlyAssociative, case let .associative(innerOp, innerOperands) = operand.impl, innerOp == op {
                flattened += innerOperands
            } else {
                flattened.append(operand)
            }
        }
        switch flattened.count {
        case 0: return .value(op.neutralValue)
        case 1: return flattened[0]
        default: return SQLExpression(impl: .associative(op, flattened))
        }
    }

    static func `in`(_ expression: SQLExpression, _ collection: SQLCollection, isNegated: Bool = false) -> SQLExpression
    {
        SQLExpression(impl: .in(expression, collection, isNegated: isNegated))
    }

    static func exists(_ subquery: SQLSubquery) -> SQLExpression {
        SQLExpression(impl: .exists(subquery, isNegated: false))
    }

    static func subquery(_ subquery: SQLSubquery) -> SQLExpression {
        SQLExpression(impl: .subquery(subquery))
    }

    static func like(_ lhs: SQLExpression, _ pattern: SQLExpression, escape: SQLExpression?) -> SQLExpression {
        SQLExpression(impl: .like(lhs, pattern, escape: escape, isNegated: false))
    }

    static func unary(_ op: UnaryOperator, _ expression: SQLExpression) -> SQLExpression {
        SQLExpression(impl: .unary(op, expression))
    }

    /// A function call: `NAME(arguments)`. SQLite's aggregate functions
    /// (`COUNT`, `SUM`, `MAX` with one argument...) are known as such.
    static func function(_ name: String, _ arguments: [SQLExpression]) -> SQLExpression {
        let identifier = CaseInsensitiveIdentifier(name)
        if ["AVG", "COUNT", "GROUP_CONCAT", "SUM", "TOTAL",
            "JSON_GROUP_ARRAY", "JSON_GROUP_OBJECT", "JSONB_GROUP_ARRAY", "JSONB_GROUP_OBJECT",
        ].contains(where: identifier.matches)
            || (arguments.count == 1 && ["MAX", "MIN"].contains(where: identifier.matches))
        {
            return aggregate(name, arguments)
        }
        return SQLExpression(impl: .function(name, arguments))
    }

    static func aggregate(
        _ name: String,
        _ arguments: [SQLExpression],
        isDistinct: Bool = false,
        ordering: SQLOrdering? = nil,
        filter: SQLExpression? = nil) -> SQLExpression
    {
        SQLExpression(impl: .aggregate(name, arguments, isDistinct: isDistinct, ordering: ordering, filter: filter))
    }

    static let countAll = SQLExpression(impl: .countAll)

    /// `"table" MATCH pattern`, where the table is the one of `alias`.
    static func tableMatch(_ alias: TableAliasBase, _ pattern: SQLExpression) -> SQLExpression {
        SQLExpression(impl: .tableMatch(alias, pattern))
    }

    /// `self COLLATE collation`. For `IN`, the collation applies to the
    /// left operand, which is what SQLite honors.
    func withCollation(_ collation: Database.CollationName) -> SQLExpression {
        switch impl {
        case let .in(expression, collection, isNegated):
            return .in(expression.withCollation(collation), collection, isNegated: isNegated)
        case let .associative(op, operands):
            return .associative(op, operands.map { $0.withCollation(collation) })
        default:
            return SQLExpression(impl: .collated(self, collation))
        }
    }

    /// The logical negation, with SQL's negated operators where they exist:
    /// `a <> b` rather than `NOT (a = b)`, `NOT IN`, `NOT LIKE`...
    var negated: SQLExpression {
        switch impl {
        case .value(let dbValue):
            switch dbValue.storage {
            case .null: return self
            case .int64(let int64) where int64 == 0 || int64 == 1: return .value((int64 == 0).databaseValue)
            default: return SQLExpression(impl: .not(self))
            }
        case let .compare(op, lhs, rhs):
            return SQLExpression(impl: .compare(op.negated, lhs, rhs))
        case let .in(expression, collection, isNegated):
            return .in(expression, collection, isNegated: !isNegated)
        case let .between(expression, lowerBound, upperBound, isNegated):
            return SQLExpression(impl: .between(expression, lowerBound, upperBound, isNegated: !isNegated))
        case let .like(lhs, pattern, escape, isNegated):
            return SQLExpression(impl: .like(lhs, pattern, escape: escape, isNegated: !isNegated))
        case let .exists(subquery, isNegated):
            return SQLExpression(impl: .exists(subquery, isNegated: !isNegated))
        case let .collated(expression, collation):
            return expression.negated.withCollation(collation)
        case .resolved(let resolver):
            return SQLExpression(impl: .resolved(resolver.negated))
        default:
            return SQLExpression(impl: .not(self))
        }
    }

    /// `self = 1` (`true`) or `self = 0` (`false`), for `column == true`.
    func isBoolean(_ value: Bool) -> SQLExpression {
        if case .value(let dbValue) = impl {
            switch dbValue.storage {
            case .null: return self
            case .int64(let int64) where int64 == 0 || int64 == 1:
                return .value(((int64 == 1) == value).databaseValue)
            default: break
            }
        }
        if case let .collated(expression, collation) = impl {
            return expression.isBoolean(value).withCollation(collation)
        }
        return SQLExpression(impl: .compare(.equal, self, .value(value.databaseValue)))
    }

    var isNullValue: Bool {
        if case .value(let dbValue) = impl { return dbValue.isNull }
        return false
    }
}

// MARK: - Qualification

extension SQLExpression {
    /// The expression with its unqualified columns qualified by `alias`;
    /// its JSON interpretation is kept.
    func qualified(with alias: TableAliasBase) -> SQLExpression {
        var result = qualifiedImpl(with: alias)
        result.interpretsAsJSON = interpretsAsJSON
        return result
    }

    private func qualifiedImpl(with alias: TableAliasBase) -> SQLExpression {
        let q = { (expression: SQLExpression) in expression.qualified(with: alias) }
        switch impl {
        case .value, .qualifiedColumn, .subquery, .exists, .countAll, .resolved, .tableMatch:
            return self
        case .column(let name):
            return SQLExpression(impl: .qualifiedColumn(name, alias))
        case .literal(let sql):
            return .literal(sql.qualified(with: alias))
        case let .in(expression, collection, isNegated):
            return .in(q(expression), collection.qualified(with: alias), isNegated: isNegated)
        case let .between(expression, lowerBound, upperBound, isNegated):
            return SQLExpression(impl: .between(q(expression), q(lowerBound), q(upperBound), isNegated: isNegated))
        case let .binary(op, lhs, rhs):
            return SQLExpression(impl: .binary(op, q(lhs), q(rhs)))
        case let .compare(op, lhs, rhs):
            return SQLExpression(impl: .compare(op, q(lhs), q(rhs)))
        case let .associative(op, operands):
            return SQLExpression(impl: .associative(op, operands.map(q)))
        case let .like(lhs, pattern, escape, isNegated):
            return SQLExpression(impl: .like(q(lhs), q(pattern), escape: escape.map(q), isNegated: isNegated))
        case let .unary(op, expression):
            return SQLExpression(impl: .unary(op, q(expression)))
        case .not(let expression):
            return SQLExpression(impl: .not(q(expression)))
        case let .collated(expression, collation):
            return SQLExpression(impl: .collated(q(expression), collation))
        case let .cast(expression, storageClass):
            return SQLExpression(impl: .cast(q(expression), storageClass))
        case let .function(name, arguments):
            return SQLExpression(impl: .function(name, arguments.map(q)))
        case let .aggregate(name, arguments, isDistinct, ordering, filter):
            return SQLExpression(impl: .aggregate(
                name, arguments.map(q), isDistinct: isDistinct,
                ordering: ordering?.qualified(with: alias), filter: filter.map(q)))
        }
    }
}

// MARK: - Information

extension SQLExpression {
    /// Whether the expression is an aggregate (`COUNT(*)`, `MAX(score)`...),
    /// which makes a request without GROUP BY return a single row.
    var isAggregate: Bool {
        switch impl {
        case .aggregate, .countAll:
            return true
        case .collated(let expression, _), .unary(_, let expression), .not(let expression), .cast(let expression, _):
            return expression.isAggregate
        case let .binary(_, lhs, rhs), let .compare(_, lhs, rhs):
            return lhs.isAggregate || rhs.isAggregate
        case let .associative(_, operands), let .function(_, operands):
            return operands.contains { $0.isAggregate }
        default:
            return false
        }
    }

    /// The columns of `alias` that this filter compares to a constant with
    /// `=` or `IS`: when they hold a unique key, the request returns at
    /// most one row.
    func identifyingColumns(for alias: TableAliasBase) -> Set<String> {
        switch impl {
        case let .associative(op, operands) where op == .and:
            return operands.reduce(into: []) { $0.formUnion($1.identifyingColumns(for: alias)) }
        case let .compare(op, lhs, rhs) where op == .equal || op == .is:
            if let column = lhs.columnName(of: alias), rhs.isConstant { return [column] }
            if let column = rhs.columnName(of: alias), lhs.isConstant { return [column] }
            return []
        case .collated(let expression, _):
            return expression.identifyingColumns(for: alias)
        default:
            return []
        }
    }

    /// The column of `alias` that a GROUP BY expression groups by: the
    /// column itself, or an expression with the same groups (`-score`,
    /// `score + 1`). A collation or a concatenation may merge groups.
    func groupedColumn(of alias: TableAliasBase) -> String? {
        switch impl {
        case let .qualifiedColumn(name, columnAlias):
            return columnAlias == alias ? name : nil
        case .unary(.minus, let expression):
            return expression.groupedColumn(of: alias)
        case let .binary(.subtract, lhs, rhs):
            if rhs.isConstant { return lhs.groupedColumn(of: alias) }
            if lhs.isConstant { return rhs.groupedColumn(of: alias) }
            return nil
        case let .associative(op, operands) where op == .add:
            let variables = operands.filter { !$0.isConstant }
            return variables.count == 1 ? variables[0].groupedColumn(of: alias) : nil
        default:
            return nil
        }
    }

    private func columnName(of alias: TableAliasBase) -> String? {
        switch impl {
        case let .qualifiedColumn(name, columnAlias) where columnAlias == alias: name
        case .collated(let expression, _): expression.columnName(of: alias)
        default: nil
        }
    }

    private var isConstant: Bool {
        if case .value = impl { return true }
        return false
    }
}

// MARK: - SQL generation

extension SQLExpression {
    /// The SQL of the expression; values are appended to `context`'s
    /// arguments. Compound expressions are wrapped in parentheses when they
    /// are the operand of another one.
    func sql(_ context: SQLGenerationContext, wrappedInParenthesis: Bool = false) throws -> String {
        let sql: String
        switch impl {
        case .value(let dbValue):
            return context.sql(for: dbValue)
        case .column(let name):
            return name.quotedDatabaseIdentifier
        case let .qualifiedColumn(name, alias):
            if let qualifier = context.qualifier(for: alias) {
                return qualifier.quotedDatabaseIdentifier + "." + name.quotedDatabaseIdentifier
            }
            return name.quotedDatabaseIdentifier
        case .literal(let literal):
            sql = try literal.sql(context)
            // The 0 of `isEmpty` (`COUNT(DISTINCT ...) = 0`), as GRDB writes it.
            if sql == "0" { return sql }
        case .subquery(let subquery):
            return try "(" + subquery.sql(context) + ")"
        case let .exists(subquery, isNegated):
            sql = try (isNegated ? "NOT EXISTS (" : "EXISTS (") + subquery.sql(context) + ")"
        case let .in(expression, collection, isNegated):
            sql = try expression.sql(context, wrappedInParenthesis: true)
                + (isNegated ? " NOT IN " : " IN ")
                + collection.sql(context)
        case let .between(expression, lowerBound, upperBound, isNegated):
            sql = try expression.sql(context, wrappedInParenthesis: true)
                + (isNegated ? " NOT BETWEEN " : " BETWEEN ")
                + lowerBound.sql(context, wrappedInParenthesis: true)
                + " AND "
                + upperBound.sql(context, wrappedInParenthesis: true)
        case let .binary(op, lhs, rhs):
            sql = try lhs.sql(context, wrappedInParenthesis: true)
                + " \(op.rawValue) "
                + rhs.sql(context, wrappedInParenthesis: true)
        case let .compare(op, lhs, rhs) where (op == .is || op == .isNot) && rhs.isNullValue:
            // The NULL keyword is not a value: no argument needed.
            sql = try lhs.sql(context, wrappedInParenthesis: true) + " \(op.rawValue) NULL"
        case let .compare(op, lhs, rhs):
            sql = try lhs.sql(context, wrappedInParenthesis: true)
                + " \(op.rawValue) "
                + rhs.sql(context, wrappedInParenthesis: true)
        case let .associative(op, operands):
            sql = try operands
                .map { try $0.sql(context, wrappedInParenthesis: true) }
                .joined(separator: " \(op.sql) ")
        case let .like(lhs, pattern, escape, isNegated):
            var result = try lhs.sql(context, wrappedInParenthesis: true)
                + (isNegated ? " NOT LIKE " : " LIKE ")
                + pattern.sql(context, wrappedInParenthesis: true)
            if let escape {
                result += try " ESCAPE " + escape.sql(context, wrappedInParenthesis: true)
            }
            sql = result
        case let .unary(op, expression):
            sql = try op.rawValue + expression.sql(context, wrappedInParenthesis: true)
        case .not(let expression):
            sql = try "NOT " + expression.sql(context, wrappedInParenthesis: true)
        case let .collated(expression, collation):
            sql = try expression.sql(context) + " COLLATE " + collation.rawValue.sqlName
        case let .function(name, arguments):
            return try name.sqlName + "(" + arguments.map { try $0.sql(context) }.joined(separator: ", ") + ")"
        case let .aggregate(name, arguments, isDistinct, ordering, filter):
            var result = try name.sqlName + (isDistinct ? "(DISTINCT " : "(")
                + arguments.map { try $0.sql(context) }.joined(separator: ", ")
            if let ordering {
                result += try " ORDER BY " + ordering.sql(context)
            }
            result += ")"
            guard let filter else { return result }
            result += try " FILTER (WHERE " + filter.sql(context) + ")"
            sql = result
        case .countAll:
            return "COUNT(*)"
        case let .cast(expression, storageClass):
            return try "CAST(" + expression.sql(context) + " AS " + storageClass.rawValue + ")"
        case .resolved(let resolver):
            return try resolver.expression(context.db).sql(context, wrappedInParenthesis: wrappedInParenthesis)
        case let .tableMatch(alias, pattern):
            // The hidden column that MATCH accepts is named after the table:
            // an aliased table is matched with `"alias"."table"`.
            let name = context.resolvedName(for: alias)
            let tableName = alias.tableName
            let column = CaseInsensitiveIdentifier(name) == CaseInsensitiveIdentifier(tableName)
                ? name.quotedDatabaseIdentifier
                : name.quotedDatabaseIdentifier + "." + tableName.quotedDatabaseIdentifier
            sql = try column + " MATCH " + pattern.sql(context, wrappedInParenthesis: true)
        }
        return wrappedInParenthesis ? "(" + sql + ")" : sql
    }
}

extension SQLExpression: SQLSpecificExpressible {
    public var sqlExpression: SQLExpression { self }
}

/// The right operand of `IN`: a list of expressions, a subquery, or a
/// table (`value IN "cte"`).
enum SQLCollection: Sendable {
    case array([SQLExpression])
    case subquery(SQLSubquery)
    case table(String)

    /// `value IN collection`; `value = x` for a single element, and false
    /// for an empty list.
    func contains(_ value: SQLExpression) -> SQLExpression {
        if case .array(let expressions) = self {
            switch expressions.count {
            case 0: return .value(false.databaseValue)
            // `=` (not IS) behaves as IN does with NULL.
            case 1: return .compare(.equal, value, expressions[0])
            default: break
            }
        }
        return .in(value, self)
    }

    func qualified(with alias: TableAliasBase) -> SQLCollection {
        switch self {
        case .array(let expressions): .array(expressions.map { $0.qualified(with: alias) })
        case .subquery, .table: self
        }
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch self {
        case .array(let expressions):
            try "(" + expressions.map { try $0.sql(context) }.joined(separator: ", ") + ")"
        case .subquery(let subquery):
            try "(" + subquery.sql(context) + ")"
        case .table(let tableName):
            tableName.quotedDatabaseIdentifier
        }
    }
}

extension String {
    /// The string as an SQL identifier, in double quotes: `"my table"`.
    public var quotedDatabaseIdentifier: String {
        // Most identifiers hold no quote: no Foundation search for them
        // (it was 8% of the time of the benchmark's server requests).
        guard utf8.contains(0x22) else { return "\"" + self + "\"" }
        return "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A function or collation name: as is when it is a plain identifier
    /// (`COUNT`, `NOCASE`), quoted otherwise.
    var sqlName: String {
        let isPlain = !isEmpty && utf8.allSatisfy { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                || (byte >= 0x30 && byte <= 0x39)
        } && !(utf8.first! >= 0x30 && utf8.first! <= 0x39)
        return isPlain ? self : quotedDatabaseIdentifier
    }
}

/// Writes an expression that depends on the database schema (a primary
/// key...), when SQL is generated.
protocol SQLExpressionResolver: Sendable {
    func expression(_ db: Database) throws -> SQLExpression
    /// The logical negation.
    var negated: any SQLExpressionResolver { get }
}
