import Foundation
import Testing
import GRDBLite

@Suite struct UUIDTests {
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    @Test func uuidsAreStoredAs16ByteBlobs() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Self.uuid]) == "blob")
            #expect(
                try String.fetchOne(db, sql: "SELECT hex(?)", arguments: [Self.uuid])
                    == "E621E1F8C36C495A93FC0C247A3E6E5F")
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [Self.uuid]) == Self.uuid)
            #expect(UUID.fromDatabaseValue(Self.uuid.databaseValue) == Self.uuid)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS id", arguments: [Self.uuid]))
            #expect(row["id"] as UUID == Self.uuid)
        }
    }

    @Test(arguments: ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"])
    func uuidsAreReadFromText(text: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [text]) == Self.uuid)
            #expect(UUID.fromDatabaseValue(text.databaseValue) == Self.uuid)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS id", arguments: [text]))
            #expect(row["id"] as UUID == Self.uuid)
        }
    }

    @Test func invalidValuesAreErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT 'not a uuid'") }
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT x'0102'") }
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT randomblob(17)") }
            #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT 1") }
            #expect(UUID.fromDatabaseValue(Data(count: 15).databaseValue) == nil)
            #expect(UUID.fromDatabaseValue("E621E1F8C36C495A93FC0C247A3E6E5F".databaseValue) == nil)
            #expect(try UUID.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }

    @Test func nsuuidsAreStoredAsUUIDs() throws {
        let nsuuid = Self.uuid as NSUUID
        #expect(nsuuid.databaseValue == Self.uuid.databaseValue)
        #expect(NSUUID.fromDatabaseValue(Self.uuid.databaseValue) == nsuuid)
        #expect(NSUUID.fromDatabaseValue(Self.uuid.uuidString.lowercased().databaseValue) == nsuuid)
        #expect(NSUUID.fromDatabaseValue(Data("abcdefghijklmnop".utf8).databaseValue)?.uuidString
            == "61626364-6566-6768-696A-6B6C6D6E6F70")
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSUUID.fetchOne(db, sql: "SELECT ?", arguments: [nsuuid]) == nsuuid)
            #expect(try Optional<NSUUID>.fetchAll(db, sql: "SELECT NULL") == [nil])
        }
        for invalid: DatabaseValue in [.null, 1.databaseValue, "foo".databaseValue, Data(count: 15).databaseValue] {
            #expect(NSUUID.fromDatabaseValue(invalid) == nil)
        }
    }
}
