import GRDBLite
import Testing

/// The functions and collations that every connection has, as in GRDB.
@Suite struct DefaultFunctionsTests {
    @Test func stringFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT swiftCapitalizedString('hello wORLD'), swiftLowercaseString('ÉTÉ'), swiftUppercaseString('été'),
                       swiftLocalizedCapitalizedString('été'), swiftLocalizedLowercaseString('ÉTÉ'),
                       swiftLocalizedUppercaseString('été'), swiftLowercaseString(NULL)
                """))
            #expect(row[0] as String == "Hello World")
            #expect(row[1] as String == "été")
            #expect(row[2] as String == "ÉTÉ")
            #expect(row[3] as String == "Été")
            #expect(row[4] as String == "été")
            #expect(row[5] as String == "ÉTÉ")
            #expect(row[6] as String? == nil)
            // SQLite's LOWER only knows ASCII.
            #expect(try String.fetchOne(db, sql: "SELECT LOWER('ÉTÉ')") == "ÉtÉ")
        }
    }

    @Test func collations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Bool.fetchOne(db, sql: "SELECT 'abc' = 'ABC' COLLATE swiftCaseInsensitiveCompare") == true)
            #expect(
                try Bool.fetchOne(db, sql: "SELECT 'été' = 'ÉTÉ' COLLATE swiftLocalizedCaseInsensitiveCompare") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'a' < 'B' COLLATE swiftLocalizedCompare") == true)
            #expect(
                try Bool.fetchOne(db, sql: "SELECT 'file2' < 'file10' COLLATE swiftLocalizedStandardCompare") == true)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'a' < 'B' COLLATE swiftCompare") == false)
        }
    }

    @Test func collationNames() {
        #expect(Database.CollationName.nocase.rawValue == "NOCASE")
        #expect(Database.CollationName.binary.rawValue == "BINARY")
        #expect(Database.CollationName.rtrim == Database.CollationName(rawValue: "RTRIM"))
    }
}
