/// A comparison in `filter`.
public enum Comparison: String, Sendable, Codable, CaseIterable {
    case equal = "==", notEqual = "!=", less = "<", greaterOrEqual = ">="
    /// `Column(column) == nil`: the value is ignored.
    case isNull = "== nil"
}

/// `filter(Column(column) op value)`.
public struct Filter: Sendable, Codable, Hashable {
    public var column: String
    public var comparison: Comparison
    public var value: Value

    public init(column: String, comparison: Comparison, value: Value) {
        self.column = column
        self.comparison = comparison
        self.value = value
    }
}

/// `order(Column(column))` or `.desc`.
public struct Ordering: Sendable, Codable, Hashable {
    public var column: String
    public var descending: Bool

    public init(column: String, descending: Bool) {
        self.column = column
        self.descending = descending
    }
}

/// The associations: `Player.team` (belongsTo), `Team.players` (hasMany),
/// `Team.captain` (hasOne), `Player.teammates` (hasMany through the team),
/// `Player.teamCaptain` (hasOne through the team).
public enum AssociationUse: String, Sendable, Codable, CaseIterable {
    /// `Player.including(required: Player.team)`.
    case includingRequiredTeam
    /// `Player.including(optional: Player.team)`.
    case includingOptionalTeam
    /// `Player.joining(required: Player.team.filter(Column("name") != nil))`.
    case joiningRequiredTeam
    /// `Team.including(all: Team.players.order(Column("id")))`.
    case includingAllPlayers
    /// `Team.annotated(with: Team.players.count)`.
    case annotatedPlayerCount
    /// `Team.annotated(with: Team.players.sum(Column("score")))`.
    case annotatedScoreSum
    /// `Team.annotated(with: Team.players.min(Column("score")))`.
    case annotatedScoreMin
    /// `Team.annotated(with: Team.players.max(Column("score")))`.
    case annotatedScoreMax
    /// `Team.annotated(with: Team.players.average(Column("score")))`.
    case annotatedScoreAverage
    /// `Team.having(Team.players.isEmpty)`.
    case havingNoPlayers
    /// `Team.having(Team.players.count > 1)`.
    case havingPlayerCount
    /// `Team.including(optional: Team.captain.filter(Column("score") >= 1).order(Column("score").desc))`.
    case includingOptionalCaptain
    /// `Player.joining(optional: Player.team.aliased(team)).filter(team[Column("city")] == "x")`.
    case joiningOptionalTeamAliased
    /// `Team.including(all: Team.players.filter(Column("score") >= 2).order(Column("id")))`.
    case includingAllPlayersFiltered
    /// `Player.including(all: Player.teammates.order(Column("id")))`.
    case includingAllTeammates
    /// `Player.including(optional: Player.teamCaptain)`.
    case includingOptionalTeamCaptain

    /// The table of the request's records.
    public var table: TableName {
        switch self {
        case .includingRequiredTeam, .includingOptionalTeam, .joiningRequiredTeam, .joiningOptionalTeamAliased,
             .includingAllTeammates, .includingOptionalTeamCaptain: .player
        default: .team
        }
    }

    /// The column `including(all:)` joins on: a selection must keep it
    /// (both libraries trap without it).
    public var prefetchKey: String? {
        switch self {
        case .includingAllPlayers, .includingAllPlayersFiltered: "id"
        case .includingAllTeammates: "teamId"
        default: nil
        }
    }

    /// Whether the request is fetched as records, not rows.
    public var fetchesRecords: Bool {
        [.havingNoPlayers, .havingPlayerCount, .joiningOptionalTeamAliased].contains(self)
    }

    /// The request, as the Swift a user would write.
    public var swift: String {
        switch self {
        case .includingRequiredTeam: "Player.including(required: Player.team)"
        case .includingOptionalTeam: "Player.including(optional: Player.team)"
        case .joiningRequiredTeam: "Player.joining(required: Player.team.filter(Column(\"name\") != nil))"
        case .includingAllPlayers: "Team.including(all: Team.players.order(Column(\"id\")))"
        case .annotatedPlayerCount: "Team.annotated(with: Team.players.count)"
        case .annotatedScoreSum: "Team.annotated(with: Team.players.sum(Column(\"score\")))"
        case .annotatedScoreMin: "Team.annotated(with: Team.players.min(Column(\"score\")))"
        case .annotatedScoreMax: "Team.annotated(with: Team.players.max(Column(\"score\")))"
        case .annotatedScoreAverage: "Team.annotated(with: Team.players.average(Column(\"score\")))"
        case .havingNoPlayers: "Team.having(Team.players.isEmpty)"
        case .havingPlayerCount: "Team.having(Team.players.count > 1)"
        case .includingOptionalCaptain:
            "Team.including(optional: Team.captain.filter(Column(\"score\") >= 1).order(Column(\"score\").desc))"
        case .joiningOptionalTeamAliased:
            "Player.joining(optional: Player.team.aliased(team)).filter(team[Column(\"city\")] == \"x\")"
        case .includingAllPlayersFiltered:
            "Team.including(all: Team.players.filter(Column(\"score\") >= 2).order(Column(\"id\")))"
        case .includingAllTeammates: "Player.including(all: Player.teammates.order(Column(\"id\")))"
        case .includingOptionalTeamCaptain: "Player.including(optional: Player.teamCaptain)"
        }
    }
}

/// How a request is fetched.
public enum Fetch: String, Sendable, Codable, CaseIterable {
    /// Records, or rows when the request selects or includes.
    case all
    case one
    case count
}

/// A query-interface request on a table.
public struct Query: Sendable, Codable, Hashable {
    public var table: TableName
    public var association: AssociationUse?
    public var filters: [Filter]
    public var orderings: [Ordering]
    public var selection: [String]?
    public var distinct: Bool
    public var limit: Int?
    public var offset: Int?
    public var fetch: Fetch

    public init(table: TableName, fetch: Fetch) {
        self.table = table
        self.association = nil
        self.filters = []
        self.orderings = []
        self.selection = nil
        self.distinct = false
        self.limit = nil
        self.offset = nil
        self.fetch = fetch
    }
}
