import Foundation
import Testing
import GRDBLite

@Suite struct DecimalTests {
    @Test(arguments: ["0", "12.5", "-0.001", "123456789012345678901234567890.123456789", "1e-20"])
    func decimalsAreStoredAsTextWithoutLoss(text: String) throws {
        let decimal = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (d)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [decimal])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(d) FROM t") == "text")
            #expect(try Decimal.fetchOne(db, sql: "SELECT d FROM t") == decimal)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT d FROM t"))
            #expect(row["d"] as Decimal == decimal)
        }
        #expect(Decimal(12.5).databaseValue == "12.5".databaseValue)
    }

    @Test func decimalsReadFromNumbers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Decimal.fetchOne(db, sql: "SELECT 12") == Decimal(12))
            #expect(try Decimal.fetchOne(db, sql: "SELECT 9223372036854775807") == Decimal(Int64.max))
            #expect(try Decimal.fetchOne(db, sql: "SELECT 0.5") == Decimal(0.5))
            #expect(Decimal.fromDatabaseValue(Double.infinity.databaseValue) == nil)
        }
    }

    @Test func invalidValuesAreErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try Decimal.fetchOne(db, sql: "SELECT 'abc'") }
            #expect(throws: RowDecodingError.self) { try Decimal.fetchOne(db, sql: "SELECT x'31'") }
            #expect(Decimal.fromDatabaseValue("".databaseValue) == nil)
        }
    }

    /// Foundation reads the number at the start of a text; GRDBLite needs
    /// the whole text to be a number.
    @Test(arguments: ["12 apples", "12abc", " 12", "12 ", "1.2.3", ".", "-", "1e", "1e+", "e5", "+-1", "١٢"])
    func textThatIsNotEntirelyANumberIsNotADecimal(text: String) {
        #expect(Decimal.fromDatabaseValue(text.databaseValue) == nil)
    }

    @Test(arguments: [
        ("12", "12"), ("+12", "12"), ("-0.25", "-0.25"), (".5", "0.5"), ("5.", "5"), ("1e3", "1000"),
        ("1.5E-2", "0.015"), ("18446744073709551615", "18446744073709551615"),
    ])
    func numberTexts(text: String, expected: String) {
        #expect(Decimal.fromDatabaseValue(text.databaseValue)?.description == expected)
    }
}

/// Decimal is a `StatementColumnConvertible`: rows and cursors read it
/// straight from the column, with the same rules as `fromDatabaseValue`.
@Suite struct DecimalColumnTests {
    @Test func decimalsReadFromEachStorageClass() throws {
        try DatabaseQueue().read { db throws in
            let sql = "SELECT 12, 0.5, '123456789012345678901234567890.5', '12 apples', x'31', NULL"
            let row = try #require(try Row.fetchOne(db, sql: sql))
            #expect(row[0] as Decimal == 12)
            #expect(row[1] as Decimal == Decimal(0.5))
            #expect(row[2] as Decimal == Decimal(string: "123456789012345678901234567890.5", locale: nil))
            #expect(row[5] as Decimal? == nil)
            #expect(try row.decode(Decimal?.self, atIndex: 5) == nil)
            #expect(throws: (any Error).self) { try row.decode(Decimal.self, atIndex: 3) }
            #expect(throws: (any Error).self) { try row.decode(Decimal.self, atIndex: 4) }
            #expect(try Decimal.fetchAll(db, sql: "SELECT 1 UNION ALL SELECT '2.25' UNION ALL SELECT 3.5")
                == [1, Decimal(string: "2.25")!, Decimal(3.5)])
            #expect(try Decimal?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 7") == [nil, 7])
        }
    }
}

/// Decodable records read decimals straight from their columns once the
/// first record has planned the columns: the same values, NULLs and errors
/// on every row as on the first.
@Suite struct DecimalDecodableTests {
    struct Payment: Decodable, FetchableRecord, Equatable {
        var amount: Decimal
        var tip: Decimal?
    }

    @Test func decodableRecordsReadDecimalsOfEachStorageClass() throws {
        try DatabaseQueue().read { db throws in
            let sql = """
                SELECT 12 AS amount, NULL AS tip UNION ALL SELECT '0.25', 0.5 \
                UNION ALL SELECT 3.5, '123456789012345678901234567890.5' UNION ALL SELECT -7, 8
                """
            let payments = try Payment.fetchAll(db, sql: sql)
            #expect(payments == [
                Payment(amount: 12, tip: nil),
                Payment(amount: Decimal(string: "0.25")!, tip: Decimal(0.5)),
                Payment(amount: Decimal(3.5), tip: Decimal(string: "123456789012345678901234567890.5")),
                Payment(amount: -7, tip: 8),
            ])
        }
    }

    @Test(arguments: [
        ("'12 apples'", "NULL", "amount"), ("NULL", "NULL", "amount"), ("x'31'", "1", "amount"),
        ("1", "'12 apples'", "tip"), ("1", "x'31'", "tip"),
    ])
    func aMismatchOnALaterRowNamesItsColumn(amount: String, tip: String, column: String) throws {
        try DatabaseQueue().read { db throws in
            let sql = "SELECT 1 AS amount, 2 AS tip UNION ALL SELECT 3, NULL UNION ALL SELECT \(amount), \(tip)"
            #expect {
                try Payment.fetchAll(db, sql: sql)
            } throws: { error in
                "\(error)".contains(column)
            }
        }
    }
}
