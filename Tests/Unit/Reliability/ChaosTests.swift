import CSQLite
import Dispatch
import Foundation
import GRDBLite
import Testing
import TestSupport

/// Rounds of concurrent accesses, with a seeded chaos thread that calls
/// `interrupt()`, cancels a task or calls `releaseMemory()` 0 to 2 ms into
/// the round; every 100th round, it closes the database instead, with
/// accesses running and waiting.
///
/// Each round: 2 writer tasks (3 transactions each, 3 rows per
/// transaction), 4 reader tasks, a concurrent read started from a write
/// (pool), and a `ValueObservation`. Checked: every read and observed
/// value sees whole transactions; `isInsideTransaction` agrees with
/// SQLite's autocommit flag; errors are interrupts, cancellations, or
/// (after the close) `SQLITE_MISUSE`; the transactions in the database are
/// exactly the writes that returned; after a close, accesses throw.
///
/// 500 rounds per kind by default (1,000 in all); `GRDBLITE_RELIABILITY_SCALE`
/// multiplies them, `GRDBLITE_SEED` replays a run.
@Suite struct ChaosTests {
    enum Kind: String, CaseIterable, Sendable { case queue, pool }

    /// What went wrong, and the ids of the writes that returned.
    final class Outcome: @unchecked Sendable {
        let problems = Shared<[String]>([])
        let committed = Shared<Set<Int>>([])
        let errors = Shared<[String: Int]>([:])

        func problem(_ text: String) { problems.update { $0.append(text) } }

        /// Counts an error, and reports one that chaos can't explain.
        func count(_ error: any Error, afterClose: Bool, _ context: String) {
            switch error {
            case is CancellationError:
                errors.update { $0["cancelled", default: 0] += 1 }
            case let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT:
                errors.update { $0["interrupted", default: 0] += 1 }
            case let error as DatabaseError where error.resultCode == .SQLITE_MISUSE && afterClose:
                errors.update { $0["closed", default: 0] += 1 }
            default:
                problem("\(context): unexpected \(error)")
            }
        }
    }

    static let schema = """
        CREATE TABLE IF NOT EXISTS part (write INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (write, n));
        CREATE TABLE IF NOT EXISTS total (id INTEGER PRIMARY KEY CHECK (id = 1), parts INTEGER NOT NULL);
        INSERT OR IGNORE INTO total VALUES (1, 0);
        """

    /// Write `id`: three parts and the total, in one transaction.
    static func write(_ db: Database, id: Int) throws {
        for n in 0..<3 {
            try db.execute(sql: "INSERT INTO part (write, n) VALUES (?, ?)", arguments: [id, n])
        }
        try db.execute(sql: "UPDATE total SET parts = parts + 3")
    }

    /// The writes in the database; a problem if one is partial or the
    /// total disagrees, or the transaction flag disagrees with SQLite's.
    static func audit(_ db: Database) throws -> (writes: Set<Int>, problem: String?) {
        if db.isInsideTransaction != (sqlite3_get_autocommit(db.sqliteConnection) == 0) {
            return ([], "isInsideTransaction is \(db.isInsideTransaction), SQLite disagrees")
        }
        let parts = try Int.fetchOne(db, sql: "SELECT parts FROM total")!
        let rows = try Row.fetchAll(db, sql: "SELECT write, COUNT(*) FROM part GROUP BY write")
        var writes = Set<Int>()
        for row in rows {
            guard row[1] as Int == 3 else { return ([], "write \(row[0] as Int) has \(row[1] as Int) parts") }
            writes.insert(row[0])
        }
        if parts != 3 * writes.count { return ([], "total \(parts) for \(writes.count) writes") }
        return (writes, nil)
    }

    static func open(_ kind: Kind, _ path: String) throws -> any DatabaseWriter {
        var config = Configuration()
        config.busyMode = .timeout(30)
        // Durability is not under test here (see CrashSafetyTests): no
        // fsync, so that a round takes milliseconds.
        config.prepareDatabase { try $0.execute(sql: "PRAGMA synchronous = OFF") }
        let writer: any DatabaseWriter = kind == .pool
            ? try DatabasePool(path: path, configuration: config)
            : try DatabaseQueue(path: path, configuration: config)
        try writer.write { try $0.execute(sql: schema) }
        return writer
    }

