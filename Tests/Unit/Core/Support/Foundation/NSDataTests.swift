import Foundation
import Testing
import GRDBLite

@Suite struct NSDataTests {
    @Test func nsdataIsStoredAsData() throws {
        let data = NSData(data: Data([0, 1, 2, 255]))
        #expect(data.databaseValue == Data([0, 1, 2, 255]).databaseValue)
        #expect(NSData.fromDatabaseValue(Data([0, 1, 2, 255]).databaseValue) == data)
        #expect(NSData.fromDatabaseValue("foo".databaseValue) == NSData(data: Data("foo".utf8)))
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSData.fetchOne(db, sql: "SELECT ?", arguments: [data]) == data)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [data]) == "blob")
        }
    }

    @Test(arguments: [DatabaseValue.null, 1.databaseValue, 1.5.databaseValue])
    func otherValuesAreNotData(dbValue: DatabaseValue) {
        #expect(NSData.fromDatabaseValue(dbValue) == nil)
    }
}
