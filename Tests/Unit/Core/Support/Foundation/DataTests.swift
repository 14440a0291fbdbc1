import Foundation
import Testing
import GRDBLite

@Suite struct DataTests {
    @Test(arguments: [0, 1, 16, 1_000, 5_000_000])
    func dataRoundTrips(count: Int) throws {
        let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (b BLOB)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [data])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(b) FROM t") == "blob")
            #expect(try Int.fetchOne(db, sql: "SELECT length(b) FROM t") == count)
            #expect(try Data.fetchOne(db, sql: "SELECT b FROM t") == data)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT b FROM t"))
            #expect(row["b"] as Data == data)
            #expect(row.dataNoCopy(named: "b") == data)
            try Row.fetchCursor(db, sql: "SELECT b FROM t").forEach { row throws in
                #expect(row["b"] as Data == data)
                #expect(row.dataNoCopy(atIndex: 0) == data)
            }
            #expect(Data.fromDatabaseValue(data.databaseValue) == data)
        }
    }

    @Test func emptyDataIsAnEmptyBlobNotNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Data()]) == "blob")
            #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data()]) == Data())
            #expect(try Data.fetchOne(db, sql: "SELECT x''") == Data())
            #expect(Data().databaseValue.storage == .blob(Data()))
            #expect(try Data.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }

    /// As GRDB: the expanded SQL shows `x''`, not `zeroblob(0)` (found by
    /// the differential harness).
    @Test func emptyDataExpandsAsAnEmptyBlobLiteral() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.read { db throws in
            let sql = try recordedSQL(db) {
                _ = try Data.fetchOne(db, sql: "SELECT ?", arguments: [Data()])
            }
            #expect(sql == ["SELECT x''"])
        }
    }

    /// `zeroblob(n)` values are expanded when read: every read of a
    /// statement's column gives their zero bytes.
    @Test func zeroblobsReadAsZeroBytes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            for count in [0, 1, 100] {
                let zeros = Data(count: count)
                let sql = "SELECT zeroblob(\(count)) AS b"
                #expect(try Data.fetchOne(db, sql: sql) == zeros)
                #expect(try DatabaseValue.fetchOne(db, sql: sql) == zeros.databaseValue)
                try Row.fetchCursor(db, sql: sql).forEach { row throws in
                    #expect(row["b"] as Data == zeros)
                    #expect(row.dataNoCopy(atIndex: 0) == zeros)
                    #expect(row[0] as DatabaseValue == zeros.databaseValue)
                }
                // The bytes of a blob as text: zero bytes are NUL bytes.
                #expect(try String.fetchOne(db, sql: sql) == String(repeating: "\u{0}", count: count))
            }
        }
    }

    @Test func textReadsAsItsUTF8Bytes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Data.fetchOne(db, sql: "SELECT 'é'") == Data("é".utf8))
            #expect(Data.fromDatabaseValue("é".databaseValue) == Data("é".utf8))
        }
    }

    @Test func numbersReadAsSQLiteFormatsThemFromStatements() throws {
        // As in GRDB: the UTF-8 of the text SQLite formats, in a
        // statement's column; database values (copied rows) refuse them.
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Data.fetchOne(db, sql: "SELECT 1") == Data("1".utf8))
            #expect(try Data.fetchOne(db, sql: "SELECT 0.0") == Data("0.0".utf8))
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS d"))
            #expect(throws: RowDecodingError.self) { try copied.decode(Data.self, forColumn: "d") }
            #expect(Data.fromDatabaseValue(1.databaseValue) == nil)
            #expect(Data.fromDatabaseValue(1.5.databaseValue) == nil)
        }
    }
}