    @Test(arguments: Kind.allCases)
    func accessesStayWholeUnderChaos(kind: Kind) async throws {
        var (random, seed) = SeededGenerator.fromEnvironment()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("chaos.sqlite")
        var writer = try Self.open(kind, path)
        let outcome = Outcome()
        let rounds = 500 * reliabilityScale
        var closes = 0
        var committedCount = 0
        for round in 1...rounds {
            let closes_ = round % 100 == 0
            let delay = Double.random(in: 0...0.002, using: &random)
            let action = Int.random(in: 0..<3, using: &random)
            let victim = Int.random(in: 0..<6, using: &random)
            // Each round starts empty, so that its audits stay cheap.
            try await writer.write { try $0.execute(sql: "DELETE FROM part; UPDATE total SET parts = 0") }
            committedCount += outcome.committed.value.count
            outcome.committed.update { $0 = [] }
            try await Self.runRound(
                round, writer: writer, kind: kind, closes: closes_, delay: delay, action: action, victim: victim,
                outcome: outcome)
            if closes_ {
                closes += 1
                // Closed for good: a new access throws.
                do {
                    try await writer.read { _ in }
                    outcome.problem("round \(round): a read after close() did not throw")
                } catch let error as DatabaseError where error.resultCode == .SQLITE_MISUSE {
                } catch {
                    outcome.problem("round \(round): a read after close() threw \(error)")
                }
                writer = try Self.open(kind, path)
            }
            let (writes, problem) = try await writer.read(Self.audit)
            if let problem { outcome.problem("round \(round): \(problem)") }
            if writes != outcome.committed.value {
                let missing = outcome.committed.value.subtracting(writes).sorted()
                let extra = writes.subtracting(outcome.committed.value).sorted()
                outcome.problem(
                    "round \(round): writes that returned but are missing: \(missing); present but failed: \(extra)")
                outcome.committed.update { $0 = writes }
            }
            if outcome.problems.value.count > 10 { break }
        }
        try writer.close()
        committedCount += outcome.committed.value.count
        let errors = outcome.errors.value
        print("""
            ChaosTests \(kind): \(rounds) rounds, \(closes) closes, \(committedCount) writes committed; \
            errors: \(errors.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")) (seed \(seed))
            """)
        #expect(outcome.problems.value == [], "seed \(seed)")
        // Chaos did something: writes committed, and some were refused.
        #expect(committedCount > rounds)
        #expect(errors["interrupted", default: 0] + errors["cancelled", default: 0] > 0)
        #expect(errors["closed", default: 0] > 0 || rounds < 100)
    }

    private static func runRound(
        _ round: Int, writer: any DatabaseWriter, kind: Kind, closes: Bool, delay: Double, action: Int, victim: Int,
        outcome: Outcome
    ) async throws {
        let closed = Shared(false)
        let observed = Shared<[Int]>([])
        let observation = ValueObservation.tracking { db -> Int in
            let (writes, problem) = try audit(db)
            if let problem { outcome.problem("round \(round), observation: \(problem)") }
            return writes.count
        }
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: DispatchQueue(label: "chaos")),
            onError: { error in
                outcome.count(error, afterClose: closed.value, "round \(round), observation")
            },
            onChange: { count in observed.update { $0.append(count) } })

        var tasks: [Task<Void, Never>] = []
        for index in 0..<2 {
            tasks.append(Task {
                for n in 0..<3 {
                    let id = round * 100 + index * 10 + n
                    do {
                        try await writer.write { try write($0, id: id) }
                        outcome.committed.update { _ = $0.insert(id) }
                    } catch {
                        outcome.count(error, afterClose: closed.value, "round \(round), write \(id)")
                    }
                }
            })
        }
        for index in 0..<4 {
            tasks.append(Task {
                for _ in 0..<2 {
                    do {
                        let problem = try await writer.read { try audit($0).problem }
                        if let problem { outcome.problem("round \(round), reader \(index): \(problem)") }
                    } catch {
                        outcome.count(error, afterClose: closed.value, "round \(round), reader \(index)")
                    }
                }
            })
        }
        if let pool = writer as? DatabasePool {
            // A concurrent read, started from a write.
            tasks.append(Task {
                await withCheckedContinuation { continuation in
                    pool.writeWithoutTransaction { _ in
                        pool.asyncConcurrentRead { result in
                            do {
                                if let problem = try audit(result.get()).problem {
                                    outcome.problem("round \(round), concurrent read: \(problem)")
                                }
                            } catch {
                                outcome.count(error, afterClose: closed.value, "round \(round), concurrent read")
                            }
                            continuation.resume()
                        }
                    }
                }
            })
        }

        // The chaos thread.
        let chaosDone = DispatchSemaphore(value: 0)
        let victimTask = tasks[victim % tasks.count]
        Thread {
            Thread.sleep(forTimeInterval: delay)
            if closes {
                closed.update { $0 = true }
                do {
                    try writer.close()
                } catch {
                    outcome.problem("round \(round): close failed: \(error)")
                }
            } else {
                switch action {
                case 0: writer.interrupt()
                case 1: victimTask.cancel()
                default:
                    if let pool = writer as? DatabasePool { pool.releaseMemory() }
                    (writer as? DatabaseQueue)?.releaseMemory()
                }
            }
            chaosDone.signal()
        }.start()

        for task in tasks { await task.value }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                chaosDone.wait()
                continuation.resume()
            }
        }
        cancellable.cancel()
        // Observed values only grow.
        let values = observed.value
        if values != values.sorted() { outcome.problem("round \(round): observed counts went back: \(values)") }
    }
}
