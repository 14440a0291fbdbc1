import Foundation
import Testing
import GRDBLite

@Suite struct AsyncTests {
    @Test func asyncReadAndWrite() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 1)
        let inTransaction = try await dbQueue.write { db in db.isInsideTransaction }
        #expect(inTransaction)
        let outside = try await dbQueue.writeWithoutTransaction { db in db.isInsideTransaction }
        #expect(!outside)
    }

    @Test func manyTasksWriteAndReadConcurrently() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (task INTEGER, total INTEGER)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<100 {
                group.addTask {
                    try await dbQueue.write { db in
                        // Reading then writing in one transaction: no lost update.
                        let total = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(total), 0) FROM t")!
                        try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [task, total + 1])
                    }
                }
                group.addTask {
                    let (count, max) = try await dbQueue.read { db in
                        (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!,
                         try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(total), 0) FROM t")!)
                    }
                    // Reads see whole transactions only.
                    #expect(count == max)
                }
            }
            try await group.waitForAll()
        }
        let (count, total, tasks) = try await dbQueue.read { db in
            (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!,
             try Int.fetchOne(db, sql: "SELECT MAX(total) FROM t")!,
             try Set(Int.fetchAll(db, sql: "SELECT task FROM t")))
        }
        #expect(count == 100)
        #expect(total == 100)
        #expect(tasks == Set(0..<100))
    }

    @Test func asyncWriteRollsBackOnError() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        await #expect(throws: CoreTestError.self) {
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw CoreTestError()
            }
        }
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 0)
    }

    @Test func asyncReadIsReadOnly() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        let error = await #expect(throws: DatabaseError.self) {
            try await dbQueue.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    @Test func asyncAndSyncAccessesInterleave() async throws {
        let dbQueue = try DatabaseQueue()
        // In an async context, `write` is the async method: call the
        // blocking one from a synchronous function.
        @Sendable func blockingInsert(_ value: Int) throws {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value]) }
        }
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask {
                    if i.isMultiple(of: 2) {
                        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i])
                        }
                    } else {
                        try blockingInsert(i)
                    }
                }
            }
            try await group.waitForAll()
        }
        let values = try await dbQueue.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") }
        #expect(values == Array(0..<20))
    }
}
