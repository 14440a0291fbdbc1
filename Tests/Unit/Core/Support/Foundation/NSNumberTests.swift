import Foundation
import Testing
import GRDBLite

@Suite struct NSNumberTests {
    @Test(arguments: [
        (NSNumber(value: Int8.min), DatabaseValue(value: Int64(Int8.min))),
        (NSNumber(value: UInt8.max), DatabaseValue(value: Int64(UInt8.max))),
        (NSNumber(value: Int32.min + 1), DatabaseValue(value: Int64(Int32.min + 1))),
        (NSNumber(value: UInt32.max), DatabaseValue(value: Int64(UInt32.max))),
        (NSNumber(value: Int64.min), DatabaseValue(value: Int64.min)),
        (NSNumber(value: UInt64(Int64.max)), DatabaseValue(value: Int64.max)),
        (NSNumber(value: true), DatabaseValue(value: Int64(1))),
        (NSNumber(value: false), DatabaseValue(value: Int64(0))),
        (NSNumber(value: Float(3)), DatabaseValue(value: 3.0)),
        (NSNumber(value: 10.5), DatabaseValue(value: 10.5)),
    ])
    func numbersKeepTheirStorageClass(number: NSNumber, expected: DatabaseValue?) throws {
        let dbValue = number.databaseValue
        #expect(dbValue.storage == expected?.storage)
    }

    @Test(arguments: [
        ("9223372036854775807", DatabaseValue.Storage.int64(.max)),
        ("-9223372036854775808", .int64(.min)),
        ("1.0", .int64(1)),
        ("0", .int64(0)),
        ("9223372036854775808", .double(9223372036854775808)),
        ("9223372036854775806.5", .double(9223372036854775806.5)),
        ("-9223372036854775809", .double(-9223372036854775808)),  // the nearest Double
        ("1.5", .double(1.5)),
    ])
    func decimalNumbersStoreIntegersAsIntegers(text: String, storage: DatabaseValue.Storage) {
        #expect(NSDecimalNumber(string: text).databaseValue.storage == storage)
    }

    @Test func integersAndRealsReadAsNumbers() throws {
        let number = try #require(NSNumber.fromDatabaseValue(42.databaseValue))
        #expect(number.int64Value == 42)
        #expect(!(number is NSDecimalNumber))
        #expect(NSNumber.fromDatabaseValue(1.5.databaseValue)?.doubleValue == 1.5)
        #expect(
            NSDecimalNumber.fromDatabaseValue(Int64.min.databaseValue)
                == NSDecimalNumber(string: "-9223372036854775808"))
        #expect(NSDecimalNumber.fromDatabaseValue(0.25.databaseValue) == NSDecimalNumber(string: "0.25"))
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let roundTrips = [NSNumber(value: Int32.min + 1), NSNumber(value: 10_000_000.01)]
            for number in roundTrips {
                #expect(try NSNumber.fetchOne(db, sql: "SELECT ?", arguments: [number]) == number)
            }
            #expect(
                try NSDecimalNumber.fetchOne(db, sql: "SELECT 9223372036854775807")
                    == NSDecimalNumber(string: "9223372036854775807"))
        }
    }

    @Test(arguments: ["0.25", "-1", "18446744073709551615", "1e3"])
    func textReadsAsDecimalNumbers(text: String) throws {
        let expected = NSDecimalNumber(string: text)
        #expect(NSNumber.fromDatabaseValue(text.databaseValue) as? NSDecimalNumber == expected)
        #expect(NSDecimalNumber.fromDatabaseValue(text.databaseValue) == expected)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSNumber.fetchOne(db, sql: "SELECT ?", arguments: [text]) as? NSDecimalNumber == expected)
        }
    }

    @Test(arguments: [DatabaseValue.null, "foo".databaseValue, "12 apples".databaseValue, Data("1".utf8).databaseValue])
    func otherValuesAreNotNumbers(dbValue: DatabaseValue) throws {
        #expect(NSNumber.fromDatabaseValue(dbValue) == nil)
        #expect(NSDecimalNumber.fromDatabaseValue(dbValue) == nil)
    }

    @Test func unsignedValuesAboveInt64MaxTrap() async {
        await #expect(processExitsWith: .failure) {
            _ = NSNumber(value: UInt64.max).databaseValue
        }
    }
}
