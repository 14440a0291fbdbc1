import Foundation
import GRDBLite
import Testing

/// Programmer errors trap with a message that says what went wrong,
/// instead of corrupting memory or deadlocking: a cursor or a `Database`
/// used outside of its access block, reentrant access, a queue used after
/// `close()`, a non-optional read of NULL, an unsigned integer SQLite
/// can't store. (Swift Testing exit tests: each runs in a child process.)
@Suite struct MisuseTrapTests {
    private static func stderr(_ result: ExitTest.Result?) -> String {
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }

    @Test func cursorUsedAfterItsAccess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let cursor = try dbQueue.read { try Int.fetchCursor($0, sql: "SELECT 1 UNION ALL SELECT 2") }
            _ = try cursor.next()
        }
        #expect(Self.stderr(result).contains("A database cursor was used outside of its database access"))
    }

    @Test func databaseUsedAfterItsAccess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let db = dbQueue.inDatabase { $0 }
            try db.execute(sql: "CREATE TABLE t (id INTEGER)")
        }
        #expect(Self.stderr(result).contains("A database connection was used outside of its database access"))
    }

    @Test func statementUsedAfterItsAccess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let statement = try dbQueue.inDatabase { try $0.makeStatement(sql: "SELECT 1") }
            _ = try Int.fetchAll(statement)
        }
        #expect(Self.stderr(result).contains("was used outside of its database access"))
    }

    @Test func databaseUsedFromAnotherThreadDuringItsAccess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                nonisolated(unsafe) let db = db
                let thread = Thread { try? db.execute(sql: "CREATE TABLE t (id INTEGER)") }
                thread.start()
                while true { sched_yield() } // the other thread traps
            }
        }
        #expect(Self.stderr(result).contains("on that closure's thread"))
    }

    @Test func reentrantAccess() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { _ in
                _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") }
            }
        }
        #expect(Self.stderr(result).contains("Database methods are not reentrant"))
    }

    @Test func reentrantAccessThroughAnotherMethod() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inDatabase { _ in
                try dbQueue.inTransaction { _ in .commit }
            }
        }
        #expect(Self.stderr(result).contains("Database methods are not reentrant"))
    }

    @Test func reentrantAccessThroughAnotherQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = try DatabaseQueue()
            let b = try DatabaseQueue()
            try a.write { _ in
                try b.write { _ in
                    _ = try a.read { try Int.fetchOne($0, sql: "SELECT 1") }
                }
            }
        }
        #expect(Self.stderr(result).contains("Database methods are not reentrant"))
    }

    @Test func nonOptionalReadOfNull() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db in
                let row = try Row.fetchOne(db, sql: "SELECT NULL AS score")!
                let score: Int = row["score"]
                _ = score
            }
        }
        #expect(Self.stderr(result).contains(#"could not decode Int from database value NULL - column: "score""#))
    }

    @Test func unsignedIntegerTooLargeForSQLite() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t (v INTEGER)")
                try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [UInt64.max])
            }
        }
        #expect(
            Self.stderr(result).contains(
                "UInt64 value 18446744073709551615 can't be stored in SQLite: it exceeds Int64.max"))
    }

    /// The reentrancy check does not forbid using another queue inside an
    /// access (the busy tests rely on it).
    @Test func anotherQueueInsideAnAccessIsFine() throws {
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        let value = try first.read { _ in try second.read { try Int.fetchOne($0, sql: "SELECT 42") } }
        #expect(value == 42)
    }
}
