import Foundation
import Testing
import GRDBLite

/// The integer widths, for parameterized tests.
enum IntegerWidth: String, CaseIterable, Sendable {
    case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
}

@Suite struct IntegerTests {
    typealias DatabaseInteger = FixedWidthInteger & DatabaseValueConvertible & StatementColumnConvertible

    @Test(arguments: IntegerWidth.allCases)
    func boundsRoundTripAndOverflowIsAnError(width: IntegerWidth) throws {
        switch width {
        case .int: try checkBounds(Int.self)
        case .int8: try checkBounds(Int8.self)
        case .int16: try checkBounds(Int16.self)
        case .int32: try checkBounds(Int32.self)
        case .int64: try checkBounds(Int64.self)
        case .uint: try checkBounds(UInt.self)
        case .uint8: try checkBounds(UInt8.self)
        case .uint16: try checkBounds(UInt16.self)
        case .uint32: try checkBounds(UInt32.self)
        case .uint64: try checkBounds(UInt64.self)
        }
    }

    /// Stores `T.min`, `T.max` and zero, reads them back through every path
    /// (fast value cursor, slow `fromDatabaseValue`, cursor row, copied row),
    /// and checks that the first values out of range are errors.
    private func checkBounds<T: DatabaseInteger>(_ type: T.Type) throws {
        let dbQueue = try DatabaseQueue()
        // UInt64.max and UInt.max can't be stored: their bound is Int64.max.
        let storableMax = T(exactly: Int64.max).map { Swift.min($0, T.max) } ?? T.max
        let values = [T.min, T.zero, storableMax]
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (i INTEGER)")
            for value in values {
                try db.execute(sql: "INSERT INTO t (i) VALUES (?)", arguments: [value])
            }
            #expect(try T.fetchAll(db, sql: "SELECT i FROM t ORDER BY rowid") == values)
            #expect(try String.fetchAll(db, sql: "SELECT typeof(i) FROM t") == ["integer", "integer", "integer"])
            #expect(try Int64.fetchAll(db, sql: "SELECT i FROM t ORDER BY rowid") == values.map { Int64($0) })
            for value in values {
                #expect(T.fromDatabaseValue(value.databaseValue) == value)
                let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS i", arguments: [value]))
                #expect(row[0] as T == value)
                #expect(row["i"] as T == value)
                #expect(try row.decode(T.self, atIndex: 0) == value)
                try Row.fetchCursor(db, sql: "SELECT ? AS i", arguments: [value]).forEach { row in
                    #expect(row["i"] as T == value)
                }
            }

            // Out of range
            var outOfRange: [Int64] = []
            if let max = Int64(exactly: T.max), max < Int64.max { outOfRange.append(max + 1) }
            if let min = Int64(exactly: T.min), min > Int64.min { outOfRange.append(min - 1) }
            if T.self == Int64.self || T.self == Int.self {
                // Int64 has no integer out of range: try a REAL
                let error = #expect(throws: RowDecodingError.self) {
                    try T.fetchAll(db, sql: "SELECT 1e19")
                }
                #expect(error?.description.hasPrefix("could not decode \(T.self) from database value 1e+19") == true)
                #expect(throws: RowDecodingError.self) { try T.fetchOne(db, sql: "SELECT 1e19") }
                #expect(throws: RowDecodingError.self) { try T.fetchOne(db, sql: "SELECT -1e19") }
                #expect(throws: RowDecodingError.self) { try T.fetchOne(db, sql: "SELECT 9223372036854775808.0") }
                #expect(T.fromDatabaseValue(1e19.databaseValue) == nil)
            }
            for value in outOfRange {
                #expect(T.fromDatabaseValue(value.databaseValue) == nil)
                #expect(T?.fromDatabaseValue(value.databaseValue) == nil, "a value that does not convert is not NULL")
                let error = #expect(throws: RowDecodingError.self) {
                    try T.fetchAll(db, sql: "SELECT ? AS i", arguments: [value])
                }
                #expect(
                    error?.description.hasPrefix(
                        "could not decode \(T.self) from database value \(value) - column: \"i\"") == true)
                // fetchOne decodes an optional
                let optionalError = #expect(throws: RowDecodingError.self) {
                    try T.fetchOne(db, sql: "SELECT ? AS i", arguments: [value])
                }
                #expect(
                    optionalError?.description.hasPrefix(
                        "could not decode \(T.self) from database value \(value) - column: \"i\"") == true)
                #expect(throws: RowDecodingError.self) { try T?.fetchOne(db, sql: "SELECT ?", arguments: [value]) }
                let copiedRow = try #require(try Row.fetchOne(db, sql: "SELECT ? AS i", arguments: [value]))
                #expect(throws: RowDecodingError.self) { try copiedRow.decode(T.self, atIndex: 0) }
                #expect(throws: RowDecodingError.self) { try copiedRow.decode(T?.self, forColumn: "i") }
                let cursor = try Row.fetchCursor(db, sql: "SELECT ? AS i", arguments: [value])
                let cursorRow = try #require(try cursor.next())
                #expect(throws: RowDecodingError.self) { try cursorRow.decode(T.self, forColumn: "i") }
            }
        }
    }

    @Test func integersAreStoredAsIntegers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Int8(1)]) == "integer")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [UInt64(1)]) == "integer")
            #expect(UInt32(7).databaseValue.storage == .int64(7))
        }
    }

    @Test func integersReadFromWholeReals() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT 2.0") == 2)
            #expect(try Int8.fetchOne(db, sql: "SELECT -128.0") == -128)
            #expect(try Int.fetchOne(db, sql: "SELECT 0.0") == 0)
            #expect(Int.fromDatabaseValue(2.0.databaseValue) == 2)
            #expect(try Row.fetchOne(db, sql: "SELECT 2.0")![0] as Int == 2)
        }
    }

    /// As in GRDB, a real with a fractional part is truncated, whatever the
    /// path that reads it (it used to fail for values between -1 and 1 in
    /// the fast path, and for all of them in copied rows).
    @Test func integersTruncateRealsLikeGRDB() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT 1.5") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT 0.5") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT -1.5") == -1)
            #expect(Int.fromDatabaseValue(1.5.databaseValue) == 1)
            #expect(Int64.fromDatabaseValue((-0.5).databaseValue) == 0)
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT 1.5 AS a, 0.5 AS b"))
            #expect(copied["a"] as Int == 1)
            #expect(copied["b"] as Int == 0)
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1.5 AS a, 0.5 AS b")
            let live = try #require(try cursor.next())
            #expect(live["a"] as Int == 1)
            #expect(live["b"] as Int == 0)
        }
    }

    @Test func integersReadFromTextAsSQLiteConvertsItInStatements() throws {
        // As in GRDB: SQLite's conversion in a statement's column (the
        // leading integer, else 0); database values (copied rows) refuse
        // text and blobs.
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT 'abc'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT '0'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT '12'") == 12)
            #expect(try Int.fetchOne(db, sql: "SELECT ' -12abc'") == -12)
            #expect(try Int.fetchOne(db, sql: "SELECT '3.0e+5'") == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT x'3432'") == 42)
            #expect(try Int.fetchOne(db, sql: "SELECT x'00'") == 0)
            #expect(try Int8.fetchOne(db, sql: "SELECT '127'") == 127)
            // Out of range is still an error.
            #expect(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT '128'") }
            let cursor = try Row.fetchCursor(db, sql: "SELECT 'foo' AS s")
            #expect(try cursor.next()?["s"] as Int? == 0)
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT '12' AS s"))
            #expect(throws: RowDecodingError.self) { try copied.decode(Int.self, forColumn: "s") }
            #expect(Int.fromDatabaseValue("12".databaseValue) == nil)
            #expect(Int.fromDatabaseValue(Data([1]).databaseValue) == nil)
            #expect(Int.fromDatabaseValue(.null) == nil)
        }
    }

    @Test func nullIsNilInFetchOneAndAnErrorInDecode() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(throws: RowDecodingError.self) { try Int.fetchAll(db, sql: "SELECT NULL") }
            #expect(try Int?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 1") == [nil, 1])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS n"))
            let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "n") }
            #expect(
                error?.description.hasPrefix(
                    #"could not decode Int from database value NULL - column: "n", column index: 0"#) == true)
        }
    }

    @Test func unsignedValuesAboveInt64MaxTrapWhenStored() async {
        await #expect(processExitsWith: .failure) {
            _ = UInt64.max.databaseValue
        }
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db throws in
                _ = try Int.fetchOne(db, sql: "SELECT ?", arguments: [UInt64(Int64.max) + 1])
            }
        }
    }

    @Test func intExtremesInTheFastPath() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            // Int64.max and Int64.min are also what SQLite returns for
            // reals out of range: they must be checked.
            #expect(try Int64.fetchOne(db, sql: "SELECT 9223372036854775807") == Int64.max)
            #expect(try Int64.fetchOne(db, sql: "SELECT -9223372036854775808") == Int64.min)
            #expect(throws: RowDecodingError.self) { try Int64.fetchOne(db, sql: "SELECT 1e300") }
            #expect(throws: RowDecodingError.self) { try Int64.fetchOne(db, sql: "SELECT -1e300") }
        }
    }
}
