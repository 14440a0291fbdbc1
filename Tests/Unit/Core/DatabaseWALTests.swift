import Dispatch
import Foundation
import GRDBLite
import Testing
import TestSupport

/// WAL checkpoints (`Database.checkpoint(_:on:)`), on a pool's writer.
@Suite struct DatabaseWALTests {
    private static func walSize(_ dbPool: DatabasePool) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: dbPool.path + "-wal")[.size] as? Int ?? -1
    }

    @Test(arguments: [Database.CheckpointMode.passive, .full, .restart, .truncate])
    func aCheckpointCopiesTheWAL(mode: Database.CheckpointMode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let frames = try dbPool.writeWithoutTransaction { try $0.checkpoint(mode) }
        if mode == .truncate {
            #expect(frames.walFrameCount == 0)
            #expect(try Self.walSize(dbPool) == 0)
        } else {
            #expect(frames.walFrameCount > 0)
            #expect(frames.checkpointedFrameCount == frames.walFrameCount)
        }
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }

    /// A read in progress keeps a `truncate` checkpoint from completing:
    /// `SQLITE_BUSY`, then the pool goes on, and the checkpoint succeeds
    /// once the read is over.
    @Test func aRunningReadMakesATruncateCheckpointBusy() async throws {
        try await onThread {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let dbPool = try DatabasePool(path: directory.path())
            try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
            let reading = DispatchSemaphore(value: 0)
            let checked = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    try dbPool.read { db in
                        _ = try Int.fetchOne(db, sql: "SELECT a FROM t")
                        reading.signal()
                        try checked.waitOrThrow()
                        try check(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 1, "the read goes on")
                    }
                },
                {
                    defer { checked.signal() }
                    try reading.waitOrThrow()
                    try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
                    do {
                        try dbPool.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
                        throw StepFailure("a truncate checkpoint completed during a read")
                    } catch let error as DatabaseError {
                        try check(error.resultCode == .SQLITE_BUSY, "\(error)")
                        try check(error.message == "database is locked", "\(error)")
                    }
                },
            ])
            try dbPool.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
            try dbPool.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
            try check(try Self.walSize(dbPool) == 0, "truncated")
            try check(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3, "every row")
        }
    }

    /// Without WAL, a checkpoint does nothing.
    @Test func aCheckpointWithoutWALDoesNothing() throws {
        let dbQueue = try DatabaseQueue()
        let frames = try dbQueue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        #expect(frames.walFrameCount == -1)
        #expect(frames.checkpointedFrameCount == -1)
    }

    @Test func aCheckpointInsideATransactionIsAnError() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE t (a)")
                try db.checkpoint()
            }
        }
        #expect(error?.resultCode == .SQLITE_LOCKED, "\(String(describing: error))")
        #expect(try dbPool.read { try $0.tableExists("t") } == false)
    }
}
