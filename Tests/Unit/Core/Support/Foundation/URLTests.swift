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
            #expect(throws: RowDecodingError.self) { try URL.fetchOne(db, sql: "SELECT x'ff'") } // not UTF-8
            #expect(URL.fromDatabaseValue(.null) == nil)
            #expect(URL.fromDatabaseValue(1.5.databaseValue) == nil)
            #expect(try URL.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }

    /// GRDB reads blobs of UTF-8 text as URLs.
    @Test func urlsAreReadFromBlobsOfText() throws {
        #expect(URL.fromDatabaseValue(Data("bar".utf8).databaseValue)?.absoluteString == "bar")
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(
                try URL.fetchOne(db, sql: "SELECT CAST('https://example.com' AS BLOB)")
                    == URL(string: "https://example.com"))
        }
    }

    @Test(arguments: ["https://github.com/groue/GRDB.swift", "file:///tmp/", "relative/path"])
    func nsurlsAreStoredAsURLs(text: String) throws {
        let url = try #require(NSURL(string: text))
        #expect(url.databaseValue == text.databaseValue)
        #expect(NSURL.fromDatabaseValue(text.databaseValue) == url)
        #expect(NSURL.fromDatabaseValue(Data(text.utf8).databaseValue) == url)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSURL.fetchOne(db, sql: "SELECT ?", arguments: [url]) == url)
        }
        #expect(NSURL.fromDatabaseValue(.null) == nil)
        #expect(NSURL.fromDatabaseValue(1.databaseValue) == nil)
    }
}
