import Foundation
import Testing
import GRDBLite

@Suite struct DatabaseValueTests {
    @Test func storageClassesAreReadFromSQLite() throws {
        let dbQueue = try DatabaseQueue()
        let values = try dbQueue.read { db throws in
            try DatabaseValue.fetchAll(
                db,
                sql: "SELECT NULL UNION ALL SELECT 1 UNION ALL SELECT 1.5 UNION ALL SELECT 'a' UNION ALL SELECT x'0102'"
            )
        }
        #expect(values.map(\.storage) == [.null, .int64(1), .double(1.5), .string("a"), .blob(Data([1, 2]))])
        #expect(values.map(\.isNull) == [true, false, false, false, false])
    }

    @Test func fetchOneOfNullIsANullDatabaseValueNotNil() throws {
        let dbQueue = try DatabaseQueue()
        let value = try dbQueue.read { try DatabaseValue.fetchOne($0, sql: "SELECT NULL") }
        #expect(value == .null)
        let missing = try dbQueue.read { try DatabaseValue.fetchOne($0, sql: "SELECT 1 WHERE 0") }
        #expect(missing == nil)
    }

    @Test func storageValueIsTheSwiftValue() {
        #expect(DatabaseValue.null.storage.value == nil)
        #expect(1.databaseValue.storage.value as? Int64 == 1)
        #expect(1.5.databaseValue.storage.value as? Double == 1.5)
        #expect("a".databaseValue.storage.value as? String == "a")
        #expect(Data([7]).databaseValue.storage.value as? Data == Data([7]))
    }

    @Test func bindingRoundTripsEveryStorageClass() throws {
        let dbQueue = try DatabaseQueue()
        let input: [DatabaseValue] = [
            .null, 42.databaseValue, 0.25.databaseValue, "é".databaseValue, Data([0, 255]).databaseValue
        ]
        let types = ["null", "integer", "real", "text", "blob"]
        try dbQueue.read { db throws in
            for (value, type) in zip(input, types) {
                let row = try #require(
                    try Row.fetchOne(db, sql: "SELECT ? AS v, typeof(?) AS t", arguments: [value, value]))
                #expect(row["v"] as DatabaseValue == value)
                #expect(row["t"] as String == type)
            }
        }
    }

    @Test func integerEqualsDoubleOnlyWhenExactlyEqual() {
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.0.databaseValue == 1.databaseValue)
        #expect(1.databaseValue != 1.5.databaseValue)
        #expect(Int64.max.databaseValue != Double(Int64.max).databaseValue) // 2^63 is not an Int64
        #expect("1".databaseValue != 1.databaseValue)
        #expect("a".databaseValue != Data("a".utf8).databaseValue)
        #expect(DatabaseValue.null == DatabaseValue.null)
        #expect(DatabaseValue.null != 0.databaseValue)
    }

    @Test func hashIsConsistentWithEquality() {
        let set: Set<DatabaseValue> = [1.databaseValue, 1.0.databaseValue, "1".databaseValue, .null, .null]
        #expect(set.count == 3)
    }

    @Test func initValueAcceptsOnlyConvertibleValues() {
        #expect(DatabaseValue(value: 12) == 12.databaseValue)
        #expect(DatabaseValue(value: "x") == "x".databaseValue)
        #expect(DatabaseValue(value: Optional<Int>.none as Any) == .null)
        #expect(DatabaseValue(value: [1, 2]) == nil)
        #expect(DatabaseValue(value: NSObject()) == nil)
    }

    @Test func description() {
        #expect(DatabaseValue.null.description == "NULL")
        #expect(12.databaseValue.description == "12")
        #expect(1.5.databaseValue.description == "1.5")
        #expect("a\"b".databaseValue.description == #""a\"b""#)
        #expect(Data([1, 2, 3]).databaseValue.description == "Data(3 bytes)")
    }

    @Test func databaseValueIsItsOwnConversion() {
        #expect(DatabaseValue.fromDatabaseValue(.null) == .null)
        #expect(DatabaseValue.fromDatabaseValue(3.databaseValue) == 3.databaseValue)
        #expect(3.databaseValue.databaseValue == 3.databaseValue)
    }

    @Test func invalidUTF8TextIsKeptAsBytes() throws {
        let dbQueue = try DatabaseQueue()
        let value = try dbQueue.read { try DatabaseValue.fetchOne($0, sql: "SELECT CAST(x'61FF' AS TEXT)") }
        #expect(value?.storage == .blob(Data([0x61, 0xFF])))
    }
}
