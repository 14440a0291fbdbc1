import Foundation
import GRDBLite
import Testing
import TestSupport
@testable import grdblite_crash_writer

/// A child process commits transactions in a loop and reports each commit
/// on a pipe; it is killed with SIGKILL at a random point; the database
/// must then open, pass `PRAGMA integrity_check`, and hold every reported
/// transaction, each one complete (see `CrashWorkload.verify`).
///
/// `vacuum` runs VACUUM after every third transaction (rollback journal),
/// `checkpoint` a truncating checkpoint after each one (WAL).
///
/// `pool` writes through a `DatabasePool` (WAL) while reader threads and
/// concurrent reads check every state they see (a broken one makes the
/// child exit with an error instead of dying of the kill), and passive
/// checkpoints run; the database is then reopened as a pool.
///
/// The child prints "begin N" before each transaction: after the kill, its
/// last line tells where the kill landed. The test fails unless the kills
/// land inside transactions often enough (at least 20%), with a rollback
/// journal (`rollback`, `vacuum`) leave hot journals (at least one kill in
/// 10), and some transaction was committed: a run that killed the child
/// before it wrote checks nothing.
///
/// 50 kills per journal mode by default; `GRDBLITE_RELIABILITY_SCALE=N`
/// runs N times more. The rounds run on a few lanes at once, each with its
/// own database (see `runLanes`). `GRDBLITE_SEED` replays a run.
@Suite struct CrashSafetyTests {
    /// What the kills of a lane found.
    struct Counts: Sendable {
        var durable = 0             // the last transaction known to be committed
        var leftovers = 0           // kills that left a rollback journal or a WAL to recover
        var killsInTransactions = 0 // kills after "begin N" and before "committed N"
        var committedUnreported = 0
    }

