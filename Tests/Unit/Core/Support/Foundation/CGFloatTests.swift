import Foundation
import GRDBLite
import Testing

@Suite struct CGFloatTests {
    @Test func storedAsReal() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE points (x DOUBLE, y DOUBLE)")
            let x: CGFloat = 1.5
            let y: CGFloat? = nil
            try db.execute(sql: "INSERT INTO points VALUES (?, ?)", arguments: [x, y])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(x) || typeof(y) FROM points") == "realnull")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM points"))
            #expect(row["x"] as CGFloat == 1.5)
            #expect(row["y"] as CGFloat? == nil)
            #expect(CGFloat.fromDatabaseValue(2.databaseValue) == 2)
        }
    }
}
