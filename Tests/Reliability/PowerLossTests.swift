import CFaultInjection
import Foundation
import GRDBLite
import Testing
import TestSupport

/// Power loss, not just process death: a SIGKILL (CrashSafetyTests) leaves
/// the operating system's page cache intact, so it can't tell whether the
/// commits were synced. Here a VFS ("grdblite-powerloss", see
/// CFaultInjection.h) keeps what a disk would hold as of each file's last
/// sync, cuts the power at a chosen sync, and writes the disk image that
/// the cut could leave: unsynced 512-byte sectors kept, dropped or torn.
///
/// A workload of 5 transactions (a row with its number and 3 pages of
/// data each) runs in 4 configurations: rollback journal (DELETE),
/// TRUNCATE journal, WAL through a `DatabaseQueue`, WAL through a
/// `DatabasePool` that reads after each commit and checkpoints in the
/// middle. An unarmed run counts its sync points; then the power is cut at
/// each of them and after the workload, with 15 seeds per point
/// (× `GRDBLITE_RELIABILITY_SCALE`): about 800 cuts in all.
/// After each cut, the image must pass `PRAGMA integrity_check` and hold
/// rows 1...N exactly, each complete, with N the last acknowledged commit
/// (its `write` returned) or the one after (it was durable but its `write`
/// did not return).
///
/// The self-check runs the same workloads with `PRAGMA synchronous = OFF`,
/// cut at random writes: they must lose a commit or break the file.
/// `GRDBLITE_SEED` replays a run of the main test.
@Suite(.serialized) struct PowerLossTests {
    enum Mode: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case delete, truncate, walQueue, walPool
        var testDescription: String { rawValue }
    }

    static let transactionCount = 5

    /// The image seeds per sync point (times the reliability scale).
    static let seedsPerSyncPoint = 15

    /// The payload of row `id`: 3 pages, so that each commit writes several
    /// pages and many sectors.
    static func payload(_ id: Int) -> Data {
        id >= 1 && id <= payloads.count ? payloads[id - 1] : Data()
    }

    /// The payloads, made once: debug builds are slow to make them.
    static let payloads = (1...transactionCount).map { id in
        Data((0..<(3 * 4096)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ id) })
    }

    static func configuration(_ mode: Mode) -> Configuration {
        var config = Configuration()
        switch mode {
        case .delete:
            break
        case .truncate:
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = TRUNCATE") }
        case .walQueue, .walPool:
            config.journalMode = .wal
        }
        return config
    }

    /// A database with the schema and no row, written through the default
    /// VFS: each run starts from a copy.
    static func makeTemplate(_ mode: Mode, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("template-\(mode.rawValue).sqlite")
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(mode))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        }
        try dbQueue.close()
        return path
    }

    /// Where the power is cut.
    enum Cut {
        case none
        case atSync(Int)
        case atWrite(Int)
        /// After the workload (closed): the state it left.
        case atEnd
    }

    struct RunResult {
        /// The last transaction whose `write` returned.
        var acknowledged = 0
        /// Whether the power was cut.
        var didCut = false
        var syncCount = 0
        var writeCount = 0
        /// An error thrown while the power was on.
        var unexpectedError: (any Error)?
        /// The image of the disk after the cut (the database itself when
        /// the power was not cut).
        var imagePath: String
    }

    /// Runs the workload through the power-loss VFS on a copy of the
    /// template in `runDirectory`, cut as `cut` says.
    static func run(
        _ mode: Mode, template: String, in runDirectory: URL, cut: Cut, seed: UInt32, synchronousOff: Bool = false
    ) throws -> RunResult {
        let imageDirectory = runDirectory.appendingPathComponent("image")
        try FileManager.default.createDirectory(at: imageDirectory, withIntermediateDirectories: true)
        let path = runDirectory.appendingPathComponent("db.sqlite").path
        try FileManager.default.copyItem(atPath: template, toPath: path)
        let armed: Int32
        switch cut {
        case .none: armed = grdblite_powerloss_arm(0, seed, nil)
        case .atSync(let sync): armed = grdblite_powerloss_arm(Int32(sync), seed, imageDirectory.path)
        case .atWrite(let write): armed = grdblite_powerloss_arm_at_write(Int32(write), seed, imageDirectory.path)
        case .atEnd: armed = grdblite_powerloss_arm(0, seed, imageDirectory.path)
        }
        defer { grdblite_powerloss_disarm() }
        try #require(armed == SQLITE_OK)

        var result = RunResult(imagePath: imageDirectory.appendingPathComponent("db.sqlite").path)
        if case .none = cut { result.imagePath = path }
        var database: (any DatabaseWriter)?
        do {
            let uri = "file:\(path)?vfs=grdblite-powerloss"
            let config = configuration(mode)
            database = mode == .walPool
                ? try DatabasePool(path: uri, configuration: config)
                : try DatabaseQueue(path: uri, configuration: config)
            if synchronousOff {
                try database!.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
            }
            for id in 1...transactionCount {
                try database!.write { db in
                    try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, ?)", arguments: [id, payload(id)])
                }
                result.acknowledged = id
                if mode == .walPool {
                    let count = try database!.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
                    if count != id { result.unexpectedError = Violation(description: "a read saw \(count ?? -1) rows") }
                    if id == 3 { _ = try database!.writeWithoutTransaction { db in try db.checkpoint() } }
                }
            }
            // Closing is part of the workload: the last connection of a WAL
            // database checkpoints and deletes the WAL.
            try database!.close()
        } catch {
            // After the cut, every I/O fails: errors are expected.
            if grdblite_powerloss_did_cut() == 0 { result.unexpectedError = error }
        }
        try? database?.close()
        database = nil
        if case .atEnd = cut { grdblite_powerloss_cut_now() }
        result.didCut = grdblite_powerloss_did_cut() != 0
        result.syncCount = Int(grdblite_powerloss_sync_count())
        result.writeCount = Int(grdblite_powerloss_write_count())
        #expect(grdblite_powerloss_model_error() == 0, "the power-loss model failed (out of memory, or the image)")
        return result
    }

    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    /// Checks the image of the disk: it opens, passes `integrity_check`,
    /// and holds rows 1...N, each with its payload. Returns N.
    static func verify(imagePath: String) throws -> Int {
        let dbQueue = try DatabaseQueue(path: imagePath)
        defer { try? dbQueue.close() }
        let integrity = try dbQueue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        guard integrity == ["ok"] else {
            throw Violation(description: "integrity_check: \(integrity.prefix(3).joined(separator: "; "))")
        }
        let rows = try dbQueue.read { db in try Row.fetchAll(db, sql: "SELECT id, payload FROM t ORDER BY id") }
        for (index, row) in rows.enumerated() {
            let id: Int = row["id"]
            guard id == index + 1 else {
                throw Violation(description: "rows \(rows.map { $0["id"] as Int }), not 1...N")
            }
            guard row["payload"] as Data == payload(id) else { throw Violation(description: "row \(id) is damaged") }
        }
        return rows.count
    }

    /// Checks a run: the image holds the acknowledged commits, and at most
    /// one more. Returns the number of rows, or what is wrong.
    static func check(_ result: RunResult) -> Result<Int, Violation> {
        do {
            let rows = try verify(imagePath: result.imagePath)
            if rows < result.acknowledged {
                return .failure(Violation(description: "acknowledged commit \(result.acknowledged) lost: \(rows) rows"))
            }
            if rows > result.acknowledged + 1 {
                return .failure(
                    Violation(description: "\(rows) rows after \(result.acknowledged) acknowledged commits"))
            }
            return .success(rows)
        } catch {
            return .failure(Violation(description: "\(error)"))
        }
    }

    @Test(arguments: Mode.allCases)
    func acknowledgedCommitsSurvivePowerLoss(mode: Mode) throws {
        #expect(grdblite_powerloss_vfs_register() == SQLITE_OK)
        var (random, seed) = SeededGenerator.fromEnvironment()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let template = try Self.makeTemplate(mode, in: directory)

        // The unarmed run: every transaction commits, and the syncs are counted.
        let dry = try Self.run(
            mode, template: template, in: directory.url.appendingPathComponent("dry"), cut: .none, seed: 0)
        #expect(dry.unexpectedError == nil, "\(String(describing: dry.unexpectedError))")
        #expect(dry.acknowledged == Self.transactionCount && !dry.didCut)
        #expect(try Self.check(dry).get() == Self.transactionCount)
        let syncPoints = dry.syncCount
        #expect(syncPoints >= Self.transactionCount, "at least one sync per commit (synchronous = FULL)")

        let seedsPerPoint = Self.seedsPerSyncPoint * reliabilityScale
        var runs = 0
        var durableUnacknowledged = 0   // runs whose image holds a commit whose `write` did not return
        var failures = 0
        // Each sync point, then the end of the workload (after its last
        // sync come deletes, as the WAL's on close).
        for syncPoint in 1...(syncPoints + 1) {
            for _ in 0..<seedsPerPoint {
                let runSeed = UInt32(truncatingIfNeeded: random.next())
                let point = syncPoint > syncPoints ? "after the workload" : "at sync \(syncPoint) of \(syncPoints)"
                let context = "\(mode), cut \(point), image seed \(runSeed) (GRDBLITE_SEED=\(seed))"
                let runDirectory = directory.url.appendingPathComponent("run-\(runs)")
                defer { try? FileManager.default.removeItem(at: runDirectory) }
                let result = try Self.run(
                    mode, template: template, in: runDirectory,
                    cut: syncPoint > syncPoints ? .atEnd : .atSync(syncPoint), seed: runSeed)
                runs += 1
                if syncPoint > syncPoints {
                    #expect(result.acknowledged == Self.transactionCount, "\(context)")
                }
                #expect(result.unexpectedError == nil, "\(context): \(String(describing: result.unexpectedError))")
                #expect(result.didCut, "\(context): the workload never reached the sync")
                switch Self.check(result) {
                case .success(let rows):
                    if rows > result.acknowledged { durableUnacknowledged += 1 }
                case .failure(let violation):
                    failures += 1
                    Issue.record("\(context): \(violation)")
                }
            }
        }
        // A loop that ran nothing can't pass.
        #expect(runs == (syncPoints + 1) * seedsPerPoint)
        #expect(runs >= Self.transactionCount * Self.seedsPerSyncPoint)
        print("""
            PowerLossTests \(mode): \(runs) power cuts (\(syncPoints) sync points and the end \
            × \(seedsPerPoint) seeds), \
            \(failures) failures, \(durableUnacknowledged) images with a commit made durable before its \
            write returned (GRDBLITE_SEED=\(seed))
            """)
    }

    /// The harness can fail: without syncs, a power cut must lose an
    /// acknowledged commit or break the file. The cut lands at random
    /// writes (there is no sync), drawn from a fixed seed so that the check
    /// is deterministic.
    @Test(arguments: Mode.allCases)
    func synchronousOffFailsTheCheck(mode: Mode) throws {
        #expect(grdblite_powerloss_vfs_register() == SQLITE_OK)
        var random = SeededGenerator(seed: 45)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let template = try Self.makeTemplate(mode, in: directory)

        let dry = try Self.run(
            mode, template: template, in: directory.url.appendingPathComponent("dry"), cut: .none, seed: 0,
            synchronousOff: true)
        #expect(dry.unexpectedError == nil, "\(String(describing: dry.unexpectedError))")
        // No sync after the setting. A pool syncs twice as it opens, before
        // the setting: it commits a transaction that fills the WAL (the
        // WAL header, then the commit; see `setUpWALMode`).
        #expect(dry.syncCount == (mode == .walPool ? 2 : 0), "synchronous = OFF never syncs")
        #expect(dry.writeCount > Self.transactionCount)

        let runs = 40
        var failures = 0
        for index in 0..<runs {
            let write = Int.random(in: 1...dry.writeCount, using: &random)
            let result = try Self.run(
                mode, template: template, in: directory.url.appendingPathComponent("run-\(index)"),
                cut: .atWrite(write), seed: UInt32(truncatingIfNeeded: random.next()), synchronousOff: true)
            #expect(result.unexpectedError == nil)
            #expect(result.didCut)
            if case .failure = Self.check(result) { failures += 1 }
        }
        print("""
            PowerLossTests \(mode), synchronous = OFF: \(failures) of \(runs) power cuts failed the check \
            (\(dry.syncCount) syncs)
            """)
        #expect(failures > 0, "the check never failed with synchronous = OFF: it can't catch a missing sync")
    }

    /// Blocks readers until `count` of them are inside a read at once,
    /// which takes `count` reader connections, and collects their values.
    // unsafe: @unchecked Sendable because every property is read and written
    // with `condition` held.
    final class Rendezvous: @unchecked Sendable {
        private let condition = NSCondition()
        private let count: Int
        private var arrived = 0
        private var values: [Int] = []
        private var timeouts = 0

        init(count: Int) { self.count = count }

        /// Records `value`, then waits up to 10 seconds for the others.
        func arrive(with value: Int) {
            condition.lock()
            defer { condition.unlock() }
            values.append(value)
            arrived += 1
            condition.broadcast()
            let deadline = Date().addingTimeInterval(10)
            while arrived < count {
                if !condition.wait(until: deadline) {
                    timeouts += 1
                    return
                }
            }
        }

        /// The values, and whether every reader met the others.
        var result: (values: [Int], allMet: Bool) {
            condition.lock()
            defer { condition.unlock() }
            return (values, timeouts == 0)
        }
    }

    static func synchronous(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
    }

    /// GRDBLite keeps SQLite's `synchronous` setting, FULL (2) in Debian's
    /// SQLite, on every connection it opens, in WAL mode too
    /// (DatabaseConnections.md, "What is kept"; DifferencesFromGRDB.md).
    @Test func everyConnectionSyncsFully() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let full = 2

        let dbQueue = try DatabaseQueue(path: directory.path("queue.sqlite"))
        #expect(try dbQueue.read(Self.synchronous) == full)
        #expect(try dbQueue.writeWithoutTransaction(Self.synchronous) == full)
        try dbQueue.close()

        var walConfig = Configuration()
        walConfig.journalMode = .wal
        let walQueue = try DatabaseQueue(path: directory.path("wal.sqlite"), configuration: walConfig)
        #expect(try walQueue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try walQueue.read(Self.synchronous) == full)
        #expect(try walQueue.writeWithoutTransaction(Self.synchronous) == full)
        try walQueue.close()

        let pool = try DatabasePool(path: directory.path("pool.sqlite"))
        #expect(try pool.writeWithoutTransaction { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try pool.writeWithoutTransaction(Self.synchronous) == full)
        // Readers inside `read` at once: each on its own connection.
        let readers = 4
        let rendezvous = Rendezvous(count: readers)
        let done = DispatchGroup()
        for _ in 0..<readers {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    try pool.read { db in
                        let value = try Self.synchronous(db)
                        rendezvous.arrive(with: value)
                    }
                } catch {
                    Issue.record("read: \(error)")
                }
            }.start()
        }
        done.wait()
        let (values, allMet) = rendezvous.result
        #expect(allMet, "the \(readers) reads did not run at once, on \(readers) connections")
        #expect(values == Array(repeating: full, count: readers))
        try pool.close()
    }
}
