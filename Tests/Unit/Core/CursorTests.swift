import Foundation
import Testing
import GRDBLite
import TestSupport

@Suite struct CursorTests {
    /// 1...5, as a database cursor.
    private static let sql =
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 5) SELECT x FROM n"

    private func withNumbers<T>(_ body: (DatabaseValueCursor<Int64>.Type, Database) throws -> T) throws -> T {
        try DatabaseQueue().read { db throws in try body(DatabaseValueCursor<Int64>.self, db) }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        try DatabaseQueue().read(body)
    }

    /// GRDB's `DatabaseCursor.next()` is a default built on its internals;
    /// each GRDBLite cursor has its own, which generic code calls the same.
    @Test func databaseCursorsHaveTheirOwnNext() throws {
        func first<C: DatabaseCursor>(_ cursor: C) throws -> C.Element? { try cursor.next() }
        try read { db throws in
            #expect(try first(Int.fetchCursor(db, sql: Self.sql)) == 1)
            #expect(try first(DatabaseValue.fetchCursor(db, sql: Self.sql)) == 1.databaseValue)
            let rows = try Row.fetchCursor(db, sql: Self.sql)
            try withExtendedLifetime(rows) { () throws in
                #expect(try first(rows).map { $0["x"] as Int } == 1)
            }
        }
    }

    @Test func nextReturnsNilAfterTheEndAndKeepsReturningNil() throws {
        try read { db throws in
            let cursor = try Int.fetchCursor(db, sql: Self.sql)
            var values: [Int] = []
            while let value = try cursor.next() { values.append(value) }
            #expect(values == [1, 2, 3, 4, 5])
            #expect(try cursor.next() == nil)
            #expect(try cursor.next() == nil)
        }
    }

    /// A value read through `DatabaseValueCursor` (not a fast column type).
    private struct Number: DatabaseValueConvertible {
        var value: Int64
        var databaseValue: DatabaseValue { value.databaseValue }
        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Number? {
            Int64.fromDatabaseValue(dbValue).map(Number.init)
        }
    }

    private struct NumberRecord: FetchableRecord {
        var value: Int64
        init(row: Row) throws { value = try row.decode(Int64.self, atIndex: 0) }
    }

    /// A cursor whose step failed throws the error again at each `next()`:
    /// it never looks finished, so that nobody takes a failed iteration
    /// for a complete one (rows, values, fast values, records).
    @Test(arguments: ["row", "value", "fast value", "record"])
    func aFailedStepThrowsAgain(kind: String) throws {
        try read { db throws in
            db.add(function: DatabaseFunction("failAfterOne", argumentCount: 1, pure: true) { dbValues in
                guard let x = Int64.fromDatabaseValue(dbValues[0]), x < 2 else {
                    throw DatabaseError(message: "failAfterOne")
                }
                return x
            })
            let sql = "SELECT failAfterOne(x) FROM (\(Self.sql))"
            let next: () throws -> Int64?
            switch kind {
            case "row":
                let cursor = try Row.fetchCursor(db, sql: sql)
                next = { try cursor.next().map { $0[0] } }
            case "value":
                let cursor = try Number.fetchCursor(db, sql: sql)
                next = { try cursor.next()?.value }
            case "fast value":
                let cursor = try Int64.fetchCursor(db, sql: sql)
                next = { try cursor.next() }
            default:
                let cursor = try NumberRecord.fetchCursor(db, sql: sql)
                next = { try cursor.next()?.value }
            }
            #expect(try next() == 1)
            for _ in 0..<2 {
                let error = #expect(throws: DatabaseError.self) { try next() }
                #expect(error?.message == "failAfterOne")
            }
        }
    }

    @Test func forEach() throws {
        try read { db throws in
            var values: [Int] = []
            try Int.fetchCursor(db, sql: Self.sql).forEach { values.append($0) }
            #expect(values == [1, 2, 3, 4, 5])
            let error = #expect(throws: CoreTestError.self) {
                try Int.fetchCursor(db, sql: Self.sql).forEach { if $0 == 2 { throw CoreTestError() } }
            }
            #expect(error == CoreTestError())
        }
    }

    @Test func mapFilterCompactMap() throws {
        try read { db throws in
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).map { $0 * 10 }) == [10, 20, 30, 40, 50])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).filter { $0 % 2 == 1 }) == [1, 3, 5])
            #expect(
                try Array(Int.fetchCursor(db, sql: Self.sql).compactMap { $0 % 2 == 0 ? "\($0)" : nil }) == ["2", "4"])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).map { $0 }.filter { $0 > 3 }.map { -$0 }) == [-4, -5])
            #expect(throws: CoreTestError.self) {
                try Array(Int.fetchCursor(db, sql: Self.sql).map { _ -> Int in throw CoreTestError() })
            }
        }
    }

    @Test func prefixAndDrop() throws {
        try read { db throws in
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).prefix(2)) == [1, 2])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).prefix(0)) == [])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).prefix(10)) == [1, 2, 3, 4, 5])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).prefix(while: { $0 < 3 })) == [1, 2])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).dropFirst(3)) == [4, 5])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).dropFirst()) == [2, 3, 4, 5])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).dropFirst(9)) == [])
            let enumerated = try Array(Int.fetchCursor(db, sql: Self.sql).enumerated())
            #expect(enumerated.map(\.0) == [0, 1, 2, 3, 4])
            #expect(enumerated.map(\.1) == [1, 2, 3, 4, 5])
        }
    }

    @Test func prefixStopsStepping() throws {
        try read { db throws in
            // A prefix does not read more rows than it returns.
            let base = try Int.fetchCursor(db, sql: Self.sql)
            let prefix = base.prefix(2)
            #expect(try Array(prefix) == [1, 2])
            #expect(try base.next() == 3)
        }
    }

    @Test func reduce() throws {
        try read { db throws in
            #expect(try Int.fetchCursor(db, sql: Self.sql).reduce(0, +) == 15)
            #expect(
                try Int.fetchCursor(db, sql: Self.sql).reduce(into: [Int]()) { $0.insert($1, at: 0) } == [5, 4, 3, 2, 1]
            )
        }
    }

    @Test func containsAndFirstStopAtTheMatch() throws {
        try read { db throws in
            let cursor = try Int.fetchCursor(db, sql: Self.sql)
            #expect(try cursor.contains(2))
            #expect(try cursor.next() == 3, "contains consumed only up to the match")
            #expect(try !Int.fetchCursor(db, sql: Self.sql).contains(9))
            #expect(try Int.fetchCursor(db, sql: Self.sql).contains { $0 > 4 })
            let cursor2 = try Int.fetchCursor(db, sql: Self.sql)
            #expect(try cursor2.first { $0 % 2 == 0 } == 2)
            #expect(try cursor2.next() == 3)
            #expect(try Int.fetchCursor(db, sql: Self.sql).first { $0 > 9 } == nil)
        }
    }

    @Test func minAndMax() throws {
        try read { db throws in
            let sql = "SELECT column1 FROM (VALUES (3), (1), (4), (1), (5), (9), (2), (6))"
            #expect(try Int.fetchCursor(db, sql: sql).min() == 1)
            #expect(try Int.fetchCursor(db, sql: sql).max() == 9)
            #expect(try Int.fetchCursor(db, sql: sql).min(by: >) == 9)
            #expect(try Int.fetchCursor(db, sql: sql).max(by: >) == 1)
            #expect(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").min() == nil)
            #expect(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").max() == nil)
        }
    }

    @Test func arraySetDictionaryAndJoined() throws {
        try read { db throws in
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql)) == [1, 2, 3, 4, 5])
            #expect(try Set(Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 1 UNION ALL SELECT 2")) == [1, 2])
            let grouped = try Dictionary(grouping: Int.fetchCursor(db, sql: Self.sql), by: { $0 % 2 })
            #expect(grouped == [0: [2, 4], 1: [1, 3, 5]])
            let unique = try Dictionary(uniqueKeysWithValues: Int.fetchCursor(db, sql: Self.sql).map { ($0, "\($0)") })
            #expect(unique[3] == "3")
            #expect(try String.fetchCursor(db, sql: "SELECT 'a' UNION ALL SELECT 'b'").joined(separator: "-") == "a-b")
            #expect(try !Int.fetchCursor(db, sql: Self.sql).isEmpty)
            #expect(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").isEmpty)
        }
    }

    @Test func anyCursor() throws {
        #expect(try Array(AnyCursor([1, 2, 3])) == [1, 2, 3])
        var count = 0
        let closureCursor = AnyCursor { () -> Int? in
            count += 1
            return count <= 2 ? count : nil
        }
        #expect(try Array(closureCursor) == [1, 2])
        try read { db throws in
            let wrapped = AnyCursor(try Int.fetchCursor(db, sql: Self.sql))
            #expect(try Array(wrapped) == [1, 2, 3, 4, 5])
        }
    }

    @Test func liveRowsChangeAsTheCursorMoves() throws {
        try read { db throws in
            let cursor = try Row.fetchCursor(db, sql: Self.sql)
            let first = try #require(try cursor.next())
            #expect(first[0] as Int == 1)
            let second = try #require(try cursor.next())
            #expect(first === second, "a cursor has a single row")
            #expect(first[0] as Int == 2)
            // Copies and arrays keep their values.
            let copy = second.copy()
            _ = try cursor.next()
            #expect(second[0] as Int == 3)
            #expect(copy[0] as Int == 2)
        }
    }

    @Test func fetchAllCopiesRows() throws {
        try read { db throws in
            let rows = try Row.fetchAll(db, sql: Self.sql)
            #expect(rows.map { $0[0] as Int } == [1, 2, 3, 4, 5])
            #expect(Set(rows.map(ObjectIdentifier.init)).count == 5)
            let set = try Row.fetchSet(db, sql: "SELECT 1 AS a UNION ALL SELECT 1 UNION ALL SELECT 2")
            #expect(set == [["a": 1], ["a": 2]])
        }
    }

    @Test func fetchAllOfAnArrayOfCursorRowsKeepsTheLastValue() throws {
        try read { db throws in
            // Array(cursor) of rows holds one row, many times: the documented
            // reason to use fetchAll.
            let rows = try Array(Row.fetchCursor(db, sql: "SELECT 1 AS a UNION ALL SELECT 2"))
            #expect(rows.count == 2)
            #expect(rows[0] === rows[1])
        }
    }

    @Test func cursorsDescribeTheirStatement() throws {
        try read { db throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT ? AS a, 2 AS b ", arguments: [1])
            #expect(cursor.sql == "SELECT ? AS a, 2 AS b")
            #expect(cursor.arguments == [1])
            #expect(cursor.columnNames == ["a", "b"])
            #expect(cursor.columnCount == 2)
        }
    }

    @Test func errorsDuringIterationAreThrown() throws {
        try read { db throws in
            db.add(function: DatabaseFunction("failOn3", argumentCount: 1) { values in
                if Int.fromDatabaseValue(values[0]) == 3 { throw CoreTestError(message: "three") }
                return values[0]
            })
            let cursor = try Int.fetchCursor(db, sql: "SELECT failOn3(x) FROM (\(Self.sql))")
            #expect(try cursor.next() == 1)
            #expect(try cursor.next() == 2)
            let error = #expect(throws: DatabaseError.self) { try cursor.next() }
            #expect(error?.message == "three")
            #expect(throws: DatabaseError.self, "a failed cursor throws again") { try cursor.next() }
        }
    }

    /// As GRDB: the statement runs, and gives no value.
    @Test func valueCursorOfAStatementWithoutColumnsRunsIt() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)")
            #expect(try Int.fetchOne(db, sql: "DELETE FROM t WHERE a = 1") == nil)
            #expect(try String.fetchAll(db, sql: "DELETE FROM t") == [])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    /// `fetchOne` of a value reads the first row without a cursor: as the
    /// cursor would, with the same errors, and the statement left reset.
    @Test func fetchOneOfAValueReadsAsACursor() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try DatabaseQueue(path: directory.path())
        let other = try DatabaseQueue(path: directory.path())
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, a)")
            // A statement that writes runs to completion.
            #expect(try Int.fetchOne(db, sql: "INSERT INTO t (a) VALUES (1), (NULL), ('x') RETURNING id") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 3)
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM t WHERE id = 2") == nil) // NULL
            #expect(try Int.fetchOne(db, sql: "SELECT a FROM t WHERE id = 4") == nil) // no row
            // A value that does not convert: the cursor's error.
            let sql = "SELECT a FROM t WHERE id = 3"
            let error = #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: sql) }
            let cursorError = #expect(throws: RowDecodingError.self) { try Date?.fetchCursor(db, sql: sql).next() }
            #expect(error.map { "\($0)" } == cursorError.map { "\($0)" })
            // A missing argument, a failed step.
            let statement = try db.makeStatement(sql: "SELECT a FROM t WHERE id = ?")
            #expect(throws: DatabaseError.self) { try Int.fetchOne(statement) }
            #expect(try Int.fetchOne(statement, arguments: [1]) == 1)
            let failure = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT abs(-9223372036854775807 - 1)")
            }
            #expect(failure?.message == "integer overflow")
        }
        // The statement of a fetchOne holds no read lock once it returns.
        try dbQueue.inDatabase { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM t") == 1)
            try other.write { db throws in try db.execute(sql: "DROP TABLE t") }
        }
    }

    @Test func abandonedCursorReleasesItsReadLock() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = try DatabaseQueue(path: directory.path())
        let reader = try DatabaseQueue(path: directory.path())
        try writer.write { db throws in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)") }
        try reader.inDatabase { db throws in
            let cursor = try Int.fetchCursor(db, sql: "SELECT a FROM t")
            #expect(try cursor.next() == 1)
            // The cursor is released here, before its end.
        }
        // No read lock is left: the writer can commit.
        try writer.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3)
    }

    /// A cursor that only supports `forEach`: its `next()` is a failure.
    private final class ForEachOnlyCursor: Cursor {
        let elements: [Int]
        var nextCalls = 0
        init(_ elements: [Int]) { self.elements = elements }
        func next() -> Int? {
            nextCalls += 1
            return nil
        }
        func forEach(_ body: (Int) throws -> Void) throws {
            for element in elements { try body(element) }
        }
    }

    @Test func adaptersAndCollectionsIterateTheBaseWithForEach() throws {
        let base = ForEachOnlyCursor([1, 2, 3, 4])
        #expect(try Array(base.map { $0 * 10 }) == [10, 20, 30, 40])
        #expect(try Array(base.filter { $0 % 2 == 0 }) == [2, 4])
        #expect(try Array(base.compactMap { $0 > 2 ? $0 : nil }) == [3, 4])
        let enumerated = try Array(base.enumerated())
        #expect(enumerated.map(\.0) == [0, 1, 2, 3])
        #expect(enumerated.map(\.1) == [1, 2, 3, 4])
        #expect(try Set(base) == [1, 2, 3, 4])
        #expect(try Set(base, minimumCapacity: 10) == [1, 2, 3, 4])
        #expect(try ContiguousArray(base, minimumCapacity: 10) == [1, 2, 3, 4])
        #expect(try Dictionary(grouping: base, by: { $0 % 2 }) == [0: [2, 4], 1: [1, 3]])
        let pairs = base.map { (value: Int) -> (Int, Int) in (value, value * 10) }
        #expect(try Dictionary(minimumCapacity: 4, uniqueKeysWithValues: pairs) == [1: 10, 2: 20, 3: 30, 4: 40])
        #expect(try Array(AnyCursor(base)) == [1, 2, 3, 4])
        #expect(try base.suffix(2) == [3, 4])
        #expect(try Set([0]).union(base) == [0, 1, 2, 3, 4])
        #expect(base.nextCalls == 0)
    }

    @Test func dropWhileDropLastAndSuffix() throws {
        try read { db throws in
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).drop(while: { $0 < 3 })) == [3, 4, 5])
            #expect(try Array(Int.fetchCursor(db, sql: Self.sql).drop(while: { _ in true })) == [])
            #expect(try Int.fetchCursor(db, sql: Self.sql).dropLast(2) == [1, 2, 3])
            #expect(try Int.fetchCursor(db, sql: Self.sql).dropLast() == [1, 2, 3, 4])
            #expect(try Int.fetchCursor(db, sql: Self.sql).dropLast(9) == [])
            #expect(try Int.fetchCursor(db, sql: Self.sql).suffix(2) == [4, 5])
            #expect(try Int.fetchCursor(db, sql: Self.sql).suffix(3) == [3, 4, 5])
            #expect(try Int.fetchCursor(db, sql: Self.sql).suffix(0) == [])
            #expect(try Int.fetchCursor(db, sql: Self.sql).suffix(9) == [1, 2, 3, 4, 5])
        }
        // The predicate of drop(while:) is not called once it failed.
        var calls = 0
        let dropped = AnyCursor([1, 5, 1]).drop(while: { calls += 1; return $0 < 3 })
        #expect(try Array(dropped) == [5, 1])
        #expect(calls == 2)
    }

    @Test func flatMapAndJoined() throws {
        #expect(try Array(AnyCursor([1, 2]).flatMap { [$0, $0 * 10] }) == [1, 10, 2, 20])
        #expect(try Array(AnyCursor([1, 2]).flatMap { AnyCursor([$0, $0 * 10]) }) == [1, 10, 2, 20])
        #expect(try Array([1, 2].flatMap { AnyCursor([$0, $0 * 10]) }) == [1, 10, 2, 20])
        #expect(try Array(AnyCursor([[1], [], [2, 3]]).joined()) == [1, 2, 3])
        #expect(try Array(AnyCursor([AnyCursor([1]), AnyCursor([]), AnyCursor([2])]).joined()) == [1, 2])
        let flattened = AnyCursor([[1]]).joined()
        #expect(try flattened.next() == 1)
        #expect(try flattened.next() == nil)
        #expect(try flattened.next() == nil)
        try read { db throws in
            let cursor = try Int.fetchCursor(db, sql: Self.sql).flatMap { [$0, $0] }.prefix(3)
            #expect(try Array(cursor) == [1, 1, 2])
        }
    }

    @Test func anyCursorFromAnIterator() throws {
        let cursor = AnyCursor(iterator: [1, 2].makeIterator())
        #expect(try cursor.next() == 1)
        #expect(try cursor.next() == 2)
        #expect(try cursor.next() == nil)
        #expect(try cursor.next() == nil)
    }
}
