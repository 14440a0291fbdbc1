import Foundation
import GRDBLiteMacros

// Records declared with `@DatabaseRecord`, and the same records written by
// hand (init(row:) by name, encode(to:), didInsert): the behaviour tests
// check that both store and read the same thing.

/// A raw-value enum stored as its raw value.
enum Status: String, Codable, Sendable, DatabaseValueConvertible, CaseIterable {
    case active, suspended, retired
}

/// A nested Codable value stored as JSON.
struct Address: Codable, Equatable, Sendable {
    var street: String
    var city: String
    var zip: Int?
}

/// A record with a column of each kind of value.
@DatabaseRecord(table: "player")
struct MacroPlayer: Equatable, Sendable {
    var id: Int64?
    var name: String
    var score: Int
    var bonus: Double?
    var joined: Date
    var avatar: Data?
    var token: UUID
    var balance: Decimal
    var status: Status
    var level: Int8?
    @DatabaseColumn("nick_name") var nickname: String?
    @DatabaseJSON var tags: [String]
    @DatabaseJSON var address: Address?
    @DatabaseTransient var isSelected = false
}

/// `MacroPlayer` written by hand.
struct HandPlayer: Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String
    var score: Int
    var bonus: Double?
    var joined: Date
    var avatar: Data?
    var token: UUID
    var balance: Decimal
    var status: Status
    var level: Int8?
    var nickname: String?
    var tags: [String]
    var address: Address?
    var isSelected = false

    init(_ player: MacroPlayer) {
        id = player.id
        name = player.name
        score = player.score
        bonus = player.bonus
        joined = player.joined
        avatar = player.avatar
        token = player.token
        balance = player.balance
        status = player.status
        level = player.level
        nickname = player.nickname
        tags = player.tags
        address = player.address
        isSelected = player.isSelected
    }

    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        score = row["score"]
        bonus = row["bonus"]
        joined = row["joined"]
        avatar = row["avatar"]
        token = row["token"]
        balance = row["balance"]
        status = row["status"]
        level = row["level"]
        nickname = row["nick_name"]
        let decoder = Self.databaseJSONDecoder(for: "tags")
        tags = try decoder.decode([String].self, from: row["tags"] as Data)
        address = try (row["address"] as Data?).map { try decoder.decode(Address.self, from: $0) }
    }

    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["score"] = score
        container["bonus"] = bonus
        container["joined"] = joined
        container["avatar"] = avatar
        container["token"] = token
        container["balance"] = balance
        container["status"] = status
        container["level"] = level
        container["nick_name"] = nickname
        let encoder = Self.databaseJSONEncoder(for: "tags")
        container["tags"] = try String(decoding: encoder.encode(tags), as: UTF8.self)
        container["address"] = try address.map { try String(decoding: encoder.encode($0), as: UTF8.self) }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension MacroPlayer {
    /// The player's table, whose columns are not in declaration order:
    /// the macro's records select their columns.
    static let createTableSQL = """
        CREATE TABLE player (
            nick_name TEXT, tags TEXT NOT NULL, address TEXT,
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, bonus REAL,
            joined DATETIME NOT NULL, avatar BLOB, token BLOB NOT NULL, balance TEXT NOT NULL,
            status TEXT NOT NULL, level INTEGER)
        """
}

/// A final class with an auto-incremented id: `PersistableRecord`.
@DatabaseRecord
final class Author: @unchecked Sendable {
    var id: Int?
    var name: String
    @DatabaseColumn("birth_year") var birthYear: Int?

    init(id: Int? = nil, name: String, birthYear: Int?) {
        self.id = id
        self.name = name
        self.birthYear = birthYear
    }
}

/// A struct without auto-incremented id, in a table named after its type,
/// with a column enum of its own.
@DatabaseRecord
struct HTTPRequest: Equatable, Sendable {
    enum Columns {
        static let path = Column("path")
    }

    var path: String
    var hits: Int
}

/// A generic record.
@DatabaseRecord(table: "tagged")
struct Tagged<Value: DatabaseValueConvertible & Equatable & Sendable>: Equatable, Sendable {
    var key: String
    var value: Value
}
