import Foundation
import Testing
import GRDBLite

@Suite struct URLTests {
    @Test(arguments: ["https://example.com/a?b=c#d", "file:///tmp/a%20b", "relative/path", "mailto:a@example.com"])
    func urlsAreStoredAsTheirAbsoluteString(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(url.databaseValue == url.absoluteString.databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [url]) == url.absoluteString)
            #expect(try URL.fetchOne(db, sql: "SELECT ?", arguments: [url]) == url)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS u", arguments: [url]))
            #expect(row["u"] as URL == url)
        }
    }

    @Test func invalidValuesAreErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try URL.fetchOne(db, sql: "SELECT 12") }
            #expect(throws: RowDecodingError.self) { try URL.fetchOne(db, sql: "SELECT x'61'") }
            #expect(URL.fromDatabaseValue(.null) == nil)
            #expect(try URL.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }
}
