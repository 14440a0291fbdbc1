import Foundation
import GRDBLiteMacros
import Testing

// The Record Macros article's record, before (by hand) and after (by the
// macro), as written there (`DocumentationExamplesTests.everyExampleIsHeldByATest`
// checks that they are here): both read and write the same rows.

private enum ByHand {
    struct Player: FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int

        enum Columns {
            static let id = Column("id")
            static let name = Column("name")
            static let score = Column("score")
        }

        static var databaseSelection: [any SQLSelectable] { [Columns.id, Columns.name, Columns.score] }

        init(row: Row) throws {
            id = row[0]
            name = row[1]
            score = row[2]
        }

        func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["score"] = score
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }

        init(id: Int64?, name: String, score: Int) {
            (self.id, self.name, self.score) = (id, name, score)
        }
    }
}

private enum ByMacro {
    @DatabaseRecord
    struct Player {
        var id: Int64?
        var name: String
        var score: Int
    }
}

@Suite struct RecordMacrosArticleTests {
    @Test func theMacroRecordReadsAndWritesWhatTheHandWrittenOneDoes() throws {
        #expect(ByHand.Player.databaseTableName == ByMacro.Player.databaseTableName)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER)")
            var arthur = ByHand.Player(id: nil, name: "Arthur", score: 100)
            try arthur.insert(db)
            var barbara = ByMacro.Player(id: nil, name: "Barbara", score: 1000)
            try barbara.insert(db)
            #expect(arthur.id == 1)
            #expect(barbara.id == 2)

            let byHand = try ByHand.Player.order(ByHand.Player.Columns.score.desc).fetchAll(db)
            let byMacro = try ByMacro.Player.order(ByMacro.Player.Columns.score.desc).fetchAll(db)
            #expect(byHand.map(\.name) == ["Barbara", "Arthur"])
            #expect(byMacro.map(\.name) == byHand.map(\.name))
            #expect(byMacro.map(\.id) == byHand.map(\.id))
            #expect(byMacro.map(\.score) == byHand.map(\.score))
        }
    }
}
