import CFaultInjection
import Dispatch
import Foundation
import GRDBLite
import Synchronization
import Testing
import TestSupport

/// I/O faults through a `DatabasePool`'s whole life: the fault VFS fails
/// the N-th I/O operation (locks and the WAL index included, see
/// CFaultInjection.h), for N = 1, 2, 3... until the workload runs without
/// reaching the fault. The workload opens the pool, migrates, writes,
/// reads, reads concurrently with the writer, reads a snapshot,
/// checkpoints, restarts the WAL, backs up into memory, fails to close
/// while a statement is alive, and closes, all under injection (the
/// pool checkpoints after each commit: `wal_autocheckpoint = 2`). At each
/// fault point:
///
/// - a failure is a `DatabaseError` with a code the VFS injects;
/// - once the fault is gone, the pool (unless it closed) reads and writes,
///   no reader is left inside a transaction, and the data is the state
///   the pool last saw committed or the one of the step that failed,
///   never a mix; the migrations recorded are the tables present;
/// - once closed, no file stays open through the VFS;
/// - the step the first fault hit (``FaultTrace``) threw, unless SQLite
///   documents that it recovers from the fault (a failed unlock, a close);
/// - a close with a statement alive fails, and the pool stays usable;
/// - the file passes `PRAGMA integrity_check` and holds the last state the
///   pool saw, or the one of the failed step.
///
/// An extension of `IOFaultInjectionTests`: the VFS is global, and that
/// suite runs one test at a time.
extension IOFaultInjectionTests {
    struct PoolScenario: Sendable, CustomTestStringConvertible {
        var persistent: Bool
        var diskFull: Bool
        var testDescription: String {
            "pool, \(persistent ? "persistent" : "transient") \(diskFull ? "disk full" : "I/O error")"
        }
    }

    static let poolScenarios: [PoolScenario] = [false, true].flatMap { persistent in
        [false, true].map { PoolScenario(persistent: persistent, diskFull: $0) }
    }

    /// A step of the workload: a call of the pool's API, and the number of
    /// commits it makes.
    struct PoolStep: Sendable {
        var name: String
        var commits: Int
        /// Runs the step; `expected` are the states of the reference run
        /// (nil while it is recorded), `at` the index of the last one
        /// committed before the step.
        var run: @Sendable (_ pool: DatabasePool, _ expected: [String]?, _ at: Int) throws -> Void
    }

    private static func poolConfiguration() -> Configuration {
        var config = Configuration()
        config.maximumReaderCount = 2
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 2") }
        return config
    }

    /// The data, as one string: each table's rows, and the migrations.
    static func poolState(_ db: Database) throws -> String {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        return try tables.compactMap { table -> String? in
            if table == "grdb_migrations" {
                let ids = try String.fetchOne(
                    db, sql: "SELECT group_concat(identifier) FROM (SELECT identifier FROM grdb_migrations ORDER BY 1)")
                // The migrator creates the table in a commit of its own:
                // empty, it is no state of the data.
                return ids.map { "migrations=\($0)" }
            }
            let rows = try String.fetchOne(db, sql: """
                SELECT group_concat(id || ':' || length(payload) || ':' || hex(substr(payload, 1, 4)), ',')
                FROM (SELECT * FROM \(table) ORDER BY id)
                """)
            return "\(table)=\(rows ?? "")"
        }.joined(separator: ";")
    }

    /// Throws unless the migrations recorded are exactly those whose
    /// tables exist (v1: `a`, v2: `b`).
    static func migrationsMatchTables(_ db: Database) throws -> Bool {
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        let applied: Set<String> =
            tables.contains("grdb_migrations")
            ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")) : []
        return applied.contains("v1") == tables.contains("a") && applied.contains("v2") == tables.contains("b")
            && applied.isSubset(of: ["v1", "v2"])
    }

