import Foundation
import GRDBLiteMacros
import Testing

// The README's record macro example, as written there
// (`DocumentationExamplesTests.everyExampleIsHeldByATest` checks that it is
// here).

@DatabaseRecord
private struct Scorer {
    var id: Int64?
    var name: String
    @DatabaseColumn("total_score") var score: Int
    @DatabaseTransient var isSelected = false
}

@Suite struct ReadmeMacroExamplesTests {
    @Test func recordMacros() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE scorer (id INTEGER PRIMARY KEY, name TEXT NOT NULL, total_score INTEGER NOT NULL)
                """)
            var barbara = Scorer(id: nil, name: "Barbara", score: 100)
            try barbara.insert(db)
        }

        try dbQueue.write { db in
            var scorer = Scorer(id: nil, name: "Arthur", score: 1000)
            try scorer.insert(db) // sets scorer.id
            #expect(scorer.id == 2)
        }
        let topScorer = try dbQueue.read { db in
            try Scorer.order(Scorer.Columns.score.desc).fetchOne(db)
        }
        #expect(topScorer?.name == "Arthur")
    }
}
