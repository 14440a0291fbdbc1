import Foundation
import GRDBLite

/// Shared fixtures of the JSON tests: a `player` table whose `info` column
/// holds JSON text, and `address` a nested `Codable` stored as JSON.
enum JSONFixtures {
    struct Address: Codable, Hashable {
        var city: String
        var country: String
    }

    struct Player: Codable, Hashable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var info: String
        var address: Address

        static let databaseTableName = "player"

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
            static let info = JSONColumn(CodingKeys.info)
            static let address = JSONColumn(CodingKeys.address)
        }
    }

    static let players = [
        Player(id: 1, name: "Arthur", info: #"{"score":100,"tags":["a","b"]}"#,
               address: Address(city: "Paris", country: "FR")),
        Player(id: 2, name: "Barbara", info: #"{"score":300,"tags":[]}"#,
               address: Address(city: "Berlin", country: "DE")),
        Player(id: 3, name: "Craig", info: #"{"score":200,"tags":["c"]}"#,
               address: Address(city: "Lyon", country: "FR")),
    ]

    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("info", .jsonText).notNull()
                t.column("address", .jsonText).notNull()
            }
            for player in players {
                try player.insert(db)
            }
        }
        return dbQueue
    }
}

/// The value of `SELECT expression`.
func selectValue<T: DatabaseValueConvertible>(
    _ db: Database, _ expression: some SQLExpressible, as type: T.Type = T.self) throws -> T?
{
    try T.fetchOne(db, SQLRequest<T>("SELECT \(expression)"))
}

/// The SQL of `SELECT expression [FROM table]`, values bound as `?`, and
/// its result.
func evaluate(
    _ db: Database, _ expression: some SQLExpressible, from table: String? = nil) throws
    -> (sql: String, value: DatabaseValue)
{
    var request = SQLRequest<DatabaseValue>("SELECT \(expression)")
    if let table {
        request = SQLRequest<DatabaseValue>("SELECT \(expression) FROM \(sql: table)")
    }
    let sql = try sqlAndArguments(db, request).sql
    return (sql, try DatabaseValue.fetchOne(db, request) ?? .null)
}
