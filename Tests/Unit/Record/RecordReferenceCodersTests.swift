import Foundation
@testable import GRDBLite
import Synchronization
import Testing

// `GRDBLITE_REFERENCE_CODERS=1` selects the reference coders of Codable
// records (CI runs the coder suites again with it). These tests run in
// both legs: the switch must reach the reference coders when it is set,
// and only then; and the reference coders must give the fast path's
// results.

private struct CodedPlayer: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "codedPlayer"
    var id: Int64
    var name: String
    var score: Int?
    var birth: Date?
    var tags: [String]
}

private func makeCodedPlayerDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(sql: """
            CREATE TABLE codedPlayer (id INTEGER PRIMARY KEY, name TEXT, score INTEGER, birth, tags TEXT)
            """)
    }
    return dbQueue
}

@Suite struct RecordReferenceCodersTests {
    @Test func theSwitchSelectsTheReferenceCodersOnlyWhenSet() throws {
        let isSet = ProcessInfo.processInfo.environment["GRDBLITE_REFERENCE_CODERS"] == "1"
        #expect(ReferenceCoders.isEnabled == isSet)
        let decoded = ReferenceCoders.decodedRecords.load(ordering: .relaxed)
        let encoded = ReferenceCoders.encodedRecords.load(ordering: .relaxed)
        let players = try makeCodedPlayerDatabase().write { db in
            try CodedPlayer(id: 1, name: "Arthur", score: 100, birth: nil, tags: ["a"]).insert(db)
            return try CodedPlayer.fetchAll(db)
        }
        #expect(players == [CodedPlayer(id: 1, name: "Arthur", score: 100, birth: nil, tags: ["a"])])
        // Other tests may decode and encode meanwhile: the counts only grow
        // when the switch is set.
        let decodedNow = ReferenceCoders.decodedRecords.load(ordering: .relaxed)
        let encodedNow = ReferenceCoders.encodedRecords.load(ordering: .relaxed)
        if isSet {
            #expect(decodedNow > decoded)
            #expect(encodedNow > encoded)
        } else {
            #expect(decodedNow == 0)
            #expect(encodedNow == 0)
        }
    }

    @Test func theReferenceCodersGiveTheResultsOfTheFastPath() throws {
        let birth = Date(timeIntervalSince1970: 1_000_000)
        let player = CodedPlayer(id: 2, name: "Barbara", score: nil, birth: birth, tags: ["b", "c"])

        // Encoding, without the switch's count.
        var fast = PersistenceContainer()
        try player.encode(to: &fast)
        var reference = PersistenceContainer()
        try ReferenceEncodingTarget.encode(player, to: &reference)
        #expect(reference.columns == fast.columns)
        #expect(reference.columns.map { reference.databaseValue(forColumn: $0) }
            == fast.columns.map { fast.databaseValue(forColumn: $0) })

        // Decoding, from a statement's row and from a row of values.
        try makeCodedPlayerDatabase().write { db in
            try player.insert(db)
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM codedPlayer")
            while let row = try cursor.next() {
                let fastPlayer = try CodedPlayer(from: RowDecoder<CodedPlayer>(row: row))
                let referencePlayer = try ReferenceRowDecoder<CodedPlayer>.decodeRecord(CodedPlayer.self, from: row)
                #expect(fastPlayer == player)
                #expect(referencePlayer == player)
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM codedPlayer"))
            #expect(try ReferenceRowDecoder<CodedPlayer>.decodeRecord(CodedPlayer.self, from: row) == player)
        }
    }
}
