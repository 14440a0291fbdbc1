/// SQL with bound values, built with string interpolation: interpolated
/// values become statement arguments, never SQL text.
///
/// ```swift
/// let name = "O'Brien"
/// try db.execute(literal: "INSERT INTO player (name) VALUES (\(name))")
/// // INSERT INTO player (name) VALUES (?) with arguments ["O'Brien"]
///
/// let query: SQL = "SELECT * FROM player WHERE \(Column("score")) > \(1000)"
/// try db.execute(literal: "\(sql: "DELETE FROM player")")
/// ```
public struct SQL: Sendable {
    enum Element: Sendable {
        case sql(String, StatementArguments)
        case expression(SQLExpression)
        /// A request, without parentheses: `(\(request))` writes them.
        case subquery(SQLSubquery)
        /// A selection that is not an expression: `\(AllColumns())`.
        case selection(SQLSelection)
        /// An ordering term: `\(Column("name").desc)`.
        case ordering(SQLOrdering)
    }

    var elements: [Element]

    init(elements: [Element]) {
        self.elements = elements
    }

    /// Raw SQL, with arguments for its parameters.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        self.init(elements: [.sql(sql, arguments)])
    }

    /// An expression.
    public init(_ expression: some SQLExpressible) {
        self.init(elements: [.expression(expression.sqlExpression)])
    }

    /// Whether the literal is empty.
    public var isEmpty: Bool {
        elements.allSatisfy {
            if case .sql(let sql, let arguments) = $0 { return sql.isEmpty && arguments.isEmpty }
            return false
        }
    }

    /// The SQL and its arguments.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let context = SQLGenerationContext(db)
        let sql = try sql(context)
        return (sql, context.arguments)
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        var result = ""
        for element in elements {
            switch element {
            case let .sql(sql, arguments):
                if context.usesLiteralValues && !arguments.isEmpty {
                    // The `?` can't be found reliably in raw SQL.
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message:
                            "statement arguments are not supported here: interpolate values in the SQL literal instead",
                        sql: sql,
                        arguments: arguments,
                        publicStatementArguments: context.db.configuration.publicStatementArguments)
                }
                result += sql
                context.append(arguments)
            case .expression(let expression):
                result += try expression.sql(context)
            case .subquery(let subquery):
                result += try subquery.sql(context)
            case .selection(let selection):
                result += try selection.sql(context)
            case .ordering(let ordering):
                result += try ordering.sql(context)
            }
        }
        return result
    }

    /// The literal, with the columns of its expressions qualified by
    /// `alias` (raw SQL is left as is).
    func qualified(with alias: TableAliasBase) -> SQL {
        SQL(elements: elements.map { element in
            switch element {
            case .sql, .subquery: element
            case .selection(let selection): .selection(selection.qualified(with: alias))
            case .ordering(let ordering): .ordering(ordering.qualified(with: alias))
            case .expression(let expression): .expression(expression.qualified(with: alias))
            }
        })
    }

    /// Appends another literal.
    public mutating func append(literal: SQL) {
        elements += literal.elements
    }

    /// Appends raw SQL.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Concatenates two literals.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(elements: lhs.elements + rhs.elements)
    }

    /// Appends a literal.
    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.elements += rhs.elements
    }
}

extension SQL: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: SQLInterpolation) {
        self.init(elements: stringInterpolation.elements)
    }
}

extension SQL: SQLSpecificExpressible {
    public var sqlExpression: SQLExpression { .literal(self) }
    /// Raw SQL, which may select several columns: `"id, name"`.
    public var sqlSelection: SQLSelection { .literal(self) }
    /// Raw SQL, which may hold several terms: `"name, score DESC"`.
    public var sqlOrdering: SQLOrdering { .literal(self) }
}

extension Sequence where Element == SQL {
    /// The literals joined with a separator (raw SQL, not a literal).
    public func joined(separator: String = "") -> SQL {
        SQL(joining: self, separator: separator)
    }
}

extension Collection where Element == SQL {
    /// The literals joined with a separator (raw SQL, not a literal).
    public func joined(separator: String = "") -> SQL {
        SQL(joining: self, separator: separator)
    }
}

extension SQL {
    /// The literals joined with a raw SQL separator.
    init(joining literals: some Sequence<SQL>, separator: String) {
        self.init(elements: [])
        for (index, literal) in literals.enumerated() {
            if index > 0 && !separator.isEmpty { append(sql: separator) }
            self += literal
        }
    }
}

