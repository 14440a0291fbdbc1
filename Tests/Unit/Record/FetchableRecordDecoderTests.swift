import GRDBLite
import Testing

@Suite struct FetchableRecordDecoderTests {
    /// A record whose `init(row:)` decodes, then does more.
    private struct Player: Decodable, FetchableRecord {
        var id: Int
        var name: String
        var isFetched = false

        enum CodingKeys: String, CodingKey {
            case id, name
        }

        init(row: Row) throws {
            self = try FetchableRecordDecoder().decode(Player.self, from: row)
            isFetched = true
        }
    }

    @Test func decodesAsInitFromRow() throws {
        let player = try Player(row: ["id": 2, "name": "Barbara"])
        #expect(player.id == 2)
        #expect(player.name == "Barbara")
        #expect(player.isFetched)
        try DatabaseQueue().read { db throws in
            let players = try Player.fetchAll(db, sql: "SELECT 1 AS id, 'Arthur' AS name UNION ALL SELECT 2, 'Barbara'")
            #expect(players.map(\.name) == ["Arthur", "Barbara"])
            #expect(players.map(\.isFetched) == [true, true])
        }
        var failed = false
        do { _ = try Player(row: ["id": 1]) } catch { failed = true }
        #expect(failed)
    }

    @Test func missingKeys() throws {
        struct A: Decodable { }
        struct Composed: Decodable, FetchableRecord {
            var a: A
            var b: A?
        }
        struct TwoRequired: Decodable, FetchableRecord {
            var a: A
            var b: A
        }
        // One missing key decodes from the whole row; optionals are nil.
        _ = try FetchableRecordDecoder().decode(Composed.self, from: [:])
        #expect {
            _ = try FetchableRecordDecoder().decode(TwoRequired.self, from: [:])
        } throws: { error in
            // Either key may be the root: the message names both, as GRDB.
            guard case let DecodingError.keyNotFound(key, context) = error else { return false }
            return key.stringValue == "b" && context.debugDescription == "No such key: a or b"
        }
    }
}