    static func insertRows(_ db: Database, into table: String, ids: ClosedRange<Int>, size: Int) throws {
        for id in ids {
            try db.execute(
                sql: "INSERT INTO \(table) (id, payload) VALUES (?, ?)",
                arguments: [id, Data(repeating: UInt8(id % 251), count: size)])
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE a (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            try insertRows(db, into: "a", ids: 1...40, size: 500)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: "CREATE TABLE b (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            try insertRows(db, into: "b", ids: 1...40, size: 700)
        }
        return migrator
    }

    /// Records an issue unless `observed` is `expected[index]`.
    private static func check(_ observed: String, _ expected: [String]?, _ index: Int, _ what: String) {
        guard let expected else { return }
        if observed != expected[index] { Issue.record("\(what): saw state \(expected.firstIndex(of: observed) ?? -1)") }
    }

    /// The workload after the pool opens.
    static let poolSteps: [PoolStep] = [
        PoolStep(name: "migrate", commits: 2) { pool, _, _ in try migrator.migrate(pool) },
        PoolStep(name: "write", commits: 1) { pool, _, _ in
            try pool.write { db in
                try insertRows(db, into: "a", ids: 1001...1060, size: 900)
                try db.execute(sql: "UPDATE b SET payload = x'CAFE' || payload WHERE id % 3 = 0")
                try db.execute(sql: "DELETE FROM a WHERE id % 5 = 0")
            }
        },
        PoolStep(name: "read", commits: 0) { pool, expected, at in
            check(try pool.read(poolState), expected, at, "read")
        },
        PoolStep(name: "concurrent read", commits: 1) { pool, expected, at in
            // The reader reads what the writer committed, while the writer
            // waits for it (a wait in the write keeps the I/O operations
            // in one order: each fault point fails the same operation).
            let seen = Seen()
            let done = DispatchSemaphore(value: 0)
            try pool.writeWithoutTransaction { db in
                try db.inTransaction {
                    try insertRows(db, into: "b", ids: 2001...2040, size: 800)
                    return .commit
                }
                pool.asyncConcurrentRead { dbResult in
                    let result = Result { try poolState(dbResult.get()) }
                    seen.value.withLock { $0 = result }
                    done.signal()
                }
                if done.wait(timeout: .now() + 10) == .timedOut {
                    Issue.record("the concurrent read did not end")
                }
            }
            if let result = seen.value.withLock({ $0 }) {
                check(try result.get(), expected, at + 1, "concurrent read")
            }
        },
        PoolStep(name: "snapshot", commits: 1) { pool, expected, at in
            let snapshot = try pool.makeSnapshot()
            // Closed on every path; a failed close is retried once the
            // faults are gone, and reported there.
            var closed = false
            defer { if !closed { snapshotsToClose.withLock { $0.append(snapshot) } } }
            try pool.write { db in try db.execute(sql: "UPDATE a SET payload = x'BEEF' WHERE id % 7 = 0") }
            check(try snapshot.read(poolState), expected, at, "snapshot")
            try snapshot.close()
            closed = true
        },
        PoolStep(name: "checkpoint", commits: 0) { pool, _, _ in
            // A barrier: a truncating checkpoint fails with SQLITE_BUSY while a
            // reader is in a transaction, such as the concurrent read above,
            // whose reader may not have ended it yet on a loaded machine.
            try pool.barrierWriteWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        },
        PoolStep(name: "restart", commits: 1) { pool, _, _ in
            try pool.write { db in try insertRows(db, into: "a", ids: 3001...3030, size: 600) }
        },
        PoolStep(name: "read again", commits: 0) { pool, expected, at in
            check(try pool.read(poolState), expected, at, "read again")
        },
        PoolStep(name: "backup", commits: 0) { pool, expected, at in
            // Into memory: only the reads of the source go through the VFS.
            let copy = try DatabaseQueue()
            try pool.backup(to: copy)
            check(try copy.read(poolState), expected, at, "backup")
        },
        PoolStep(name: "refused close", commits: 0) { pool, _, _ in
            // A close that fails: a statement of the writer is alive. The
            // pool stays open and usable (the next step).
            let statement = try pool.write { db in try db.makeStatement(sql: "SELECT COUNT(*) FROM a") }
            try withExtendedLifetime(statement) {
                do {
                    try pool.close()
                    Issue.record("a pool closed while a statement of its writer was alive")
                } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                    refusedCloses.add(1, ordering: .relaxed)
                }
            }
        },
        PoolStep(name: "close", commits: 0) { pool, _, _ in try pool.close() },
    ]

    /// The closes that failed as they should (a statement alive).
    static let refusedCloses = Atomic<Int>(0)

