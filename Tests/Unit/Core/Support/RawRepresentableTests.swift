import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite

private enum Color: String, DatabaseValueConvertible {
    case red, white
}

private enum Grape: Int, DatabaseValueConvertible, StatementColumnConvertible {
    case chardonnay = 1
    case merlot = 2
}

/// Codable enums use their raw value, not `Codable`.
private enum Fruit: String, Codable, DatabaseValueConvertible {
    case apple, pear
}

/// A raw value that `Codable` would encode differently: a Date (a number
/// for Codable, text for the database).
private struct Timestamp: RawRepresentable, Codable, DatabaseValueConvertible {
    var rawValue: Date
}

/// A generic wrapper that takes each SQL power of its raw value.
private struct Wrapper<RawValue>: RawRepresentable {
    var rawValue: RawValue
}

extension Wrapper: SQLExpressible where RawValue: SQLExpressible { }
extension Wrapper: StatementBinding where RawValue: StatementBinding { }
extension Wrapper: DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }

private struct FastWrapper<RawValue>: RawRepresentable {
    var rawValue: RawValue
}

extension FastWrapper: SQLSelectable where RawValue: SQLSelectable { }
extension FastWrapper: SQLOrderingTerm where RawValue: SQLOrderingTerm { }
extension FastWrapper: SQLSpecificExpressible where RawValue: SQLSpecificExpressible { }
extension FastWrapper: SQLExpressible where RawValue: SQLExpressible { }
extension FastWrapper: StatementBinding where RawValue: StatementBinding { }
extension FastWrapper: DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }
extension FastWrapper: StatementColumnConvertible where RawValue: StatementColumnConvertible { }

@Suite struct RawRepresentableTests {
    @Test func codableEnumsUseTheirRawValue() throws {
        #expect(Fruit.pear.databaseValue == "pear".databaseValue)
        #expect(Fruit.fromDatabaseValue("apple".databaseValue) == .apple)
        #expect(Fruit.fromDatabaseValue("\"apple\"".databaseValue) == nil) // not JSON
        let date = Date(timeIntervalSince1970: 0)
        #expect(Timestamp(rawValue: date).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Timestamp.fromDatabaseValue("1970-01-01 00:00:00.000".databaseValue)?.rawValue == date)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Fruit.fetchOne(db, sql: "SELECT 'pear'") == .pear)
        }
    }

    @Test func genericWrappersTakeThePowersOfTheirRawValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE wines (grape TEXT, color INTEGER)")
            try db.execute(
                sql: "INSERT INTO wines VALUES (?, ?)",
                arguments: [Wrapper(rawValue: "merlot"), FastWrapper(rawValue: 2)])
            try db.execute(
                sql: "INSERT INTO wines VALUES (?, ?)", arguments: [Wrapper<String>?.none, FastWrapper(rawValue: 1)])
            #expect(Wrapper(rawValue: 1).databaseValue == 1.databaseValue)
            #expect(Wrapper<Int>.fromDatabaseValue(3.databaseValue)?.rawValue == 3)

            let grapes = try Optional<Wrapper<String>>.fetchAll(db, sql: "SELECT grape FROM wines ORDER BY color")
            #expect(grapes.map { $0?.rawValue } == [nil, "merlot"])
            let colors = try FastWrapper<Int>.fetchAll(db, sql: "SELECT color FROM wines ORDER BY color")
            #expect(colors.map(\.rawValue) == [1, 2])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT grape, color FROM wines WHERE color = 2"))
            #expect((row["grape"] as Wrapper<String>).rawValue == "merlot")
            #expect((row["color"] as FastWrapper<Int>).rawValue == 2)

            // The query interface takes wrappers of columns and values.
            let column = FastWrapper(rawValue: Column("color"))
            let request = Table("wines")
                .select(column)
                .filter(FastWrapper(rawValue: Column("grape")) == Wrapper(rawValue: "merlot"))
                .order(column)
            #expect(try Int.fetchAll(db, request) == [2])
        }
    }

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
            #expect(
                error?.description.hasPrefix(#"could not decode Color from database value "blue" - column: "color""#)
                    == true)
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
