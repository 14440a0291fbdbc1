/// Names a table of a request, so that its columns can be used elsewhere in
/// the request: in a subquery, or (with associations) from another table.
///
/// ```swift
/// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
/// let alias = TableAlias<Player>(name: "p")
/// let request = Player.aliased(alias).filter(alias.score > 1000)
///
/// // Players whose score is above the average of their team:
/// // SELECT * FROM "player"
/// // WHERE "score" > (SELECT AVG("score") FROM "player" "p2" WHERE "p2"."teamId" = "player"."teamId")
/// let player = TableAlias<Player>()
/// let teamAverage = Player.aliased(TableAlias(name: "p2"))
///     .filter(Column("teamId") == player.teamId)
///     .select(average(Column("score")))
/// let request = Player.aliased(player).filter(Column("score") > teamAverage)
/// ```
///
/// An alias without name prints as the table name, disambiguated when
/// needed. An alias must not be used for two different tables.
@dynamicMemberLookup
// @unchecked Sendable: no state of its own; TableAliasBase guards its state
// with a mutex.
public final class TableAlias<RowDecoder>: TableAliasBase, @unchecked Sendable {
    /// An alias, optionally named.
    public init(name: String? = nil) where RowDecoder == Void {
        super.init(name: name)
    }

    /// An alias for the table of a record type, optionally named.
    public init(name: String? = nil, for record: RowDecoder.Type = RowDecoder.self) {
        super.init(name: name)
    }

    /// An alias for the same table as `base`.
    init(proxyOf base: TableAliasBase) {
        super.init(name: nil)
        becomeProxy(of: base)
    }
}

extension TableAlias {
    /// Whether the alias refers to a row: false when an optional join finds
    /// no row. Its primary key is tested: `"author"."id" IS NOT NULL`.
    ///
    /// ```swift
    /// // Books without author
    /// let authorAlias = TableAlias<Author>()
    /// let request = Book
    ///     .joining(optional: Book.author.aliased(authorAlias))
    ///     .filter(!authorAlias.exists)
    /// ```
    public var exists: SQLExpression {
        SQLExpression(impl: .resolved(AliasExistence(alias: self)))
    }
}

/// `alias.primaryKey IS NOT NULL`, with the rowid, or the columns of the
/// primary key of a WITHOUT ROWID table (all NULL when negated); all the
/// columns of a view without primary key.
private struct AliasExistence: SQLExpressionResolver {
    let alias: TableAliasBase
    var isNegated = false

    var negated: any SQLExpressionResolver {
        AliasExistence(alias: alias, isNegated: !isNegated)
    }

    func expression(_ db: Database) throws -> SQLExpression {
        let columns: [String]
        if let primaryKey = try db.primaryKeyIfAny(alias.tableName) {
            columns = primaryKey.rowIDColumn.map { [$0] } ?? (primaryKey.tableHasRowID ? ["rowid"] : primaryKey.columns)
        } else {
            columns = try db.columns(in: alias.tableName).map(\.name)
        }
        let tests = columns.map {
            SQLExpression.compare(isNegated ? .is : .isNot, SQLExpression(impl: .qualifiedColumn($0, alias)), .null)
        }
        return tests.count == 1 ? tests[0] : .associative(.and, tests)
    }
}

extension TableAlias where RowDecoder: TableRecord {
    /// What key paths start from: the `Columns` of the record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// A column of the record, qualified by the alias: `alias.score`.
    public subscript<T: SQLSpecificExpressible>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLExpression
    {
        self[RowDecoder.databaseComponents[keyPath: keyPath].sqlExpression]
    }
}
