import Foundation
import Testing
import GRDBLite

@Suite struct NSNullTests {
    @Test func nsnullIsStoredAsNull() throws {
        #expect(NSNull().databaseValue.isNull)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [NSNull()]) == "null")
        }
    }

    @Test(arguments: [DatabaseValue.null, 1.databaseValue, 1.5.databaseValue, "foo".databaseValue, Data().databaseValue]
    )
    func nothingReadsAsNSNull(dbValue: DatabaseValue) {
        #expect(NSNull.fromDatabaseValue(dbValue) == nil)
    }
}
