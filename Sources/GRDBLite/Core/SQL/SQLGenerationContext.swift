/// Collects the arguments of generated SQL, and names the tables of a
/// request so that columns can be qualified.
///
/// A context knows the aliases of the tables its query reads (its own
/// aliases); a subquery gets a child context, which shares the arguments
/// and can refer to the tables of the enclosing queries (correlated
/// subqueries).
final class SQLGenerationContext {
    let db: Database
    private let parent: SQLGenerationContext?
    private let argumentsBox: ArgumentsBox
    /// Whether values are written into the SQL as literals instead of
    /// bound as arguments: schema statements (`CREATE TABLE ... DEFAULT`,
    /// `CHECK`, `CREATE INDEX ... WHERE`) can't have parameters.
    let usesLiteralValues: Bool
    private let ownAliases: Set<TableAliasBase>
    /// Names given to aliases that would otherwise be ambiguous (a table
    /// joined twice: `player`, `player1`).
    private let resolvedNames: [TableAliasBase: String]

    private final class ArgumentsBox {
        var arguments = StatementArguments()
    }

    init(_ db: Database, aliases: [TableAliasBase] = [], literalValues: Bool = false) {
        self.db = db
        self.usesLiteralValues = literalValues
        self.parent = nil
        self.argumentsBox = ArgumentsBox()
        self.ownAliases = Set(aliases)
        self.resolvedNames = Self.resolveNames(aliases)
    }

    private init(parent: SQLGenerationContext, aliases: [TableAliasBase]) {
        self.db = parent.db
        self.usesLiteralValues = parent.usesLiteralValues
        self.parent = parent
        self.argumentsBox = parent.argumentsBox
        self.ownAliases = Set(aliases)
        self.resolvedNames = Self.resolveNames(aliases)
    }

    /// The context of a subquery that reads the tables of `aliases`.
    func subqueryContext(aliases: [TableAliasBase]) -> SQLGenerationContext {
        SQLGenerationContext(parent: self, aliases: aliases)
    }

    /// The arguments collected so far.
    var arguments: StatementArguments { argumentsBox.arguments }

    /// The SQL of a value: `?` (and the value becomes an argument), or an
    /// SQL literal.
    func sql(for value: DatabaseValue) -> String {
        if usesLiteralValues { return value.sqlLiteral }
        append(value)
        return "?"
    }

    func append(_ value: DatabaseValue) {
        argumentsBox.arguments.values.append(value)
    }

    func append(_ arguments: StatementArguments) {
        argumentsBox.arguments.append(contentsOf: arguments)
    }

    /// The name that qualifies the columns of `alias`, or nil when columns
    /// need no qualification (the query reads a single table).
    func qualifier(for alias: TableAliasBase) -> String? {
        if !ownAliases.contains(alias) {
            // A table of an enclosing query: its name must not be hidden by
            // a table of this query, or SQLite would read the wrong one.
            let name = resolvedName(for: alias)
            precondition(
                !ownAliases.contains {
                    CaseInsensitiveIdentifier(resolvedName(for: $0)) == CaseInsensitiveIdentifier(name)
                },
                "A subquery refers to the table \(name) of an enclosing query, but reads a table with the same name: "
                    + "give a name to one of them (TableAlias(name:))")
            return name
        }
        if alias.hasUserName || ownAliases.count > 1 {
            return resolvedName(for: alias)
        }
        return nil
    }

    /// The name of the table of `alias` in the SQL: its user name, its table
    /// name, or a disambiguated table name.
    func resolvedName(for alias: TableAliasBase) -> String {
        if let name = resolvedNames[alias] { return name }
        return parent?.resolvedName(for: alias) ?? alias.identityName
    }

    /// The alias of a table in a FROM or JOIN clause, when its resolved
    /// name differs from the table name: `"player" "p"`.
    func aliasName(for alias: TableAliasBase) -> String? {
        let name = resolvedName(for: alias)
        return name == alias.tableName ? nil : name
    }

    /// Unnamed aliases of the same table get distinct names: `player`,
    /// `player1`, `player2`. Two aliases named alike by the user are a
    /// programmer error.
    private static func resolveNames(_ aliases: [TableAliasBase]) -> [TableAliasBase: String] {
        // A single table has its own name: the common case, without the
        // sets and dictionaries below.
        if aliases.count < 2 { return [:] }
        precondition(aliases.count == Set(aliases).count, "A TableAlias must not be used to refer to multiple tables")
        let groups = Dictionary(grouping: aliases) { CaseInsensitiveIdentifier($0.identityName) }
        var usedNames = Set(groups.filter { $0.value.count == 1 }.keys)
        var resolvedNames: [TableAliasBase: String] = [:]
        for (_, group) in groups.sorted(by: { $0.key < $1.key }) where group.count > 1 {
            precondition(
                group.filter(\.hasUserName).count < 2,
                "ambiguous alias: \(group[0].identityName)")
            var index = 1
            for alias in group where !alias.hasUserName {
                let radical = String(alias.identityName.reversed().drop(while: \.isNumber).reversed())
                var name: String
                repeat {
                    name = "\(radical)\(index)"
                    index += 1
                } while usedNames.contains(CaseInsensitiveIdentifier(name))
                usedNames.insert(CaseInsensitiveIdentifier(name))
                resolvedNames[alias] = name
            }
        }
        return resolvedNames
    }
}
