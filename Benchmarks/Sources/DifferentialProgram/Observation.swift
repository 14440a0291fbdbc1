// A `ValueObservation` started before the steps, on a `DatabaseQueue`.

/// What the observation's tracking closure fetches.
public enum ObservedValue: String, Sendable, Codable, CaseIterable {
    /// `try Player.fetchAll(db)`.
    case players
    /// `try Player.fetchCount(db)`.
    case playerCount
    /// `try Team.filter(Column("city") == "x").order(Column("id")).fetchAll(db)`.
    case teamsOfCity
    /// `try Row.fetchAll(db, sql: "SELECT teamId, SUM(score) ...")`.
    case scoreSums
    /// The team of the player with the highest score: the tracked region
    /// moves to another team's row when that player changes team.
    case bestPlayerTeam

    public static let scoreSumsSQL = "SELECT teamId, SUM(score) FROM player GROUP BY teamId ORDER BY teamId"

    /// The tracking closure's body, as a user writes it.
    public var swift: String {
        switch self {
        case .players: "try Player.fetchAll(db)"
        case .playerCount: "try Player.fetchCount(db)"
        case .teamsOfCity: "try Team.filter(Column(\"city\") == \"x\").order(Column(\"id\")).fetchAll(db)"
        case .scoreSums: "try Row.fetchAll(db, sql: \"\(ObservedValue.scoreSumsSQL)\")"
        case .bestPlayerTeam:
            "try Player.order(Column(\"score\").desc, Column.rowID).fetchOne(db)?.teamId"
                + ".flatMap { try Team.filter(Column(\"id\") == $0).order(Column.rowID).fetchAll(db) }"
        }
    }
}

/// `ValueObservation.tracking { ... }`, maybe `.map { ... }` (to the
/// value's number of lines), maybe `.removeDuplicates()`, started with a
/// scheduler that notifies synchronously.
public struct ObservationUse: Sendable, Codable, Hashable {
    public var value: ObservedValue
    public var removeDuplicates: Bool
    public var maps: Bool

    public init(value: ObservedValue, removeDuplicates: Bool, maps: Bool = false) {
        self.value = value
        self.removeDuplicates = removeDuplicates
        self.maps = maps
    }
}
