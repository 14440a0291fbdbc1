import Dispatch
import Foundation
import GRDBLite
import PropertyBased
import Testing
import TestSupport

/// Random interleavings of reads and writes on a `DatabasePool`, against
/// `PoolModel`: reads held open across commits (on reader threads, spawned
/// by `asyncConcurrentRead`, inside the writer's transaction, through
/// snapshots), `unsafeRead`s, commits, rollbacks, failing statements and
/// checkpoints. Every value a read returns is the committed state its
/// isolation says, so states appear in commit order and never partially.
///
/// Each actor (the writer, each reader, each spawned read) runs on a thread
/// of its own and holds its access open between its steps; the test runs
/// the steps one at a time, in the script's order, so that a seed replays
/// the same interleaving.
@Suite struct PoolIsolationTests {
    @Test func readsSeeCommittedStatesInOrder() async {
        await checkProperty(count: 150, input: PoolGenerators.script) { script in
            let actual = try await Self.run(script)
            expectSameLog(actual, PoolModel.log(script))
        }
    }

    /// Runs the script on a new pool, on threads: the test's task must not
    /// block on semaphores.
    private static func run(_ script: PoolScript) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try PoolRun(script).run() }) }.start()
        }
    }
}

/// One run of a script.
private final class PoolRun {
    let script: PoolScript
    let directory: TemporaryDirectory
    let dbPool: DatabasePool
    let writer = Mailbox()
    let readers = (0..<PoolScript.readerCount).map { _ in Mailbox() }
    let spawned = (0..<PoolScript.spawnCount).map { _ in Mailbox() }
    var snapshots: [Int: DatabaseSnapshot] = [:]

