import Foundation
import Testing
@testable import GRDBLite

// Typed lists: an array literal of `<literal>.databaseValue` elements is too
// much for the type checker (each literal could be any convertible type).
private let integers: [Int64] = [0, 42, -1, .max, .min]
private let doubles: [Double] = [1.5, -0.25, 1e20, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 3.0]
private let strings: [String] = ["", "O'Brien", "''", "é🎉", "a\0b", "--comment"]
private let blobs: [Data] = [Data(), Data([0, 1, 0xAB, 0xFF])]
private let literalValues: [DatabaseValue] =
    [.null] + integers.map(\.databaseValue) + doubles.map(\.databaseValue)
    + strings.map(\.databaseValue) + blobs.map(\.databaseValue)

/// Values written into schema SQL as literals read back as the same values.
@Suite struct SQLLiteralValuesTests {
    @Test(arguments: literalValues)
    func literalReadsBackAsTheSameValue(_ value: DatabaseValue) throws {
        let dbQueue = try DatabaseQueue()
        let (readBack, type) = try dbQueue.read { db in
            let row = try #require(
                try Row.fetchOne(db, sql: "SELECT \(value.sqlLiteral) AS v, typeof(\(value.sqlLiteral)) AS t"))
            return (row["v"] as DatabaseValue, row["t"] as String)
        }
        #expect(readBack.storage == value.storage)
        let expectedType = switch value.storage {
        case .null: "null"
        case .int64: "integer"
        case .double: "real"
        case .string: "text"
        case .blob: "blob"
        }
        #expect(type == expectedType)
    }

    @Test func literals() {
        #expect(DatabaseValue.null.sqlLiteral == "NULL")
        #expect(42.databaseValue.sqlLiteral == "42")
        #expect(1.5.databaseValue.sqlLiteral == "1.5")
        #expect("O'Brien".databaseValue.sqlLiteral == "'O''Brien'")
        #expect(Data([1, 0xAB]).databaseValue.sqlLiteral == "X'01AB'")
        #expect(Double.infinity.databaseValue.sqlLiteral == "9e999")
        #expect((-Double.infinity).databaseValue.sqlLiteral == "-9e999")
        #expect(Double.nan.databaseValue.sqlLiteral == "NULL")
    }

    @Test func infinityReadsBack() throws {
        let dbQueue = try DatabaseQueue()
        let values = try dbQueue.read { db in
            try Double.fetchAll(
                db,
                sql:
                    "SELECT \(Double.infinity.databaseValue.sqlLiteral) UNION ALL SELECT \((-Double.infinity).databaseValue.sqlLiteral)"
            )
        }
        #expect(values == [.infinity, -.infinity])
    }

    @Test func literalSQLWritesInterpolatedValues() throws {
        let dbQueue = try DatabaseQueue()
        let sql = try dbQueue.read { db in
            try SQL("a = \("x'y") AND b = \(2) AND \(Column("c")) IS \(nil as Int?)").literalSQL(db)
        }
        #expect(sql == #"a = 'x''y' AND b = 2 AND "c" IS NULL"#)
    }

    @Test func literalSQLRejectsRawArguments() throws {
        let dbQueue = try DatabaseQueue()
        let error = try dbQueue.read { db in
            #expect(throws: DatabaseError.self) {
                try SQL(sql: "a = ?", arguments: [1]).literalSQL(db)
            }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.sql == "a = ?")
    }

    @Test func regularSQLStillBindsValues() throws {
        let dbQueue = try DatabaseQueue()
        let (sql, arguments) = try dbQueue.read { db in
            try SQL("a = \("x") AND \(sql: "b = ?", arguments: [2])").build(db)
        }
        #expect(sql == "a = ? AND b = ?")
        #expect(arguments.values == ["x".databaseValue, 2.databaseValue])
    }
}
