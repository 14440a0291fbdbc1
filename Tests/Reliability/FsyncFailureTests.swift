import CFaultInjection
import Foundation
import GRDBLite
import Testing
import TestSupport

/// A failed fsync, as Linux fails it, then a power cut: the power-loss VFS
/// fails one sync with SQLITE_IOERR_FSYNC and drops the file's unsynced
/// writes from the disk while the page cache keeps them; later syncs
/// succeed (`grdblite_powerloss_fail_sync`). The workload of
/// `PowerLossTests` (5 transactions of a row each, in 4 configurations)
/// goes on after a failed transaction. Each sync point of the workload
/// fails in turn; the power is then cut after the workload, and at each
/// of the next 3 syncs, with 4 image seeds each. Checked:
///
/// - the step whose sync failed (a `write`, the pool's checkpoint) threw
///   `SQLITE_IOERR_FSYNC`, unless it is the close (SQLite ignores the
///   errors of the checkpoint it runs on close: sqlite3PagerClose returns
///   SQLITE_OK), and nothing else failed;
/// - the image passes `integrity_check`, holds every acknowledged row
///   intact, no row whose `write` failed, and at most the row whose
///   `write` the cut interrupted.
///
/// What SQLite does, and the test documents: in TRUNCATE journal mode,
/// the commit point is the truncate of the journal, and the sync after it
/// can fail. COMMIT then reports SQLITE_IOERR_FSYNC, but the connection
/// reads the row (the page cache holds the truncated journal), while the
/// disk still holds the whole journal. A power cut then rolls the
/// "failed" commit back, or, once the next transaction wrote a new
/// journal over the stale one, breaks the file (`integrity_check` fails,
/// SQLITE_CORRUPT) or loses acknowledged commits: SQLite can't recover
/// from a sync that dropped writes. GRDBLite reports the failed commit
/// (SQLITE_IOERR_FSYNC) and can do no more. Such runs (a failed write
/// whose row the connection reads) are counted and printed as SQLite's
/// losses, and must be TRUNCATE runs; every other run must pass. DELETE
/// and WAL pass: their commit points are the journal's delete (durable at
/// once in the model) and the WAL's sync.
///
/// An extension of `PowerLossTests`: the VFS is global, and that suite
/// runs one test at a time.
extension PowerLossTests {
    struct FailedSyncRun {
        var acknowledged: Set<Int> = []
        var failed: Set<Int> = []
        /// Rows whose `write` failed after the commit point: the
        /// connection reads them, but they were never acknowledged.
        var committedDespiteError: Set<Int> = []
        /// The row whose `write` the cut interrupted.
        var interrupted: Int?
        var didCut = false
        var syncCount = 0
        /// Steps whose sync failed and that returned success anyway.
        var silentSteps: [String] = []
        /// Errors that are not the failed sync's.
        var unexpectedErrors: [String] = []
        var imagePath: String
    }

