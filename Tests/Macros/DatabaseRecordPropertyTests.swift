import Foundation
import GRDBLiteMacros
import PropertyBased
import Testing

/// Random players, inserted as `@DatabaseRecord` records and as the same
/// records written by hand: both store the same row, and read back the
/// same record. A failure prints the input and the seed that replays it
/// (`.fixedSeed("...")`).
@Suite struct DatabaseRecordPropertyTests {
    @Test func macroRecordsRoundTripLikeHandWrittenOnes() async {
        await propertyCheck(count: 250, input: Self.players) { players in
            let macroQueue = try DatabaseRecordBehaviourTests.makeDatabase()
            let handQueue = try DatabaseRecordBehaviourTests.makeDatabase()
            var inserted: [MacroPlayer] = []
            try macroQueue.write { db in
                for var player in players {
                    try player.insert(db)
                    inserted.append(player)
                }
            }
            try handQueue.write { db in
                for player in players {
                    var hand = HandPlayer(player)
                    try hand.insert(db)
                }
            }
            #expect(inserted.map(\.id) == players.indices.map { Int64($0 + 1) })
            let macroRows = try macroQueue.read(DatabaseRecordBehaviourTests.storedRows)
            #expect(try macroRows == handQueue.read(DatabaseRecordBehaviourTests.storedRows))
            let fetched = try macroQueue.read { db in try MacroPlayer.order(MacroPlayer.Columns.id).fetchAll(db) }
            let handFetched = try macroQueue.read { db in try HandPlayer.order(Column("id")).fetchAll(db) }
            #expect(fetched.map(HandPlayer.init) == handFetched)
            for (record, original) in zip(fetched, inserted) {
                // Dates keep milliseconds: the rest reads back exactly.
                var expected = original
                expected.joined = record.joined
                #expect(record == expected)
                #expect(abs(record.joined.timeIntervalSince(original.joined)) < 0.001)
            }
        }
    }

    static let strings = Gen.element(of: ["", "a", "Zoé", "🙂", "O'Brien", "\"q\"", "line\nbreak", "NULL", "\u{0}x"])
        .array(of: 0...3)
        .map { $0.compactMap { $0 }.joined() }

    /// Milliseconds from 1970, between the years 0005 and 9892.
    static let milliseconds = Gen.int64(in: -62_000_000_000_000...250_000_000_000_000)

    static let players = zip(
        zip(strings, Gen.int(), Gen.double(in: -1e300...1e300).optional, milliseconds),
        zip(Gen.uint8().array(of: 0...8).optional, Gen.uint64(), Gen.int64(in: -1_000_000_000...1_000_000_000),
            Gen.int(in: 0...2)),
        zip(Gen.int8().optional, strings.optional, strings.array(of: 0...3),
            zip(strings, Gen.int(in: 0...99_999).optional).optional)
    ).map { first, second, third in
        MacroPlayer(
            id: nil, name: first.0, score: first.1, bonus: first.2,
            joined: Date(timeIntervalSince1970: Double(first.3) / 1000),
            avatar: second.0.map { Data($0) },
            token: UUID(uuid: withUnsafeBytes(of: (second.1, ~second.1)) { $0.load(as: uuid_t.self) }),
            balance: Decimal(second.2) / 100, status: Status.allCases[second.3], level: third.0,
            nickname: third.1, tags: third.2,
            address: third.3.map { Address(street: $0.0, city: "Lyon", zip: $0.1) })
    }.array(of: 1...4)
}
