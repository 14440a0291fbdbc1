import Dispatch
import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing
import TestSupport

/// The `async` accesses run their closure inside the calling task: it sees
/// the task's task-local values, and the task's cancellation cancels the
/// access with `CancellationError`, as in GRDB.
@Suite struct AsyncAccessTests {
    @TaskLocal static var marker = "none"

    /// The `async` accesses, each on a new writer of its kind.
    enum Access: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case read, unsafeRead, write, writeWithoutTransaction, barrierWriteWithoutTransaction

        var testDescription: String { rawValue }

        var writes: Bool {
            switch self {
            case .read, .unsafeRead: false
            default: true
            }
        }

        func run<T: Sendable>(_ writer: any DatabaseWriter, _ body: @escaping @Sendable (Database) throws -> T)
            async throws -> T
        {
            switch self {
            case .read: try await writer.read(body)
            case .unsafeRead: try await writer.unsafeRead(body)
            case .write: try await writer.write(body)
            case .writeWithoutTransaction: try await writer.writeWithoutTransaction(body)
            case .barrierWriteWithoutTransaction: try await writer.barrierWriteWithoutTransaction(body)
            }
        }
    }

    /// A writer with a table `t` of one row.
    static func makeWriter(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
        let writer = try kind.make(directory)
        try blocking {
            try writer.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        }
        return writer
    }

    static func cancelCurrentTask() {
        withUnsafeCurrentTask { $0!.cancel() }
    }

    /// The access still works after a cancelled one, and the table has
    /// `count` rows (its first only, by default).
    static func expectUsable(_ writer: any DatabaseWriter, _ access: Access, count expected: Int = 1) async throws {
        let count = try await access.run(writer) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == expected)
    }

    @Test(arguments: WriterKind.allCases, Access.allCases)
    func closureSeesTaskLocals(_ kind: WriterKind, _ access: Access) async throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.makeWriter(kind, directory)
        let seen = try await Self.$marker.withValue("in task") {
            try await access.run(writer) { _ in (Self.marker, Task.isCancelled) }
        }
        #expect(seen == ("in task", false))
    }

    @Test(arguments: WriterKind.allCases, Access.allCases)
    func cancelledBeforeTheAccessItDoesNotRun(_ kind: WriterKind, _ access: Access) async throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.makeWriter(kind, directory)
        let ran = LockedValue(false)
        let task = Task {
            Self.cancelCurrentTask()
            try await access.run(writer) { _ in ran.update { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.value)
        try await Self.expectUsable(writer, access)
    }

    @Test(arguments: WriterKind.allCases, Access.allCases)
    func statementsAfterCancellationThrowAndWritesRollBack(_ kind: WriterKind, _ access: Access) async throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.makeWriter(kind, directory)
        let reachedEnd = LockedValue(false)
        let task = Task {
            try await access.run(writer) { db in
                if access.writes { try db.execute(sql: "INSERT INTO t VALUES (2)") }
                Self.cancelCurrentTask()
                #expect(Task.isCancelled)
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
                reachedEnd.update { $0 = true }
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!reachedEnd.value)
        if access == .write {
            // The transaction rolled back.
            try await Self.expectUsable(writer, access)
        } else {
            let count = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
            #expect(count == (access.writes ? 2 : 1))
        }
    }

    @Test(arguments: WriterKind.allCases, Access.allCases)
    func cancellationWithoutStatementsAfterwards(_ kind: WriterKind, _ access: Access) async throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.makeWriter(kind, directory)
        let task = Task {
            try await access.run(writer) { db in
                if access.writes { try db.execute(sql: "INSERT INTO t VALUES (2)") }
                Self.cancelCurrentTask()
                return 42
            }
        }
        if access == .write {
            // The commit is a statement: it fails, and the insert rolls back.
            await #expect(throws: CancellationError.self) { try await task.value }
        } else {
            // Reads end their transaction whatever happens.
            #expect(try await task.value == 42)
        }
        let count = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == (access.writes && access != .write ? 2 : 1))
        try await Self.expectUsable(writer, .write, count: count!)
    }

    @Test(arguments: WriterKind.allCases, Access.allCases)
    func cursorIterationIsInterrupted(_ kind: WriterKind, _ access: Access) async throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.makeWriter(kind, directory)
        let task = Task {
            try await access.run(writer) { db in
                let cursor = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2")
                _ = try cursor.next()
                Self.cancelCurrentTask()
                return try cursor.next()
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try await Self.expectUsable(writer, access)
    }

    /// A cancellation from another thread interrupts the running statement.
    @Test(arguments: WriterKind.allCases, [Access.read, .write])
    func cancellationInterruptsTheRunningStatement(_ kind: WriterKind, _ access: Access) async throws {
        let directory = try TemporaryDirectory()
        let writer = try Self.makeWriter(kind, directory)
        let started = DispatchSemaphore(value: 0)
        let task = Task {
            try await access.run(writer) { db in
                db.add(function: DatabaseFunction("started", argumentCount: 0) { _ in
                    started.signal()
                    return 0
                })
                // Runs until it is interrupted.
                return try Int.fetchOne(db, sql: """
                    WITH RECURSIVE n(i) AS (SELECT started() UNION ALL SELECT i + 1 FROM n)
                    SELECT COUNT(*) FROM n
                    """)
            }
        }
        try await onThread { try started.waitOrThrow("the statement to start") }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await Self.expectUsable(writer, access)
    }

    /// A pool's read cancelled while it waits for a reader never runs.
    @Test func poolReadCancelledWhileWaitingForAReader() async throws {
        let directory = try TemporaryDirectory()
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let pool = try DatabasePool(path: directory.path("db.sqlite"), configuration: configuration)
        try blocking { try pool.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") } }
        let readerTaken = DispatchSemaphore(value: 0)
        let releaseReader = DispatchSemaphore(value: 0)
        let blocker = Task.detached {
            try await onThread {
                try pool.read { _ in
                    readerTaken.signal()
                    try releaseReader.waitOrThrow("the waiting read to be cancelled")
                }
            }
        }
        try await onThread { try readerTaken.waitOrThrow("the only reader to be taken") }
        let ran = LockedValue(false)
        let task = Task { try await pool.read { _ in ran.update { $0 = true } } }
        task.cancel()
        releaseReader.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        try await blocker.value
        #expect(!ran.value)
        try await Self.expectUsable(pool, .read)
    }

    /// `interrupt()` still throws `SQLITE_INTERRUPT`: only a cancelled task
    /// gets `CancellationError`.
    @Test func interruptionWithoutCancellationIsADatabaseError() async throws {
        let dbQueue = try DatabaseQueue()
        let error = await #expect(throws: DatabaseError.self) {
            try await dbQueue.read { db in
                let cursor = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2")
                _ = try cursor.next()
                db.interrupt()
                return try cursor.next()
            }
        }
        #expect(error?.resultCode == .SQLITE_INTERRUPT)
    }

    /// Once a write commits, its transaction observers run even if the
    /// task is cancelled meanwhile (GRDB's issue 1746: a ValueObservation
    /// fetches its new value there).
    @Test(arguments: WriterKind.allCases)
    func observersAfterCommitIgnoreCancellation(_ kind: WriterKind) async throws {
        final class CancellingObserver: TransactionObserver, @unchecked Sendable {
            // @unchecked Sendable: used on the writer's queue only.
            var countAfterCommit: Int?
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { }
            func databaseDidRollback(_ db: Database) { }
            func databaseDidCommit(_ db: Database) {
                AsyncAccessTests.cancelCurrentTask()
                countAfterCommit = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
            }
        }
        let directory = try TemporaryDirectory()
        let writer = try Self.makeWriter(kind, directory)
        let observer = CancellingObserver()
        writer.add(transactionObserver: observer, extent: .observerLifetime)
        let task = Task {
            try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        try await task.value
        #expect(observer.countAfterCommit == 2)
    }
}
