import Foundation
import Testing
import GRDBLite

@Suite struct StatementArgumentsTests {
    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue().read(body)
    }

    @Test func initializers() {
        #expect(StatementArguments().isEmpty)
        #expect(StatementArguments([Int]()).isEmpty)
        #expect(!StatementArguments([1]).isEmpty)
        #expect(!StatementArguments(["a": 1]).isEmpty)
        #expect(StatementArguments([1, 2, 3]) == [1, 2, 3])
        #expect(StatementArguments([1, nil, "x"] as [(any DatabaseValueConvertible)?]) == [1, nil, "x"])
        #expect(StatementArguments([1, "x"] as [Any]) == [1, "x"])
        #expect(StatementArguments([1, NSObject()] as [Any]) == nil)
        #expect(
            StatementArguments(["a": 1, "b": nil] as [String: (any DatabaseValueConvertible)?]) == ["a": 1, "b": nil])
        #expect(StatementArguments([("a", 1), ("a", 2)] as [(String, (any DatabaseValueConvertible)?)]) == ["a": 2])
        #expect(StatementArguments(["a": 1] as [AnyHashable: Any]) == ["a": 1])
        #expect(StatementArguments([1: 1] as [AnyHashable: Any]) == nil)
        #expect(StatementArguments(["a": NSObject()] as [AnyHashable: Any]) == nil)
    }

    @Test func positionalArguments() throws {
        try read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ?, ?, ?, ?", arguments: [1, "two", nil, 4.5]))
            #expect(Array(row.databaseValues) == [1.databaseValue, "two".databaseValue, .null, 4.5.databaseValue])
            // Numbered parameters
            #expect(
                try Row.fetchOne(db, sql: "SELECT ?2, ?1, ?2", arguments: ["a", "b"]).map { Array($0.databaseValues) }
                == ["b".databaseValue, "a".databaseValue, "b".databaseValue])
        }
    }

    @Test(arguments: [":name", "$name", "@name"])
    func namedArguments(parameter: String) throws {
        try read { db throws in
            #expect(
                try String.fetchOne(db, sql: "SELECT \(parameter) || \(parameter)", arguments: ["name": "ab"]) == "abab"
            )
        }
    }

    @Test func namedParametersTakeNextPositionalValuesWhenNotNamed() throws {
        try read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT :a AS a, ? AS b, :c AS c", arguments: [1, 2, 3]))
            #expect(row == ["a": 1, "b": 2, "c": 3])
            var mixed: StatementArguments = [2]
            mixed += ["a": 1, "c": 3]
            #expect(
                try Row.fetchOne(db, sql: "SELECT :a AS a, ? AS b, :c AS c", arguments: mixed) == [
                    "a": 1, "b": 2, "c": 3
                ])
        }
    }

    @Test func tooFewPositionalArgumentsIsAnError() throws {
        try read { db throws in
            let error = try #require(#expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT ?, ?", arguments: [1])
            })
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == "wrong number of statement arguments: 1")
            #expect(error.sql == "SELECT ?, ?")
            #expect(error.arguments == [1])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT ?") }
        }
    }

    @Test func tooManyPositionalArgumentsIsAnError() throws {
        try read { db throws in
            let error = try #require(#expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT ?", arguments: [1, 2])
            })
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == "wrong number of statement arguments: 2")
            let executeError = try #require(#expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT ?; SELECT ?", arguments: [1, 2, 3])
            })
            #expect(executeError.message == "wrong number of statement arguments: 3")
            #expect(executeError.arguments == [1, 2, 3])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "SELECT 1", arguments: [1]) }
        }
    }

    @Test func missingNamedArgumentIsAnError() throws {
        try read { db throws in
            let error = try #require(#expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT :a, :b", arguments: ["a": 1])
            })
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == "missing statement argument: b")
            #expect(error.sql == "SELECT :a, :b")
        }
    }

    @Test func extraNamedArgumentsAreIgnored() throws {
        try read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT :a", arguments: ["a": 1, "unused": 2]) == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT :A", arguments: ["A": 3]) == 3)
        }
    }

    @Test func multipleStatementsConsumePositionalArgumentsInOrder() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE t (a, b);
                INSERT INTO t VALUES (?, ?);
                INSERT INTO t VALUES (?, :b);
                """, arguments: StatementArguments([1, 2, 3]) + ["b": 4])
            #expect(
                try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid") == [["a": 1, "b": 2], ["a": 3, "b": 4]])
        }
    }

    @Test func concatenation() {
        var arguments: StatementArguments = [1]
        arguments += [2]
        arguments += ["a": 3]
        #expect(arguments == StatementArguments([1, 2]) + ["a": 3])
        #expect((["a": 1] as StatementArguments) &+ ["a": 2] == ["a": 2])
        var appended: StatementArguments = ["a": 1, "b": 2]
        let replaced = appended.append(contentsOf: ["a": 10, "c": 3])
        #expect(replaced == ["a": 1.databaseValue])
        #expect(appended == ["a": 10, "b": 2, "c": 3])
    }

    @Test func addingTheSameNameTwiceTraps() async {
        await #expect(processExitsWith: .failure) {
            let lhs: StatementArguments = ["a": 1]
            _ = lhs + ["a": 2]
        }
    }

    @Test func equalityAndHashing() {
        #expect(StatementArguments([1, "x"]) == [1, "x"])
        #expect(StatementArguments([1, "x"]) != ["x", 1])
        #expect(StatementArguments([1]) != ["a": 1])
        #expect(Set<StatementArguments>([[1], [1], ["a": 1]]).count == 2)
    }

    @Test func description() {
        #expect(StatementArguments().description == "[]")
        #expect(StatementArguments([1, "x", nil, 1.5]).description == #"[1, "x", NULL, 1.5]"#)
        var arguments: StatementArguments = ["b": 2, "a": "x"]
        arguments += [3]
        #expect(arguments.description == #"["a": "x", "b": 2, 3]"#)
    }

    @Test func everyConvertibleTypeIsAnArgument() throws {
        try read { db throws in
            let date = Date(timeIntervalSince1970: 0)
            let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            let row = try #require(try Row.fetchOne(
                db, sql: "SELECT typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), typeof(?)",
                arguments: [Int8(1), UInt32(2), true, Float(1.5), date, uuid, Data()]))
            #expect(row.databaseValues.map { String.fromDatabaseValue($0) }
                == ["integer", "integer", "integer", "real", "text", "blob", "blob"])
        }
    }
}
