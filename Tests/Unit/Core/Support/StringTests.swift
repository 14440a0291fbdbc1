import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite

@Suite struct StringTests {
    @Test(arguments: [
        "", "a", "Arthur", "éèà", "日本語", "👩‍👩‍👧‍👦", "e\u{301}", "a\0b", "\0", String(repeating: "x", count: 100_000)
    ])
    func stringsRoundTrip(value: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == value)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [value]) == "text")
            #expect(try Int.fetchOne(db, sql: "SELECT length(CAST(? AS BLOB))", arguments: [value]) == value.utf8.count)
            try db.execute(sql: "CREATE TABLE t (s TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
            #expect(try String.fetchOne(db, sql: "SELECT s FROM t") == value)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT s FROM t"))
            #expect(row["s"] as String == value)
            #expect(String.fromDatabaseValue(value.databaseValue) == value)
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE s = ?", arguments: [value]) == 2)
        }
    }

    @Test func nulIsStoredInsideTheText() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT hex(?)", arguments: ["a\0b"]) == "610062")
        }
    }

    @Test func emptyStringIsNotNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Bool.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [""]) == false)
            #expect("".databaseValue.storage == .string(""))
        }
    }

    @Test func invalidUTF8TextIsNotAString() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT CAST(x'61FF62' AS TEXT) AS s"
            #expect(try String.fetchOne(db, sql: "SELECT typeof(CAST(x'61FF62' AS TEXT))") == "text")
            let error = #expect(throws: RowDecodingError.self) { try String.fetchOne(db, sql: sql) }
            // fetchOne decodes an optional
            #expect(
                error?.description.hasPrefix(
                    #"could not decode String from database value Data(3 bytes) - column: "s""#) == true)
            let row = try #require(try Row.fetchOne(db, sql: sql))
            #expect(throws: RowDecodingError.self) { try row.decode(String.self, forColumn: "s") }
            // The bytes are kept as they are.
            #expect(try Data.fetchOne(db, sql: sql) == Data([0x61, 0xFF, 0x62]))
            #expect(row["s"] as Data == Data([0x61, 0xFF, 0x62]))
        }
    }

    /// Invalid UTF-8 anywhere (in the first or a later group of eight
    /// bytes, after other non-ASCII text, cut at the end, overlong, a
    /// surrogate, replaced by as many bytes as it has, or after a NUL
    /// byte) is refused by
    /// every read path; valid text around the same positions is read.
    @Test(arguments: [
        "FF", "61FF", "6162636465666768FF", "61626364656667FF68", "616263646566676869FF",
        "C3A9FF", "C3A961626364656667FF", "E282", "6162636465666768E282", "C0AF", "EDA080",
        "F09080", "F0908061", "F4908080", "C3A96162636465666768696A6B6C6DF09080",
        // Before and after a NUL byte: a text is checked whole, not as a C string.
        "FF0061", "6100FF", "00FF", "610062636465666768FF", "6100E282",
    ])
    func invalidUTF8IsRefusedAtAnyPosition(hex: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT CAST(x'\(hex)' AS TEXT) AS s"
            #expect(throws: RowDecodingError.self) { try String.fetchOne(db, sql: sql) }
            let copied = try #require(try Row.fetchOne(db, sql: sql))
            #expect(throws: RowDecodingError.self) { try copied.decode(String.self, forColumn: "s") }
            let cursor = try Row.fetchCursor(db, sql: sql)
            let live = try #require(try cursor.next())
            #expect(throws: RowDecodingError.self) { try live.decode(String.self, forColumn: "s") }
            #expect(String.fromDatabaseValue(copied["s"] as DatabaseValue) == nil)
        }
    }

    @Test(arguments: [
        "a", "abcdefgh", "abcdefghi", "é", "abcdefgé", "abcdefghé", "日本語のテキスト", "a\0bcdefgh\0é", "👩‍👩‍👧‍👦 abc",
    ])
    func validTextIsReadWhole(value: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let hex = value.utf8.map { String(format: "%02X", $0) }.joined()
            let sql = "SELECT CAST(x'\(hex)' AS TEXT) AS s"
            #expect(try String.fetchOne(db, sql: sql) == value)
            let copied = try #require(try Row.fetchOne(db, sql: sql))
            #expect(copied["s"] as String == value)
            let cursor = try Row.fetchCursor(db, sql: sql)
            let live = try #require(try cursor.next())
            #expect(live["s"] as String == value)
        }
    }

    /// The ASCII check reads words, halves and overlapping tails: a
    /// non-ASCII byte is found at every position of text of every length
    /// up to three words (valid text read whole, invalid text refused).
    @Test func nonASCIIIsFoundAtEveryLengthAndPosition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            for length in 1...24 {
                #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [String(repeating: "a", count: length)])
                    == String(repeating: "a", count: length))
                for position in 0..<length {
                    var ascii = Array(repeating: "61", count: length)
                    ascii[position] = "FF"
                    let sql = "SELECT CAST(x'\(ascii.joined())' AS TEXT)"
                    #expect(throws: RowDecodingError.self, "\(length) \(position)") {
                        try String.fetchOne(db, sql: sql)
                    }
                    var valid = Array(repeating: "a", count: length)
                    valid[position] = "é"
                    let text = valid.joined()
                    #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [text]) == text)
                }
            }
        }
    }

    @Test func numbersReadAsSQLiteFormatsThemFromStatements() throws {
        // As in GRDB: a statement's column converts as SQLite does; a
        // database value (copied rows) keeps numbers apart from strings.
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT 0") == "0")
            #expect(try String.fetchOne(db, sql: "SELECT -12") == "-12")
            #expect(try String.fetchOne(db, sql: "SELECT 0.0") == "0.0")
            #expect(try String.fetchOne(db, sql: "SELECT 1.5") == "1.5")
            #expect(try String.fetchOne(db, sql: "SELECT 1e20") == "1.0e+20")
            #expect(try String.fetchAll(db, sql: "SELECT 300000.0 UNION ALL SELECT 7") == ["300000.0", "7"])
            let cursor = try Row.fetchCursor(db, sql: "SELECT 42 AS n")
            let live = try #require(try cursor.next())
            #expect(live["n"] as String == "42")
            // After the conversion, the column still reads as an integer.
            #expect(live["n"] as Int == 42)
            #expect(live["n"] as DatabaseValue == 42.databaseValue)

            let copied = try #require(try Row.fetchOne(db, sql: "SELECT 42 AS n"))
            let error = #expect(throws: RowDecodingError.self) { try copied.decode(String.self, forColumn: "n") }
            #expect(error?.key == "n")
            #expect(String.fromDatabaseValue(1.databaseValue) == nil)
            #expect(String.fromDatabaseValue(1.5.databaseValue) == nil)
        }
    }

    @Test func blobsOfValidUTF8AreStrings() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT x'61C3A9'") == "aé")
            #expect(try String.fetchOne(db, sql: "SELECT x''") == "")
            #expect(String.fromDatabaseValue(Data("aé".utf8).databaseValue) == "aé")
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT x'61C3A9' AS s"))
            #expect(copied["s"] as String == "aé")
            // Invalid UTF-8 is never repaired.
            #expect(throws: RowDecodingError.self) { try String.fetchOne(db, sql: "SELECT x'61FF'") }
            #expect(String.fromDatabaseValue(Data([0x61, 0xFF]).databaseValue) == nil)
        }
    }

    @Test func stringsSortAndCompareAsSQLiteDoes() throws {
        let dbQueue = try DatabaseQueue()
        let names = try dbQueue.read { db throws in
            try String.fetchAll(
                db, sql: "SELECT column1 FROM (VALUES (?), (?), (?)) ORDER BY column1", arguments: ["b", "B", "a"])
        }
        #expect(names == ["B", "a", "b"])
    }
}
