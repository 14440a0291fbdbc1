import Foundation
import Testing
import GRDBLite

@Suite struct BoolTests {
    @Test func boolsAreStoredAsZeroAndOne() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(
                try Row.fetchOne(db, sql: "SELECT ? AS t, ? AS f, typeof(?) AS type", arguments: [true, false, true])
                == ["t": 1, "f": 0, "type": "integer"])
        }
        #expect(true.databaseValue.storage == .int64(1))
        #expect(false.databaseValue.storage == .int64(0))
    }

    @Test(arguments: [
        ("0", false), ("1", true), ("2", true), ("-1", true), ("0.0", false), ("0.5", true), ("-0.5", true)
    ])
    func numbersAreBools(sql: String, expected: Bool) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Bool.fetchOne(db, sql: "SELECT \(sql)") == expected)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT \(sql)"))
            #expect(row[0] as Bool == expected)
            #expect(Bool.fromDatabaseValue(row[0] as DatabaseValue) == expected)
            let cursor = try Row.fetchCursor(db, sql: "SELECT \(sql)")
            #expect(try cursor.next()![0] as Bool == expected)
        }
    }

    @Test func textAndBlobsReadAsSQLiteConvertsThemFromStatements() throws {
        // As in GRDB: SQLite's integer conversion of the text, in a
        // statement's column; database values (copied rows) refuse them.
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Bool.fetchOne(db, sql: "SELECT '0'") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT '1'") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT '3.0e+5'") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'yes'") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT ''") == false)
            #expect(try Bool.fetchOne(db, sql: "SELECT x'31'") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT x'00'") == false)
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT '1' AS b"))
            #expect(throws: RowDecodingError.self) { try copied.decode(Bool.self, forColumn: "b") }
            #expect(Bool.fromDatabaseValue("true".databaseValue) == nil)
            #expect(Bool.fromDatabaseValue("1".databaseValue) == nil)
            #expect(Bool.fromDatabaseValue(Data([1]).databaseValue) == nil)
            #expect(Bool.fromDatabaseValue(.null) == nil)
            #expect(try Bool.fetchOne(db, sql: "SELECT NULL") == nil)
        }
    }

    @Test func boolsFilterInSQL() throws {
        let dbQueue = try DatabaseQueue()
        let count = try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (flag BOOLEAN NOT NULL)")
            try db.execute(sql: "INSERT INTO t VALUES (?), (?), (?)", arguments: [true, false, true])
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE flag = ?", arguments: [true])
        }
        #expect(count == 2)
    }
}
