import Foundation
import Testing
import GRDBLite

private enum Color: String, DatabaseValueConvertible {
    case red, white
}

private enum Grape: Int, DatabaseValueConvertible, StatementColumnConvertible {
    case chardonnay = 1
    case merlot = 2
}

@Suite struct RawRepresentableTests {
    @Test func enumsAreStoredAsTheirRawValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(Color.red.databaseValue == "red".databaseValue)
            #expect(Grape.merlot.databaseValue == 2.databaseValue)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [Color.white]) == "white")
            #expect(try Int.fetchOne(db, sql: "SELECT ?", arguments: [Grape.chardonnay]) == 1)
        }
    }

    @Test func enumsAreReadFromTheirRawValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Color.fetchOne(db, sql: "SELECT 'red'") == .red)
            #expect(try Grape.fetchAll(db, sql: "SELECT 2 UNION ALL SELECT 1") == [.merlot, .chardonnay])
            #expect(try Color.fetchOne(db, sql: "SELECT NULL") == nil)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'white' AS c, 2 AS g"))
            #expect(row["c"] as Color == .white)
            #expect(row["g"] as Grape == .merlot)
            #expect(Color.fromDatabaseValue("red".databaseValue) == .red)
            #expect(Grape.fromDatabaseValue(1.databaseValue) == .chardonnay)
        }
    }

    @Test func unknownRawValuesAreErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let error = #expect(throws: RowDecodingError.self) { try Color.fetchAll(db, sql: "SELECT 'blue' AS color") }
            #expect(error?.description.hasPrefix(#"could not decode Color from database value "blue" - column: "color""#) == true)
            #expect(throws: RowDecodingError.self) { try Color.fetchOne(db, sql: "SELECT 'blue'") }
            #expect(throws: RowDecodingError.self) { try Grape.fetchOne(db, sql: "SELECT 3") }
            #expect(throws: RowDecodingError.self) { try Color.fetchOne(db, sql: "SELECT 1") }
            #expect(Color.fromDatabaseValue("RED".databaseValue) == nil)
            #expect(Grape.fromDatabaseValue(3.databaseValue) == nil)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 3 AS g"))
            #expect(throws: RowDecodingError.self) { try row.decode(Grape?.self, forColumn: "g") }
        }
    }
}