    @Test(arguments: ["rollback", "wal", "pool", "vacuum", "checkpoint"])
    func committedTransactionsSurviveSIGKILL(mode: String) throws {
        let seed = SeededGenerator.fromEnvironment().seed
        let kills = 50 * reliabilityScale
        let lanes = try runLanes(rounds: kills) { lane in
            try Self.kill(lane, mode: mode, seed: seed)
        }
        let durable = lanes.map(\.durable).reduce(0, +)
        let leftovers = lanes.map(\.leftovers).reduce(0, +)
        let killsInTransactions = lanes.map(\.killsInTransactions).reduce(0, +)
        print("""
            CrashSafetyTests \(mode): \(kills) SIGKILLs survived, \(durable) transactions verified, \
            \(killsInTransactions) kills inside a transaction, \
            \(leftovers) \(mode == "rollback" || mode == "vacuum" ? "hot journals rolled back" : "WAL files recovered"), \
            \(lanes.map(\.committedUnreported).reduce(0, +)) commits made before the kill but not yet reported \
            (seed \(seed))
            """)
        #expect(durable > 0, "no transaction was committed: the kills tested nothing (seed \(seed))")
        #expect(
            killsInTransactions * 5 >= kills, "fewer than 20% of the kills landed inside a transaction (seed \(seed))")
        if mode == "rollback" || mode == "vacuum" {
            #expect(leftovers * 10 >= kills, "fewer than 1 kill in 10 left a hot journal (seed \(seed))")
        }
    }

    /// Runs the rounds of `lane` on its database.
    private static func kill(_ lane: CrashLane, mode: String, seed: UInt64) throws -> Counts {
        let path = lane.path("crash.sqlite")
        var config = Configuration()
        config.journalMode = mode == "wal" || mode == "checkpoint" ? .wal : .default
        var counts = Counts()
        for round in lane.rounds {
            var random = SeededGenerator(seed: seed, round: round)
            let child = try lane.startChild(["write", path, mode])
            var lastLine: String?
            /// Takes a line of the child: "begin N", then "committed N"
            /// once transaction N is durable.
            func take(_ line: String) {
                if line.hasPrefix("committed ") {
                    let reported = Int(line.dropFirst("committed ".count))
                    lane.expect(
                        reported == counts.durable + 1, "\(line): commits are reported in order (seed \(seed))")
                    counts.durable = reported ?? counts.durable
                } else {
                    lane.expect(
                        line == "begin \(counts.durable + 1)", "\(line): transactions begin in order (seed \(seed))")
                }
                lastLine = line
            }
            // Kill after a random number of reported commits (half of the
            // time, after the next "begin" too), then after a random amount
            // of work, so that the kill lands anywhere in the child's loop
            // (opening, writing, committing, reporting). Waiting for
            // "begin" keeps kills inside transactions frequent even when a
            // loaded machine leaves the child little time to run.
            let commits = Int.random(in: 0...4, using: &random)
            let waitsForBegin = Bool.random(using: &random)
            var committed = 0
            while committed < commits || (waitsForBegin && lastLine?.hasPrefix("begin ") != true) {
                guard let line = child.readLine() else {
                    child.killNow()
                    lane.record("child stopped: \(child.errorOutput()) (seed \(seed), round \(round))")
                    return counts
                }
                take(line)
                if line.hasPrefix("committed ") { committed += 1 }
            }
            var work = Int.random(in: 0..<300_000, using: &random)
            if waitsForBegin && (mode == "rollback" || mode == "vacuum") {
                // On a loaded machine the child may not have written yet:
                // wait (2 s at most) for its journal, then kill it soon, so
                // that the kill can find the journal hot.
                let deadline = ContinuousClock.now + .seconds(2)
                while !FileManager.default.fileExists(atPath: path + "-journal") && ContinuousClock.now < deadline {
                    usleep(50)
                }
                work /= 30
            }
            spin(work)
            child.killNow()
            lane.expect(
                child.diedOfASignal,
                "child died of SIGKILL, not of an error: \(child.errorOutput())")
            // What the child printed before it died.
            while let line = child.readLine() { take(line) }
            if lastLine?.hasPrefix("begin ") == true { counts.killsInTransactions += 1 }
            let leftover = path + (mode == "rollback" || mode == "vacuum" ? "-journal" : "-wal")
            if let size = try? FileManager.default.attributesOfItem(atPath: leftover)[.size] as? Int, size > 0 {
                counts.leftovers += 1
            }

            let database: any DatabaseWriter = mode == "pool"
                ? try DatabasePool(path: path, configuration: config)
                : try DatabaseQueue(path: path, configuration: config)
            let last: Int
            do {
                last = try database.read(CrashWorkload.verify)
                if mode == "pool" {
                    // The writer sees the same state as the readers.
                    let written = try database.writeWithoutTransaction(CrashWorkload.verify)
                    lane.expect(written == last, "after kill \(round): \(written) written, \(last) read (seed \(seed))")
                }
            } catch {
                lane.record("after kill \(round) (\(mode), seed \(seed)): \(error)")
                return counts
            }
            lane.expect(
                last >= counts.durable,
                "reported transaction \(counts.durable) lost after kill \(round) (\(mode), seed \(seed))")
            counts.committedUnreported += last - counts.durable
            counts.durable = last
            try database.close()
        }
        return counts
    }

    /// A new child continues after the last committed transaction, so
    /// that reported numbers and committed transactions match.
    @Test func childResumesAfterTheLastCommittedTransaction() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("resume.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: CrashWorkload.schema)
            for txn in 1...3 { try CrashWorkload.write(db, txn: txn) }
        }
        let child = try ChildProcess(["write", path, "rollback"])
        try child.expectLine("begin 4")
        try child.expectLine("committed 4")
        child.killNow()
        #expect(try dbQueue.read(CrashWorkload.verify) >= 4)
    }
}

/// Busy work that the optimizer can't remove.
@inline(never)
func spin(_ iterations: Int) {
    var value = 0
    for index in 0..<iterations { value = value &* 31 &+ index }
    withExtendedLifetime(value) { }
}

/// The checker of the crash tests must catch what it looks for.
@Suite struct CrashWorkloadVerifierTests {
    private func database(transactions: Int) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: CrashWorkload.schema)
            for txn in 1...transactions { try CrashWorkload.write(db, txn: txn) }
        }
        return dbQueue
    }

    @Test func acceptsCompleteTransactions() throws {
        #expect(try database(transactions: 40).read(CrashWorkload.verify) == 40)
        #expect(try DatabaseQueue().read(CrashWorkload.verify) == 0)
    }

    @Test(arguments: [
        "DELETE FROM item WHERE rowid = (SELECT MAX(rowid) FROM item)",
        "DELETE FROM item WHERE txn = 10",
        "UPDATE item SET payload = x'00' WHERE txn = 40 AND n = 0",
        "UPDATE counter SET total = total + 1",
        "DELETE FROM txn WHERE id = 20",
        "UPDATE txn SET itemCount = itemCount + 1 WHERE id = 39",
        "INSERT INTO item (txn, n, payload) VALUES (41, 0, x'')",
    ])
    func rejectsIncompleteTransactions(damage: String) throws {
        let dbQueue = try database(transactions: 40)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: damage)
        }
        #expect(throws: CrashWorkload.Violation.self) {
            try dbQueue.read(CrashWorkload.verify)
        }
    }
}

