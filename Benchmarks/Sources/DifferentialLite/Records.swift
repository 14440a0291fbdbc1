#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram
import Foundation

/// The `Codable` record: an optional auto-incremented id and a `Date`.
struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    static let team = belongsTo(Team.self, using: ForeignKey(["teamId"], to: ["id"]))
    /// The other players of the team, and the player.
    static let teammates = hasMany(Player.self, through: team, using: Team.players, key: "teammates")
    static let teamCaptain = hasOne(Player.self, through: team, using: Team.captain, key: "teamCaptain")
    var id: Int64?
    var teamId: Int64?
    var name: String?
    var score: Int64
    var createdAt: Date?

    init(_ values: [Value]) {
        id = values[0].int
        teamId = values[1].int
        name = values[2].text
        score = values[3].int ?? 0
        createdAt = values[4].date
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Sets every value but the id.
    mutating func set(_ values: [Value]) {
        let other = Player(values)
        (teamId, name, score, createdAt) = (other.teamId, other.name, other.score, other.createdAt)
    }
}

/// The hand-written record: `init(row:)` and `encode(to:)`.
struct Team: FetchableRecord, PersistableRecord {
    static let databaseTableName = "team"
    static let players = hasMany(Player.self, using: ForeignKey(["teamId"], to: ["id"]))
    static let captain = hasOne(Player.self, key: "captain", using: ForeignKey(["teamId"], to: ["id"]))
    var id: Int64?
    var name: String?
    var city: String?

    init(_ values: [Value]) {
        id = values[0].int
        name = values[1].text
        city = values[2].text
    }

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        city = row["city"]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["city"] = city
    }

    /// Sets every value but the id.
    mutating func set(_ values: [Value]) {
        let other = Team(values)
        (name, city) = (other.name, other.city)
    }
}

extension Value {
    var int: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var date: Date? {
        if case .date(let index) = self { return Date(timeIntervalSince1970: Value.dates[index]) }
        return nil
    }

    /// The value as an argument: a `Date` for `.date`.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .date: date!.databaseValue
        }
    }
}