    /// What the concurrent read saw.
    final class Seen: Sendable {
        let value = Mutex<Result<String, any Error>?>(nil)
    }

    /// Snapshots a step could not close: closed after the faults.
    static let snapshotsToClose = Mutex<[DatabaseSnapshot]>([])

    /// The states after each commit of a fault-free run.
    static func referenceStates(at path: String) throws -> [String] {
        let pool = try DatabasePool(path: path, configuration: poolConfiguration())
        var states = [try pool.read(poolState)]
        try migrator.migrate(pool, upTo: "v1")
        states.append(try pool.read(poolState))
        for step in poolSteps {
            try step.run(pool, nil, states.count - 1)
            if step.commits > 0 { states.append(try pool.read(poolState)) }
        }
        return states
    }

    /// The problems the threads of `readersAreIdle` saw.
    final class Problems: Sendable {
        let list = Mutex<[String]>([])
        func add(_ problem: String) { list.withLock { $0.append(problem) } }
    }

    /// Checks that both readers are outside of any transaction: two
    /// threads read at once (each holds its reader until the other has its
    /// own), so that both readers are used.
    static func readersAreIdle(_ pool: DatabasePool, _ context: String) {
        let entered = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let done = DispatchSemaphore(value: 0)
        let problems = Problems()
        for index in 0..<2 {
            Thread {
                defer { done.signal() }
                do {
                    let inside = try pool.unsafeRead { db in
                        entered[index].signal()
                        if entered[1 - index].wait(timeout: .now() + 10) == .timedOut {
                            problems.add("the other reader did not start")
                        }
                        return db.isInsideTransaction
                    }
                    if inside { problems.add("a reader is left inside a transaction") }
                } catch {
                    problems.add("\(error)")
                    entered[index].signal()
                }
            }.start()
        }
        for _ in 0..<2 where done.wait(timeout: .now() + 20) == .timedOut {
            problems.add("a read did not end")
        }
        for problem in problems.list.withLock({ $0 }) {
            Issue.record("\(context): \(problem)")
        }
    }

