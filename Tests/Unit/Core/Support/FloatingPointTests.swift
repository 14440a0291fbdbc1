import Foundation
import Testing
import GRDBLite

@Suite struct FloatingPointTests {
    @Test(arguments: [
        0.0, 1.5, -1.5, Double.pi, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
        Double.leastNonzeroMagnitude, Double.leastNormalMagnitude, 1e-300, 1e300,
        Double.infinity, -Double.infinity,
    ])
    func doublesRoundTrip(value: Double) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            #expect(try Double.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [value]) == "real")
            try db.execute(sql: "CREATE TABLE t (r REAL, a)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [value, value])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT r, a FROM t"))
            #expect(row["r"] as Double == value)
            #expect(row["a"] as Double == value)
            #expect(Double.fromDatabaseValue(value.databaseValue) == value)
        }
    }

    @Test func nanIsStoredAsNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Double.nan]) == "null")
            #expect(try Double?.fetchAll(db, sql: "SELECT ?", arguments: [Double.nan]) == [nil])
            #expect(try Double.fetchOne(db, sql: "SELECT ?", arguments: [Float.nan]) == nil)
        }
    }

    @Test func negativeZero() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            // A bound -0.0 is a real zero; its sign survives a column without
            // affinity, and is lost in a REAL column (SQLite stores whole
            // reals there as integers).
            let bound = try #require(try Double.fetchOne(db, sql: "SELECT ?", arguments: [-0.0]))
            #expect(bound == 0)
            #expect(bound.sign == .minus)
            try db.execute(sql: "CREATE TABLE t (r REAL, a)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [-0.0, -0.0])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT r, a FROM t"))
            #expect((row["r"] as Double).sign == .plus)
            #expect((row["a"] as Double).sign == .minus)
            #expect(row["r"] as Double == 0)
        }
    }

    @Test func doublesReadFromIntegers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Double.fetchOne(db, sql: "SELECT 3") == 3.0)
            #expect(try Double.fetchOne(db, sql: "SELECT 0") == 0.0)
            #expect(try Double.fetchOne(db, sql: "SELECT 9223372036854775807") == 9.223372036854775807e18)
            #expect(Double.fromDatabaseValue(Int64.min.databaseValue) == -9.223372036854775808e18)
        }
    }

    @Test func doublesReadFromTextAsSQLiteConvertsItInStatements() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Double.fetchOne(db, sql: "SELECT 'abc'") == 0)
            #expect(try Double.fetchOne(db, sql: "SELECT '3.0e+5'") == 300_000)
            #expect(try Double.fetchOne(db, sql: "SELECT '1.5'") == 1.5)
            #expect(try Double.fetchOne(db, sql: "SELECT x'00'") == 0)
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT '1.5' AS d"))
            #expect(throws: RowDecodingError.self) { try copied.decode(Double.self, forColumn: "d") }
            #expect(Double.fromDatabaseValue("1.5".databaseValue) == nil)
            #expect(Double.fromDatabaseValue(Data([1]).databaseValue) == nil)
        }
    }

    @Test(arguments: [
        Float(0), 1.5, -2.25, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity,
        -.infinity
    ])
    func floatsRoundTrip(value: Float) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Float.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
            #expect(Float.fromDatabaseValue(value.databaseValue) == value)
            #expect(value.databaseValue.storage == .double(Double(value)))
        }
    }

    @Test func floatsReadFromDoublesAndIntegers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Float.fetchOne(db, sql: "SELECT 0.1") == Float(0.1))
            #expect(try Float.fetchOne(db, sql: "SELECT 1e300") == Float.infinity)
            #expect(try Float.fetchOne(db, sql: "SELECT 16777217") == Float(16777216))
            // Text: SQLite's conversion in a statement, as in GRDB.
            #expect(try Float.fetchOne(db, sql: "SELECT 'x'") == 0)
            #expect(Float.fromDatabaseValue("x".databaseValue) == nil)
        }
    }
}
