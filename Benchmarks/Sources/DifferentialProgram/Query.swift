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

/// The associations: `Player.team` (belongsTo), `Team.players` (hasMany).
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

    /// The table of the request's records.
    public var table: TableName {
        switch self {
        case .includingRequiredTeam, .includingOptionalTeam, .joiningRequiredTeam: .player
        case .includingAllPlayers, .annotatedPlayerCount, .annotatedScoreSum: .team
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