    /// Runs the workload with the `failAt`-th sync failing, then cuts the
    /// power as `cut` says.
    static func runWithFailedSync(
        _ mode: Mode, template: String, in runDirectory: URL, failAt: Int, cut: Cut, seed: UInt32
    ) throws -> FailedSyncRun {
        let imageDirectory = runDirectory.appendingPathComponent("image")
        try FileManager.default.createDirectory(at: imageDirectory, withIntermediateDirectories: true)
        let path = runDirectory.appendingPathComponent("db.sqlite").path
        try FileManager.default.copyItem(atPath: template, toPath: path)
        let armed: Int32
        switch cut {
        case .atSync(let sync): armed = grdblite_powerloss_arm(Int32(sync), seed, imageDirectory.path)
        default: armed = grdblite_powerloss_arm(0, seed, imageDirectory.path)
        }
        defer { grdblite_powerloss_disarm() }
        try #require(armed == SQLITE_OK)
        grdblite_powerloss_fail_sync(Int32(failAt))

        var run = FailedSyncRun(imagePath: imageDirectory.appendingPathComponent("db.sqlite").path)
        var database: (any DatabaseWriter)?
        /// Runs a step: an error is the failed sync's (`SQLITE_IOERR_FSYNC`
        /// from the step whose sync failed), or comes after the cut.
        func step(_ name: String, _ body: () throws -> Void) -> Bool {
            let failedBefore = grdblite_powerloss_sync_failed() != 0
            do {
                try body()
                if !failedBefore && grdblite_powerloss_sync_failed() != 0 && grdblite_powerloss_did_cut() == 0
                    && name != "close"
                {
                    run.silentSteps.append(name)
                }
                return true
            } catch {
                if grdblite_powerloss_did_cut() != 0 { return false }
                let isFailedSync = !failedBefore && grdblite_powerloss_sync_failed() != 0
                    && (error as? DatabaseError)?.extendedResultCode == .SQLITE_IOERR_FSYNC
                if !isFailedSync { run.unexpectedErrors.append("\(name): \(error)") }
                return false
            }
        }
        let uri = "file:\(path)?vfs=grdblite-powerloss"
        let config = configuration(mode)
        let opened = step("open") {
            database = mode == .walPool
                ? try DatabasePool(path: uri, configuration: config)
                : try DatabaseQueue(path: uri, configuration: config)
        }
        if opened, let database {
            for id in 1...transactionCount where grdblite_powerloss_did_cut() == 0 {
                let committed = step("write \(id)") {
                    try database.write { db in
                        try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, ?)", arguments: [id, payload(id)])
                    }
                }
                if committed {
                    run.acknowledged.insert(id)
                } else if grdblite_powerloss_did_cut() != 0 {
                    run.interrupted = id
                } else {
                    // SQLite reports an error after the commit point as
                    // COMMIT's (in TRUNCATE mode, the sync of the truncated
                    // journal): the connection then reads the row.
                    var visible = false
                    _ = step("read \(id)") {
                        visible = try database.read { db in
                            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM t WHERE id = ?)", arguments: [id])
                        } ?? false
                    }
                    if visible {
                        run.committedDespiteError.insert(id)
                    } else {
                        run.failed.insert(id)
                    }
                }
                if mode == .walPool && id == 3 {
                    _ = step("checkpoint") { _ = try database.writeWithoutTransaction { db in try db.checkpoint() } }
                }
            }
            _ = step("close") { try database.close() }
        }
        try? database?.close()
        database = nil
        if case .atEnd = cut { grdblite_powerloss_cut_now() }
        run.didCut = grdblite_powerloss_did_cut() != 0
        run.syncCount = Int(grdblite_powerloss_sync_count())
        #expect(grdblite_powerloss_sync_failed() != 0, "the sync \(failAt) never came")
        #expect(grdblite_powerloss_model_error() == 0, "the power-loss model failed (out of memory, or the image)")
        return run
    }

    /// Checks the image after a run: sound, every acknowledged row intact,
    /// no failed row, at most the interrupted one besides.
    static func violations(of run: FailedSyncRun) -> [String] {
        var violations = run.unexpectedErrors.map { "unexpected error: \($0)" }
        violations += run.silentSteps.map { "\($0): its sync failed, and it returned success" }
        do {
            guard FileManager.default.fileExists(atPath: run.imagePath) else {
                return violations + (run.acknowledged.isEmpty ? [] : ["the database is gone"])
            }
            let dbQueue = try DatabaseQueue(path: run.imagePath)
            defer { try? dbQueue.close() }
            let integrity = try dbQueue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            if integrity != ["ok"] { violations.append("integrity_check: \(integrity.prefix(3))") }
            let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT id, payload FROM t ORDER BY id") }
            let ids = Set(rows.map { $0["id"] as Int })
            if !run.acknowledged.isSubset(of: ids) {
                violations.append("acknowledged rows \(run.acknowledged.subtracting(ids).sorted()) lost")
            }
            if !ids.isDisjoint(with: run.failed) {
                violations.append("rows \(ids.intersection(run.failed).sorted()) whose write failed are durable")
            }
            let extra = ids.subtracting(run.acknowledged).subtracting(run.failed).subtracting(run.committedDespiteError)
                .subtracting(run.interrupted.map { [$0] } ?? [])
            if !extra.isEmpty { violations.append("rows \(extra.sorted()) never written") }
            for row in rows where row["payload"] as Data != payload(row["id"]) {
                violations.append("row \(row["id"] as Int) is damaged")
            }
        } catch {
            violations.append("\(error)")
        }
        return violations
    }

    @Test(arguments: Mode.allCases)
    func failedSyncThenPowerLossLosesNoAcknowledgedCommit(mode: Mode) throws {
        #expect(grdblite_powerloss_vfs_register() == SQLITE_OK)
        var (random, seed) = SeededGenerator.fromEnvironment()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let template = try Self.makeTemplate(mode, in: directory)
        let dry = try Self.run(
            mode, template: template, in: directory.url.appendingPathComponent("dry"), cut: .none, seed: 0)
        let syncPoints = dry.syncCount
        #expect(syncPoints >= Self.transactionCount)

        var runs = 0
        var failures = 0
        var failedWrites = 0
        var committedDespiteError = 0
        var sqliteLosses = 0  // runs broken after a failed sync past the commit point
        let seedsPerCut = 4
        for failAt in 1...syncPoints {
            for cutIndex in 0...3 {
                for _ in 0..<seedsPerCut {
                    let runSeed = UInt32(truncatingIfNeeded: random.next())
                    let cut: Cut = cutIndex == 0 ? .atEnd : .atSync(failAt + cutIndex)
                    let context = "\(mode), sync \(failAt) of \(syncPoints) fails, cut "
                        + (cutIndex == 0 ? "after the workload" : "at sync \(failAt + cutIndex)")
                        + ", image seed \(runSeed) (GRDBLITE_SEED=\(seed))"
                    let runDirectory = directory.url.appendingPathComponent("run-\(runs)")
                    defer { try? FileManager.default.removeItem(at: runDirectory) }
                    let run = try Self.runWithFailedSync(
                        mode, template: template, in: runDirectory, failAt: failAt, cut: cut, seed: runSeed)
                    runs += 1
                    failedWrites += run.failed.count + run.committedDespiteError.count
                    committedDespiteError += run.committedDespiteError.count
                    // A cut at a sync the shorter run never made is a cut
                    // after the workload, which `atEnd` covers.
                    if !run.didCut { continue }
                    let violations = Self.violations(of: run)
                    if !run.committedDespiteError.isEmpty {
                        // SQLite's own loss (see above).
                        if !violations.isEmpty { sqliteLosses += 1 }
                        #expect(mode == .truncate, "\(context): a failed write's row was visible")
                        continue
                    }
                    for violation in violations {
                        failures += 1
                        Issue.record("\(context): \(violation)")
                    }
                }
            }
        }
        #expect(runs == syncPoints * 4 * seedsPerCut)
        #expect(failedWrites > 0, "no write failed: the failed syncs never reached a commit")
        print("""
            FsyncFailureTests \(mode): \(runs) runs (\(syncPoints) failed sync points × the end and 3 later syncs \
            × \(seedsPerCut) seeds), \(failedWrites) failed writes (\(committedDespiteError) committed after the \
            commit point, reported failed; \(sqliteLosses) runs after them lost a commit or broke the file, as SQLite \
            does), \(failures) violations (GRDBLITE_SEED=\(seed))
            """)
    }
}
