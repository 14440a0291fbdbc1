import Foundation
import Testing
import GRDBLite

@Suite struct NSStringTests {
    @Test func nsstringsAreStoredAsStrings() throws {
        let string = NSString(string: "Arthur é")
        #expect(string.databaseValue == "Arthur é".databaseValue)
        #expect(NSString.fromDatabaseValue("Arthur é".databaseValue) == string)
        // Subclasses are created, since NSString has a required initializer.
        let mutable = try #require(NSMutableString.fromDatabaseValue("foo".databaseValue))
        mutable.append("bar")
        #expect(mutable == "foobar")
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSString.fetchOne(db, sql: "SELECT ?", arguments: [string]) == string)
            #expect(try NSString.fetchAll(db, sql: "SELECT 'a' UNION ALL SELECT 'b'") == ["a", "b"])
        }
    }

    @Test(arguments: [DatabaseValue.null, 1.databaseValue, 1.5.databaseValue, Data([0xFF, 0xFE]).databaseValue])
    func otherValuesAreNotStrings(dbValue: DatabaseValue) {
        #expect(NSString.fromDatabaseValue(dbValue) == nil)
    }

    @Test func utf8BlobsAreRead() {
        // As in GRDB (a `String` is read from text only).
        #expect(NSString.fromDatabaseValue(Data("bar é".utf8).databaseValue) == "bar é")
        #expect(NSString.fromDatabaseValue(Data().databaseValue) == "")
    }
}