/// The string interpolation of ``SQL``.
public struct SQLInterpolation: StringInterpolationProtocol {
    var elements: [SQL.Element] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
        elements.reserveCapacity(interpolationCount * 2 + 1)
    }

    public mutating func appendLiteral(_ literal: String) {
        elements.append(.sql(literal, StatementArguments()))
    }

    /// Raw SQL: `"SELECT \(sql: "*") FROM player"`.
    public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// Another literal.
    public mutating func appendInterpolation(literal: SQL) {
        elements += literal.elements
    }

    /// Another literal, embedded as is (not as an expression).
    public mutating func appendInterpolation(_ sqlLiteral: SQL) {
        elements += sqlLiteral.elements
    }

    /// A value, bound as an argument, or a column or an expression.
    public mutating func appendInterpolation(_ expressible: some SQLExpressible) {
        elements.append(.expression(expressible.sqlExpression))
    }

    /// A column or an expression (a value of a type that is both an
    /// expression and a selection).
    public mutating func appendInterpolation(_ expressible: some SQLSpecificExpressible) {
        elements.append(.expression(expressible.sqlExpression))
    }

    /// An expression of unknown type, or NULL when nil.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ expressible: (any SQLExpressible)?) {
        if let expressible {
            elements.append(.expression(expressible.sqlExpression))
        } else {
            appendLiteral("NULL")
        }
    }

    /// A selection: `"SELECT \(AllColumns()) FROM player"`.
    public mutating func appendInterpolation(_ selection: some SQLSelectable) {
        elements.append(.selection(selection.sqlSelection))
    }

    /// A selection of unknown type, or NULL when nil.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ selection: (any SQLSelectable)?) {
        if let selection {
            elements.append(.selection(selection.sqlSelection))
        } else {
            appendLiteral("NULL")
        }
    }

    /// An ordering term: `"ORDER BY \(Column("score").desc)"`.
    public mutating func appendInterpolation(_ ordering: some SQLOrderingTerm) {
        elements.append(.ordering(ordering.sqlOrdering))
    }

    /// An ordering term of unknown type.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ ordering: any SQLOrderingTerm) {
        elements.append(.ordering(ordering.sqlOrdering))
    }

    /// A column named after a coding key: `"SELECT \(CodingKeys.name)"`.
    public mutating func appendInterpolation(_ key: some CodingKey) {
        elements.append(.expression(.column(key.stringValue)))
    }

    /// A coding key that is also a column.
    public mutating func appendInterpolation(_ key: some CodingKey & SQLSpecificExpressible) {
        elements.append(.expression(key.sqlExpression))
    }

    /// A coding key of unknown type, as a column.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ key: any CodingKey) {
        elements.append(.expression(.column(key.stringValue)))
    }

    /// A parenthesized list of values or expressions, for `IN`:
    /// `"WHERE id IN \(ids)"` is `WHERE id IN (?,?,?)`. An empty sequence
    /// gives a list that contains nothing: `(SELECT NULL WHERE NULL)`.
    public mutating func appendInterpolation(_ sequence: some Sequence<some SQLExpressible>) {
        appendList(sequence.map(\.sqlExpression))
    }

    /// A parenthesized list of expressions of unknown types.
    public mutating func appendInterpolation(_ sequence: some Sequence<any SQLExpressible>) {
        appendList(sequence.map(\.sqlExpression))
    }

    /// A value that is also a sequence of values (`Data`) is one value.
    public mutating func appendInterpolation<S>(_ expressible: S)
    where S: SQLExpressible & Sequence, S.Element: SQLExpressible {
        elements.append(.expression(expressible.sqlExpression))
    }

    private mutating func appendList(_ expressions: [SQLExpression]) {
        guard !expressions.isEmpty else {
            appendLiteral("(SELECT NULL WHERE NULL)")
            return
        }
        appendLiteral("(")
        for (index, expression) in expressions.enumerated() {
            if index > 0 { appendLiteral(",") }
            elements.append(.expression(expression))
        }
        appendLiteral(")")
    }

    /// The name of a collation: `"COLLATE \(.nocase)"`.
    public mutating func appendInterpolation(_ collation: Database.CollationName) {
        appendLiteral(collation.rawValue)
    }

    /// The name of a custom collation: `"COLLATE \(.localizedCompare)"`.
    public mutating func appendInterpolation(_ collation: DatabaseCollation) {
        appendLiteral(collation.name)
    }

    /// A request, as GRDB writes it: its SQL without parentheses, as in
    /// `"SELECT * FROM player WHERE score = (\(maxScore))"`.
    public mutating func appendInterpolation(_ subquery: some SQLSubqueryable) {
        elements.append(.subquery(subquery.sqlSubquery))
    }

    /// An optional value: `NULL`, written in the SQL, when nil.
    public mutating func appendInterpolation(_ value: (some DatabaseValueConvertible)?) {
        if let value {
            elements.append(.expression(.value(value.databaseValue)))
        } else {
            appendLiteral("NULL")
        }
    }

    /// An identifier, quoted: `"SELECT * FROM \(identifier: tableName)"`.
    public mutating func appendInterpolation(identifier: String) {
        elements.append(.sql(identifier.quotedDatabaseIdentifier, StatementArguments()))
    }
}

extension Database {
    /// Executes SQL built with interpolation; interpolated values are bound
    /// as arguments.
    ///
    /// ```swift
    /// try db.execute(literal: "UPDATE player SET name = \(name) WHERE id = \(id)")
    /// ```
    public func execute(literal sqlLiteral: SQL) throws {
        let (sql, arguments) = try sqlLiteral.build(self)
        try execute(sql: sql, arguments: arguments)
    }

    /// Prepares a statement from SQL built with interpolation. Interpolated
    /// values become the statement's arguments; without any, arguments are
    /// left unset, to be given when the statement runs.
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try makeStatement(sql: sql)
        if !arguments.isEmpty {
            try statement.setArguments(arguments)
        }
        return statement
    }

    /// Returns a cached statement for SQL built with interpolation.
    /// Interpolated values become the statement's arguments; without any,
    /// arguments are left as they are, to be given when the statement runs.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try cachedStatement(sql: sql)
        if !arguments.isEmpty {
            try statement.setArguments(arguments)
        }
        return statement
    }
}

/// `count` question marks separated by commas, for SQL written by hand:
/// `databaseQuestionMarks(count: 3)` is `"?,?,?"`.
public func databaseQuestionMarks(count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ",")
}
