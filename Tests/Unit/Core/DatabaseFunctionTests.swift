import Foundation
import Testing
import GRDBLite

@Suite struct DatabaseFunctionTests {
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue().read(body)
    }

    @Test func scalarFunctionWithFixedArity() throws {
        try read { db throws in
            let double = DatabaseFunction("double", argumentCount: 1, pure: true) { values in
                Int.fromDatabaseValue(values[0]).map { $0 * 2 }
            }
            #expect(double.name == "double")
            db.add(function: double)
            #expect(try Int.fetchOne(db, sql: "SELECT double(21)") == 42)
            #expect(try Int.fetchOne(db, sql: "SELECT DOUBLE(?)", arguments: [4]) == 8, "names are case-insensitive")
            #expect(try Int?.fetchAll(db, sql: "SELECT double('x')") == [nil], "nil is NULL")
            let error = try #require(
                #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT double(1, 2)") })
            #expect(error.message == "wrong number of arguments to function double()")
        }
    }

    @Test func variadicFunction() throws {
        try read { db throws in
            db.add(function: DatabaseFunction("count_args") { values in values.count })
            #expect(try Int.fetchOne(db, sql: "SELECT count_args()") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count_args(1)") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT count_args(1, NULL, 'a', x'00')") == 4)
        }
    }

    @Test func functionsWithTheSameNameAndOtherAritiesCoexist() throws {
        try read { db throws in
            db.add(function: DatabaseFunction("f", argumentCount: 1) { _ in "one" })
            db.add(function: DatabaseFunction("f", argumentCount: 2) { _ in "two" })
            #expect(try String.fetchOne(db, sql: "SELECT f(1)") == "one")
            #expect(try String.fetchOne(db, sql: "SELECT f(1, 2)") == "two")
            db.add(function: DatabaseFunction("f", argumentCount: 1) { _ in "replaced" })
            #expect(try String.fetchOne(db, sql: "SELECT f(1)") == "replaced")
        }
    }

    @Test func argumentsAndResultsOfEveryStorageClass() throws {
        try read { db throws in
            db.add(function: DatabaseFunction("identity", argumentCount: 1) { values in values[0] })
            let row = try #require(try Row.fetchOne(
                    db,
                    sql:
                        "SELECT identity(NULL), identity(1), identity(1.5), identity('é'), identity(x'00ff'), identity(''), identity(x'')"
                ))
            let expected: [DatabaseValue] = [.null, 1.databaseValue, 1.5.databaseValue, "é".databaseValue,
                                             Data([0, 255]).databaseValue, "".databaseValue, Data().databaseValue]
            #expect(Array(row.databaseValues) == expected)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(identity(x''))") == "blob")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(identity(''))") == "text")
            db.add(function: DatabaseFunction("makeDate", argumentCount: 0) { _ in Date(timeIntervalSince1970: 0) })
            #expect(try String.fetchOne(db, sql: "SELECT makeDate()") == "1970-01-01 00:00:00.000")
        }
    }

    @Test func pureFunctionsCanBeIndexed() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("pureUpper", argumentCount: 1, pure: true) { values in
                String.fromDatabaseValue(values[0])?.uppercased()
            })
            db.add(function: DatabaseFunction("impureUpper", argumentCount: 1) { values in
                String.fromDatabaseValue(values[0])?.uppercased()
            })
            try db.execute(sql: "CREATE TABLE t (name TEXT)")
            try db.execute(sql: "CREATE INDEX t_pure ON t(pureUpper(name))")
            let error = try #require(#expect(throws: DatabaseError.self) {
                try db.execute(sql: "CREATE INDEX t_impure ON t(impureUpper(name))")
            })
            #expect(error.message?.contains("non-deterministic functions prohibited") == true)
        }
    }

    @Test func thrownDatabaseErrorsKeepTheirCodeAndMessage() throws {
        try read { db throws in
            db.add(function: DatabaseFunction("fail", argumentCount: 0) { _ in
                throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "custom failure")
            })
            let error = try #require(#expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT fail()") })
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.message == "custom failure")
            #expect(error.sql == "SELECT fail()")
        }
    }

    @Test func otherThrownErrorsBecomeSQLErrorsWithTheirDescription() throws {
        try read { db throws in
            db.add(function: DatabaseFunction("fail", argumentCount: 1) { values in
                throw CoreTestError(message: "bad value \(values[0])")
            })
            let error = try #require(
                #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT fail(3)") })
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "bad value 3")
        }
    }

    private struct Sum: DatabaseAggregate {
        var sum = 0
        var count = 0
        mutating func step(_ dbValues: [DatabaseValue]) throws {
            guard let value = Int.fromDatabaseValue(dbValues[0]) else {
                throw CoreTestError(message: "not an integer: \(dbValues[0])")
            }
            sum += value
            count += 1
        }
        func finalize() -> (any DatabaseValueConvertible)? {
            count == 0 ? nil : sum
        }
    }

    @Test func aggregate() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("mysum", argumentCount: 1, pure: true, aggregate: Sum.self))
            try db.execute(sql: "CREATE TABLE t (g, v); INSERT INTO t VALUES ('a', 1), ('a', 2), ('b', 10), ('c', 'x')")
            #expect(try Int.fetchOne(db, sql: "SELECT mysum(v) FROM t WHERE g IN ('a', 'b')") == 13)
            #expect(try Row.fetchAll(db, sql: "SELECT g, mysum(v) AS s FROM t WHERE g != 'c' GROUP BY g ORDER BY g")
                == [["g": "a", "s": 3], ["g": "b", "s": 10]])
            #expect(try Int?.fetchAll(db, sql: "SELECT mysum(v) FROM t WHERE 0") == [nil], "no row: a fresh aggregate")
            let error = try #require(
                #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT mysum(v) FROM t") })
            #expect(error.message == #"not an integer: "x""#)
            // Each query starts from a fresh state.
            #expect(try Int.fetchOne(db, sql: "SELECT mysum(v) FROM t WHERE g = 'b'") == 10)
        }
    }

    @Test func removedFunctionsAreGone() throws {
        try read { db throws in
            let function = DatabaseFunction("temporary", argumentCount: 0) { _ in 1 }
            db.add(function: function)
            #expect(try Int.fetchOne(db, sql: "SELECT temporary()") == 1)
            db.remove(function: function)
            let error = try #require(
                #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT temporary()") })
            #expect(error.message == "no such function: temporary")
        }
    }

    @Test func functionsAreIdentifiedByNameAndArity() {
        let a = DatabaseFunction("f", argumentCount: 1) { _ in nil }
        let b = DatabaseFunction("F", argumentCount: 1) { _ in 1 }
        let c = DatabaseFunction("f", argumentCount: 2) { _ in nil }
        #expect(a.id == b.id)
        #expect(a.id != c.id)
        #expect(Set([a, b, c].map(\.id)).count == 2)
    }

    /// GRDB registers its string functions on every connection.
    @Test func builtInFunctions() throws {
        try read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT swiftCapitalizedString('hello world'), swiftLowercaseString('ÉA'), swiftUppercaseString('éa'),
                       swiftLocalizedCapitalizedString('hello'), swiftLocalizedLowercaseString('A'), swiftLocalizedUppercaseString('a'),
                       swiftUppercaseString(1)
                """))
            let expected: [String?] = ["Hello World", "éa", "ÉA", "Hello", "a", "A", nil]
            #expect(Array(row.databaseValues) == expected.map(\.databaseValue))
            #expect(DatabaseFunction.uppercase.name == "swiftUppercaseString")
        }
    }
}
