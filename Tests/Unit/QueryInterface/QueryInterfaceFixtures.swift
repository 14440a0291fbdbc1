import GRDBLite
import Testing

/// Shared fixtures of the query interface tests.
enum QueryInterfaceFixtures {
    /// A record of the `player` table.
    struct Player: Codable, Hashable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int?
        var team: String?

        static let databaseTableName = "player"

        enum Columns {
            static let id = Column(CodingKeys.id)
            static let name = Column(CodingKeys.name)
            static let score = Column(CodingKeys.score)
            static let team = Column(CodingKeys.team)
        }
    }

    /// The players of `makeDatabase()`, by id.
    static let players = [
        Player(id: 1, name: "Arthur", score: 100, team: "red"),
        Player(id: 2, name: "Barbara", score: 1000, team: "blue"),
        Player(id: 3, name: "Craig", score: nil, team: "red"),
        Player(id: 4, name: "David", score: 500, team: nil),
        Player(id: 5, name: "Élodie", score: 1000, team: "blue"),
    ]

    /// A database with a `player` table filled with `players`.
    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    score INTEGER,
                    team TEXT)
                """)
            for player in players {
                try player.insert(db)
            }
        }
        return dbQueue
    }
}

/// The SQL and arguments of a request, as it would be fetched.
func sqlAndArguments(
    _ db: Database,
    _ request: some FetchRequest,
    singleResult: Bool = false) throws -> (sql: String, arguments: StatementArguments)
{
    let statement = try request.makePreparedRequest(db, forSingleResult: singleResult).statement
    return (statement.sql, statement.arguments)
}