    init(_ script: PoolScript) throws {
        self.script = script
        directory = try TemporaryDirectory()
        var configuration = Configuration()
        // Every actor may hold a reader at once: the writer's nested read,
        // the reader threads, the spawned reads.
        configuration.maximumReaderCount = PoolScript.readerCount + PoolScript.spawnCount + 1
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = OFF") }
        }
        dbPool = try DatabasePool(path: directory.path(), configuration: configuration)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE kv (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)") }
    }

    deinit {
        directory.remove()
    }

    static func dump(_ db: Database) throws -> String {
        try Row.fetchAll(db, sql: "SELECT k, v FROM kv ORDER BY k")
            .map { "\($0[0] as Int)=\($0[1] as Int)" }
            .joined(separator: ",")
    }

    func run() throws -> [String] {
        startWriter()
        for mailbox in readers { startReader(mailbox) }
        var model = PoolModel()
        defer { stop(model) }
        var log: [String] = []
        for step in script.steps where model.isValid(step) {
            _ = model.apply(step)
            log.append("\(step): \(try perform(step))")
        }
        return log
    }

    /// Ends the accesses that `model` says are open, then the threads.
    private func stop(_ model: PoolModel) {
        if model.isInTransaction { _ = try? writer.send(nil) }
        for (index, mailbox) in readers.enumerated() where model.isReading(index) {
            _ = try? mailbox.send(nil)
        }
        for (index, mailbox) in spawned.enumerated() where model.isSpawned(index) {
            _ = try? mailbox.send(nil)
        }
        for mailbox in [writer] + readers {
            _ = try? mailbox.send(nil)
        }
        snapshots.removeAll()
    }

    private func perform(_ step: PoolStep) throws -> String {
        switch step {
        case .begin, .set, .delete, .fail, .nestedRead, .commit, .rollback, .autocommitSet, .checkpoint:
            return try writer.send(step)
        case .spawn:
            return try writer.send(step)
        case .beginRead(let reader), .read(let reader), .endRead(let reader), .unsafeRead(let reader):
            return try readers[reader].send(step)
        case .spawnedRead(let slot):
            return try spawned[slot].send(step)
        case .endSpawned(let slot):
            return try spawned[slot].send(step)
        case .makeSnapshot(let slot):
            snapshots[slot] = try dbPool.makeSnapshot()
            return "made"
        case .snapshotRead(let slot):
            return try snapshots[slot]!.read(Self.dump)
        case .dropSnapshot(let slot):
            snapshots[slot] = nil
            return "dropped"
        }
    }

    // MARK: - Actors

    /// The writer: its transaction stays open across the steps between
    /// `begin` and `commit` or `rollback`.
    private func startWriter() {
        let (dbPool, writer, spawned) = (self.dbPool, self.writer, self.spawned)
        Thread {
            while true {
                guard let step = writer.receive() else {
                    writer.reply("stopped")
                    return
                }
                do {
                    switch step {
                    case .begin:
                        try dbPool.writeWithoutTransaction { db in
                            try db.beginTransaction()
                            writer.reply("begun")
                            try Self.transactionSteps(db, dbPool, writer)
                        }
                    case .autocommitSet(let key, let value):
                        try dbPool.writeWithoutTransaction { db in
                            try db.execute(
                                sql: "INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)", arguments: [key, value])
                        }
                        writer.reply("committed")
                    case .checkpoint(let mode):
                        try dbPool.writeWithoutTransaction { db in
                            do {
                                try db.checkpoint(Database.CheckpointMode(rawValue: CInt(mode))!)
                            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                                // Readers use the WAL: a checkpoint that must wait for them gives up.
                            }
                        }
                        writer.reply("checkpoint")
                    case .spawn(let slot):
                        let mailbox = spawned[slot]
                        dbPool.writeWithoutTransaction { _ in
                            dbPool.asyncConcurrentRead { dbResult in
                                // On a reader, concurrently: reads until ended.
                                do {
                                    let db = try dbResult.get()
                                    while true {
                                        switch mailbox.receive() {
                                        case .spawnedRead: mailbox.reply(try Self.dump(db))
                                        default:
                                            mailbox.reply("ended")
                                            return
                                        }
                                    }
                                } catch {
                                    mailbox.reply("error: \(error)")
                                }
                            }
                        }
                        // asyncConcurrentRead has returned: the read is isolated.
                        writer.reply("spawned")
                    default:
                        writer.reply("unexpected \(step)")
                    }
                } catch {
                    writer.reply("error: \(error)")
                }
            }
        }.start()
    }

    /// The steps inside the writer's transaction, until it ends.
    private static func transactionSteps(_ db: Database, _ dbPool: DatabasePool, _ writer: Mailbox) throws {
        while true {
            let step = writer.receive()
            switch step {
            case .set(let key, let value):
                try db.execute(sql: "INSERT OR REPLACE INTO kv (k, v) VALUES (?, ?)", arguments: [key, value])
                writer.reply("ok")
            case .delete(let key):
                try db.execute(sql: "DELETE FROM kv WHERE k = ?", arguments: [key])
                writer.reply("ok")
            case .fail:
                do {
                    try db.execute(sql: "INSERT INTO kv (k, v) VALUES (NULL, NULL)")
                    writer.reply("no error")
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    writer.reply("constraint")
                }
            case .nestedRead:
                // A read inside the write runs on a reader: the last commit.
                writer.reply(try dbPool.read(dump))
            case .commit:
                try db.commit()
                writer.reply("committed")
                return
            case .rollback:
                try db.rollback()
                writer.reply("rolled back")
                return
            default:
                try db.rollback()
                writer.reply("stopped in a transaction")
                return
            }
        }
    }

    /// A reader: its read transaction stays open across the steps between
    /// `beginRead` and `endRead`.
    private func startReader(_ mailbox: Mailbox) {
        let dbPool = self.dbPool
        Thread {
            while true {
                guard let step = mailbox.receive() else {
                    mailbox.reply("stopped")
                    return
                }
                do {
                    switch step {
                    case .unsafeRead:
                        mailbox.reply(try dbPool.unsafeRead(Self.dump))
                    case .beginRead:
                        try dbPool.read { db in
                            mailbox.reply("begun")
                            while true {
                                switch mailbox.receive() {
                                case .read: mailbox.reply(try Self.dump(db))
                                default:
                                    mailbox.reply("ended")
                                    return
                                }
                            }
                        }
                    default:
                        mailbox.reply("unexpected \(step)")
                    }
                } catch {
                    mailbox.reply("error: \(error)")
                }
            }
        }.start()
    }
}

/// Steps to an actor's thread, and its replies back: the test waits for
/// each reply, so that steps run one at a time. A nil step ends the
/// actor's open access, or its thread.
// @unchecked Sendable: the fields are only used under `lock`.
private final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var step: PoolStep?
    private var replyValue: String?
    private let stepReady = DispatchSemaphore(value: 0)
    private let replyReady = DispatchSemaphore(value: 0)

    /// Sends a step and waits for the reply; throws if none comes within
    /// a minute (a deadlock, or a lost reply).
    func send(_ step: PoolStep?) throws -> String {
        lock.withLock { self.step = step }
        stepReady.signal()
        guard replyReady.wait(timeout: .now() + 60) == .success else {
            throw MailboxTimeout(step: step)
        }
        return lock.withLock { replyValue! }
    }

    /// Waits for a step (actor side).
    func receive() -> PoolStep? {
        stepReady.wait()
        return lock.withLock { step }
    }

    func reply(_ value: String) {
        lock.withLock { replyValue = value }
        replyReady.signal()
    }
}

private struct MailboxTimeout: Error, CustomStringConvertible {
    var step: PoolStep?
    var description: String { "no reply to \(step.map { "\($0)" } ?? "stop") within a minute" }
}
