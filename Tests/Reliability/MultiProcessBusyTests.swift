import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing
import TestSupport

/// Another process holds a write transaction (`grdblite-crash-writer
/// hold`): with the immediate busy mode a write fails with `SQLITE_BUSY`,
/// with a timeout it waits for the other process's commit and succeeds.
/// Nothing is lost either way.
@Suite struct MultiProcessBusyTests {
    private func configuration(_ mode: String) -> Configuration {
        var config = Configuration()
        config.journalMode = mode == "wal" ? .wal : .default
        return config
    }

    private func names(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { try String.fetchAll($0, sql: "SELECT who FROM t ORDER BY rowid") }
    }

    @Test(arguments: ["rollback", "wal"])
    func immediateModeFailsWhileAnotherProcessWrites(mode: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(mode))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (who TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO t (who) VALUES ('before')")
        }

        let child = try ChildProcess(["hold", path, mode])
        try child.expectLine("locked")
        do {
            try dbQueue.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('during')") }
            Issue.record("expected SQLITE_BUSY")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_BUSY)
            #expect(error.message == "database is locked")
            #expect(error.sql == "BEGIN IMMEDIATE TRANSACTION")
        }
        // Reads see the last committed state.
        #expect(try names(dbQueue) == ["before"])

        child.send("commit")
        try child.expectLine("committed")
        #expect(child.waitForExit() == 0)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('after')") }
        #expect(try names(dbQueue) == ["before", "child", "after"])
    }

    /// The trace of the waiting queue tells the child to commit when the
    /// waiting `BEGIN IMMEDIATE` starts; the write then waits for the lock.
    @Test(arguments: ["rollback", "wal"])
    func timeoutModeWaitsForAnotherProcess(mode: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let setup = try DatabaseQueue(path: path, configuration: configuration(mode))
        try setup.write { try $0.execute(sql: "CREATE TABLE t (who TEXT NOT NULL)") }

        let child = try ChildProcess(["hold", path, mode])
        try child.expectLine("locked")
        let childInput = ChildInput(child)
        var config = configuration(mode)
        config.busyMode = .timeout(60)
        config.trace = { sql in
            if sql == "BEGIN IMMEDIATE TRANSACTION" { childInput.send("commit") }
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('parent')") }
        try child.expectLine("committed")
        #expect(child.waitForExit() == 0)
        #expect(try names(dbQueue) == ["child", "parent"])
    }
}

/// Sends a line to a child once, from any thread.
private final class ChildInput: @unchecked Sendable {
    private let input: FileHandle
    private let lock = NSLock()
    private var isSent = false

    init(_ child: ChildProcess) {
        input = child.input
    }

    func send(_ line: String) {
        let wasSent = lock.withLock { defer { isSent = true }; return isSent }
        if wasSent { return }
        input.write(Data((line + "\n").utf8))
    }
}
