/// An SQL expression: a value, a column, a literal, or an expression built
/// by the query interface (`Column("score") > 1000`).
///
/// Values are always bound as statement arguments, never written into SQL.
public struct SQLExpression: Sendable {
    @usableFromInline
    indirect enum Impl: Sendable {
        /// A value, bound as `?`.
        case value(DatabaseValue)
        /// A column, qualified by a table when the request joins tables.
        case column(String, qualifier: String?)
        /// Raw SQL with its arguments.
        case literal(SQL)
    }

    @usableFromInline let impl: Impl

    @usableFromInline
    init(impl: Impl) {
        self.impl = impl
    }

    /// A value, bound as a statement argument.
    public static func value(_ dbValue: DatabaseValue) -> SQLExpression {
        SQLExpression(impl: .value(dbValue))
    }

    /// A column.
    public static func column(_ name: String) -> SQLExpression {
        SQLExpression(impl: .column(name, qualifier: nil))
    }

    /// Raw SQL.
    public static func literal(_ sql: SQL) -> SQLExpression {
        SQLExpression(impl: .literal(sql))
    }

    /// The SQL of the expression; values are appended to `context`'s
    /// arguments.
    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .value(let dbValue):
            return context.sql(for: dbValue)
        case let .column(name, qualifier):
            if let qualifier { return "\(qualifier.quotedDatabaseIdentifier).\(name.quotedDatabaseIdentifier)" }
            return name.quotedDatabaseIdentifier
        case .literal(let sql):
            return try sql.sql(context)
        }
    }
}

extension SQLExpression: SQLSpecificExpressible {
    public var sqlExpression: SQLExpression { self }
}

/// Collects the arguments of generated SQL.
final class SQLGenerationContext {
    let db: Database
    /// Whether values are written into the SQL as literals instead of
    /// bound as arguments: schema statements (`CREATE TABLE ... DEFAULT`,
    /// `CHECK`, `CREATE INDEX ... WHERE`) can't have parameters.
    let usesLiteralValues: Bool
    private(set) var arguments = StatementArguments()

    init(_ db: Database, literalValues: Bool = false) {
        self.db = db
        self.usesLiteralValues = literalValues
    }

    /// The SQL of a value: `?` (and the value becomes an argument), or an
    /// SQL literal.
    func sql(for value: DatabaseValue) -> String {
        if usesLiteralValues { return value.sqlLiteral }
        append(value)
        return "?"
    }

    func append(_ value: DatabaseValue) {
        arguments.values.append(value)
    }

    func append(_ arguments: StatementArguments) {
        self.arguments.append(contentsOf: arguments)
    }
}

extension String {
    /// The string as an SQL identifier, in double quotes: `"my table"`.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