    @Test(arguments: poolScenarios)
    func everyIOFaultOfAPoolIsAnErrorAndLeaksNothing(_ scenario: PoolScenario) throws {
        #expect(grdblite_fault_vfs_register() == SQLITE_OK)
        #expect(grdblite_fault_vfs_open_file_count() == 0)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let states = try Self.referenceStates(at: directory.path("reference.sqlite"))
        #expect(Set(states).count == states.count)
        let kind = scenario.diskFull ? GRDBLiteIOFaultDiskFull : GRDBLiteIOFaultError
        let allowedCodes: [ResultCode] =
            scenario.diskFull ? [.SQLITE_FULL] : Self.injectedCodes + [.SQLITE_BUSY]

        var faultPoints = 0
        var faults = 0
        var errors: [String: Int] = [:]
        var failedSteps: [String: Int] = [:]
        var closeFailures = 0
        var hits: [String: Int] = [:]  // step, operation, outcome
        var recoveries: [String: Int] = [:]
        Self.refusedCloses.store(0, ordering: .relaxed)
        // Every third fault point of the I/O-error modes by default (a seeded
        // offset: each run covers other points; 256 of 768 points), every
        // point with GRDBLITE_RELIABILITY_SCALE=3 or more, and in disk-full
        // modes (267 points).
        let (random, seed) = SeededGenerator.fromEnvironment()
        let step = scenario.diskFull || reliabilityScale >= 3 ? 1 : 3
        let first = 1 + Int(random.state % UInt64(step))
        for countdown in stride(from: first, through: 100_000, by: step) {
            let path = directory.path("db-\(countdown).sqlite")
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            var pool: DatabasePool?
            var committed = 0  // the index of the last state the pool saw committed
            var failed: PoolStep?
            var closed = false
            var trace = FaultTrace()
            grdblite_fault_vfs_arm(Int32(countdown), scenario.persistent ? 1 : 0, kind)
            let result = Result {
                pool = try trace.run("open") {
                    try DatabasePool(path: "file:\(path)?vfs=grdblite-fault", configuration: Self.poolConfiguration())
                }
                for step in Self.poolSteps {
                    failed = step
                    try trace.run(step.name) { try step.run(pool!, states, committed) }
                    committed += step.commits
                }
                failed = nil
                closed = true
            }
            let injected = Int(grdblite_fault_vfs_fault_count())
            grdblite_fault_vfs_disarm()
            let context = "\(scenario.testDescription), fault at I/O operation \(countdown)"

            if injected == 0 {
                // The workload ran without reaching the fault: all points are covered.
                #expect(throws: Never.self, "\(context)") { try result.get() }
                #expect(committed == states.count - 1, "\(context)")
                #expect(grdblite_fault_vfs_open_file_count() == 0, "\(context): files left open")
                break
            }
            faultPoints += 1
            faults += injected
            // The fault surfaced from the step it hit, or SQLite documents
            // its recovery.
            trace.expectSurfaced(context, hits: &hits, recoveries: &recoveries)
            switch result {
            case .success:
                break  // SQLite retried or ignored a transient fault.
            case .failure(let error as DatabaseError):
                // By extended code: the messages of a failed open name the file.
                errors["\(error.extendedResultCode.rawValue)", default: 0] += 1
                failedSteps[failed?.name ?? "open", default: 0] += 1
                #expect(
                    allowedCodes.contains(error.extendedResultCode),
                    "\(context), step \(failed?.name ?? "open"): \(error)")
            case .failure(let error):
                Issue.record("\(context): not a DatabaseError: \(error)")
            }

            // The snapshots a step could not close close now.
            for snapshot in Self.snapshotsToClose.withLock({ $0 }) {
                #expect(throws: Never.self, "\(context): snapshot close") { try snapshot.close() }
            }
            Self.snapshotsToClose.withLock { $0.removeAll() }

            // The pool that saw the fault keeps working.
            var lastSeen = committed
            let pending = failed?.commits ?? 0
            if let pool, !closed {
                if failed?.name == "close" { closeFailures += 1 }
                Self.readersAreIdle(pool, context)
                let state = try pool.read(Self.poolState)
                if let index = states.firstIndex(of: state), (committed...committed + pending).contains(index) {
                    lastSeen = index
                } else {
                    let seen = states.firstIndex(of: state) ?? -1
                    Issue.record(
                        "\(context), step \(failed?.name ?? "-"): state \(seen), not \(committed)...\(committed + pending)")
                }
                #expect(try pool.read(Self.migrationsMatchTables), "\(context)")
                try pool.write { db in
                    try db.execute(sql: "CREATE TABLE probe (x)")
                    try db.execute(sql: "DROP TABLE probe")
                }
                #expect(try pool.read(Self.poolState) == state, "\(context)")
                try pool.close()
            }
            #expect(grdblite_fault_vfs_open_file_count() == 0, "\(context): files left open")
            let opened = pool != nil
            pool = nil

            // The file is sound, and holds what the pool last saw.
            let reopened = try DatabasePool(path: path)
            let integrity = try reopened.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"], "\(context)")
            let state = try reopened.read(Self.poolState)
            if !opened {
                // The pool did not open: nothing was committed.
                #expect(state == states[0], "\(context)")
            } else {
                #expect(state == states[lastSeen], "\(context): saw state \(states.firstIndex(of: state) ?? -1)")
            }
            #expect(try reopened.read(Self.migrationsMatchTables), "\(context)")
            try reopened.close()
        }
        #expect(faultPoints >= 200, "\(scenario.testDescription): \(faultPoints) fault points")
        // The refused close ran at fault points after the faults too.
        #expect(Self.refusedCloses.load(ordering: .relaxed) > 0, "\(scenario.testDescription): no refused close")
        // The check can fail: faults hit steps that threw.
        #expect(hits.contains { $0.key.hasSuffix(" threw") && $0.key.hasPrefix("checkpoint ") })
        print("""
            PoolIOFaultInjectionTests \(scenario.testDescription): \(faultPoints) fault points (every \(step) \
            from \(first), seed \(seed)), \(faults) faults \
            injected, \(closeFailures) failed closes, \(Self.refusedCloses.load(ordering: .relaxed)) refused \
            closes (a statement alive); failed steps: \
            \(failedSteps.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", ")); \
            errors: \(errors.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "; ")); \
            first fault by step, operation, outcome: \
            \(hits.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", ")); \
            recovered as SQLite documents: \
            \(recoveries.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "; "))
            """)
    }
}