/// Other processes' connections live on across a writer's SIGKILL.
///
/// 50 kills per test by default, on a few lanes at once (see `runLanes`);
/// `GRDBLITE_RELIABILITY_SCALE=N` runs N times more, `GRDBLITE_SEED`
/// replays a run.
@Suite struct CrashSurvivorTests {
    /// Two writer processes compete for one WAL database; one is killed,
    /// the other keeps committing (the dead one's locks are gone), then
    /// it is killed too: every reported transaction of both is there.
    @Test func aCompetingWriterOutlivesAKilledOne() throws {
        let seed = SeededGenerator.fromEnvironment().seed
        _ = try runLanes(rounds: 50 * reliabilityScale) { lane in
            let path = lane.path("shared.sqlite")
            var config = Configuration()
            config.journalMode = .wal
            var durable = 0
            for round in lane.rounds {
                var random = SeededGenerator(seed: seed, round: round)
                let victim = try lane.startChild(["write", path, "shared"])
                let survivor = try lane.startChild(["write", path, "shared"])
                func committed(_ line: String?) -> Int? {
                    line.flatMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }
                }
                // The victim commits at least once, then dies at a random point.
                var line = victim.readLine()
                while line != nil && committed(line) == nil { line = victim.readLine() }
                lane.expect(line != nil, "victim stopped: \(victim.errorOutput()) (seed \(seed))")
                spin(Int.random(in: 0..<300_000, using: &random))
                victim.killNow()
                while let line = victim.readLine() { durable = max(durable, committed(line) ?? 0) }
                // The survivor commits three more transactions.
                var survivorCommits = 0
                while survivorCommits < 3, let line = survivor.readLine() {
                    if let txn = committed(line) {
                        durable = max(durable, txn)
                        survivorCommits += 1
                    }
                }
                lane.expect(
                    survivorCommits == 3,
                    "round \(round): the survivor stopped: \(survivor.errorOutput()) (seed \(seed))")
                survivor.killNow()
                while let line = survivor.readLine() { durable = max(durable, committed(line) ?? 0) }
                let dbPool = try DatabasePool(path: path, configuration: config)
                let last = try dbPool.read(CrashWorkload.verify)
                lane.expect(last >= durable, "transaction \(durable) lost after round \(round) (seed \(seed))")
                durable = last
                try dbPool.close()
            }
            lane.expect(
                durable >= 4 * lane.rounds.count,
                "\(durable) transactions after \(lane.rounds.count) rounds (seed \(seed))")
        }
    }

    /// The parent holds a pool and a snapshot on the database while a
    /// child writes to it and is killed: the snapshot still reads its
    /// state, the pool reads a whole state with every reported
    /// transaction, and then writes.
    @Test func aPoolAndASnapshotOutliveAKilledWriter() throws {
        let seed = SeededGenerator.fromEnvironment().seed
        _ = try runLanes(rounds: 50 * reliabilityScale) { lane in
            let path = lane.path("survivors.sqlite")
            var config = Configuration()
            config.journalMode = .wal
            config.busyMode = .timeout(30)
            let dbPool = try DatabasePool(path: path, configuration: config)
            try dbPool.write { try $0.execute(sql: CrashWorkload.schema) }
            var durable = 0
            for round in lane.rounds {
                var random = SeededGenerator(seed: seed, round: round)
                let snapshot = try dbPool.makeSnapshot()
                let snapshotState = try snapshot.read(CrashWorkload.verify)
                let child = try lane.startChild(["write", path, "shared"])
                var commits = 0
                let wanted = Int.random(in: 1...5, using: &random)
                while commits < wanted, let line = child.readLine() {
                    if line.hasPrefix("committed ") {
                        durable = Int(line.dropFirst(10)) ?? -1
                        commits += 1
                    }
                }
                lane.expect(commits == wanted, "child stopped: \(child.errorOutput()) (seed \(seed))")
                spin(Int.random(in: 0..<300_000, using: &random))
                child.killNow()
                while let line = child.readLine() {
                    if line.hasPrefix("committed ") { durable = Int(line.dropFirst(10)) ?? -1 }
                }
                let snapshotStateNow = try snapshot.read(CrashWorkload.verify)
                lane.expect(
                    snapshotStateNow == snapshotState,
                    "round \(round): the snapshot saw \(snapshotState), then \(snapshotStateNow) (seed \(seed))")
                let last = try dbPool.read(CrashWorkload.verify)
                lane.expect(last >= durable, "transaction \(durable) lost after round \(round) (seed \(seed))")
                try dbPool.write { try CrashWorkload.write($0, txn: last + 1) }
                durable = try dbPool.read(CrashWorkload.verify)
                lane.expect(durable == last + 1, "round \(round): \(durable) after writing \(last + 1) (seed \(seed))")
            }
            try dbPool.close()
        }
    }
}
