#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram

/// Builds and fetches a program's query-interface requests.
enum Requests {
    static func expression(_ filter: Filter) -> SQLExpression {
        let column = Column(filter.column)
        let value = filter.value.databaseValue
        switch filter.comparison {
        case .equal: return column == value
        case .notEqual: return column != value
        case .less: return column < value
        case .greaterOrEqual: return column >= value
        case .isNull: return column == nil
        }
    }

    /// The filters, orderings, selection, distinct and limit of the query.
    static func refine<T>(_ request: QueryInterfaceRequest<T>, _ query: Query) -> QueryInterfaceRequest<T> {
        var request = request
        for filter in query.filters { request = request.filter(expression(filter)) }
        if !query.orderings.isEmpty {
            request = request.order(query.orderings.map { ordering in
                ordering.descending ? Column(ordering.column).desc : Column(ordering.column).asc
            })
        }
        if let selection = query.selection { request = request.select(selection.map { Column($0) }) }
        if query.distinct { request = request.distinct() }
        if let limit = query.limit { request = request.limit(limit, offset: query.offset) }
        return request
    }

    /// Fetches the query: records, or rows when it selects or includes.
    static func fetch(_ query: Query, _ db: Database) throws -> String {
        // A documented difference (porting guide): GRDB reads the schema of
        // an `including(all:)` table before the base query, and throws at
        // once; GRDBLite after it, when it has rows. Not run: its
        // consequences in a block (a rollback) would hide the rest.
        if query.association?.prefetchKey != nil, try !db.tableExists("team") || !db.tableExists("player") {
            return "not run: including(all:) of a missing table"
        }
        switch query.association {
        case nil:
            switch query.table {
            case .player: return try fetch(refine(Player.all(), query), query, db, Canonical.text)
            case .team: return try fetch(refine(Team.all(), query), query, db, Canonical.text)
            }
        case .includingRequiredTeam:
            return try fetchRows(refine(Player.including(required: Player.team), query), query, db)
        case .includingOptionalTeam:
            return try fetchRows(refine(Player.including(optional: Player.team), query), query, db)
        case .joiningRequiredTeam:
            let team = Player.team.filter(Column("name") != nil)
            return try fetchRows(refine(Player.joining(required: team), query), query, db)
        case .includingAllPlayers:
            let players = Team.players.order(Column("id"))
            return try fetchRows(refine(Team.including(all: players), query), query, db)
        case .annotatedPlayerCount:
            return try fetchRows(refine(Team.annotated(with: Team.players.count), query), query, db)
        case .annotatedScoreSum:
            return try fetchRows(refine(Team.annotated(with: Team.players.sum(Column("score"))), query), query, db)
        case .annotatedScoreMin:
            return try fetchRows(refine(Team.annotated(with: Team.players.min(Column("score"))), query), query, db)
        case .annotatedScoreMax:
            return try fetchRows(refine(Team.annotated(with: Team.players.max(Column("score"))), query), query, db)
        case .annotatedScoreAverage:
            return try fetchRows(
                refine(Team.annotated(with: Team.players.average(Column("score"))), query), query, db)
        case .havingNoPlayers:
            return try fetch(refine(Team.having(Team.players.isEmpty), query), query, db, Canonical.text)
        case .havingPlayerCount:
            return try fetch(refine(Team.having(Team.players.count > 1), query), query, db, Canonical.text)
        case .includingOptionalCaptain:
            let captain = Team.captain.filter(Column("score") >= 1).order(Column("score").desc)
            return try fetchRows(refine(Team.including(optional: captain), query), query, db)
        case .joiningOptionalTeamAliased:
            let team = TableAlias()
            let request = Player.joining(optional: Player.team.aliased(team)).filter(team[Column("city")] == "x")
            return try fetch(refine(request, query), query, db, Canonical.text)
        case .includingAllPlayersFiltered:
            let players = Team.players.filter(Column("score") >= 2).order(Column("id"))
            return try fetchRows(refine(Team.including(all: players), query), query, db)
        case .includingAllTeammates:
            return try fetchRows(refine(Player.including(all: Player.teammates.order(Column("id"))), query), query, db)
        case .includingOptionalTeamCaptain:
            return try fetchRows(refine(Player.including(optional: Player.teamCaptain), query), query, db)
        }
    }

    static func fetch<T: FetchableRecord>(
        _ request: QueryInterfaceRequest<T>, _ query: Query, _ db: Database, _ text: (T) -> String)
    throws -> String
    {
        if query.selection != nil { return try fetchRows(request, query, db) }
        switch query.fetch {
        case .all: return try request.fetchAll(db).map(text).joined(separator: "\n")
        case .one: return try request.fetchOne(db).map(text) ?? "nil"
        case .count: return try "\(request.fetchCount(db))"
        }
    }

    static func fetchRows<T>(_ request: QueryInterfaceRequest<T>, _ query: Query, _ db: Database) throws -> String {
        let rows = request.asRequest(of: Row.self)
        switch query.fetch {
        case .all: return try rows.fetchAll(db).map(Canonical.text).joined(separator: "\n")
        case .one: return try rows.fetchOne(db).map(Canonical.text) ?? "nil"
        case .count: return try "\(rows.fetchCount(db))"
        }
    }
}
