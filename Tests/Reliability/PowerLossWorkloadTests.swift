import CFaultInjection
import Foundation
import GRDBLite
import Testing
import TestSupport

/// Power loss during random workloads (`PowerLossWorkload`: transactions
/// with savepoints, migrations, checkpoints, reads), on a disk whose
/// directories are modelled (a new journal is absent after a cut until its
/// directory is synced; a deleted one may come back) and whose sectors are
/// 512 bytes with powersafe overwrite, or 4096 bytes without (a torn sector
/// is garbage whole), as the VFS reports them. Each workload's syncs are
/// counted by an unarmed run; then the power is cut at random sync points
/// and after the workload. After each cut, the image must open, pass
/// `integrity_check`, be exactly the model's state after some commit K
/// (no torn transaction, no partial migration: the migrator's table
/// matches the tables), with K the acknowledged commits or one more, and
/// the migrator must then complete.
///
/// What SQLite does, and the test documents: in DELETE journal mode at
/// `synchronous = FULL` (GRDBLite's default, SQLite's), the journal is
/// deleted without a sync of its directory, so a cut soon after a commit
/// may bring the journal back, and SQLite rolls the commit back (a hot
/// journal). The last acknowledged commit is then lost, whole; SQLite
/// documents it (`synchronous = EXTRA` syncs the directory). Those runs
/// are counted and printed, and must be exactly that: one commit lost, and
/// a journal in the image that the page cache had deleted. At EXTRA, and
/// in the other modes, nothing acknowledged may be lost.
///
/// An extension of `PowerLossTests`: the VFS is global, and that suite
/// runs one test at a time. `GRDBLITE_SEED` replays a run.
extension PowerLossTests {
    enum WorkloadMode: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case deleteFull, deleteExtra, truncate, walQueue, walPool
        var testDescription: String { rawValue }
        var isWAL: Bool { self == .walQueue || self == .walPool }
    }

    /// A fault the self-checks plant in the configuration.
    enum Weakening: Sendable {
        case none
        case synchronousOff
        case walNormal
    }

    static func workloadConfiguration(_ mode: WorkloadMode, weakening: Weakening = .none) -> Configuration {
        var config = Configuration()
        if mode.isWAL { config.journalMode = .wal }
        config.prepareDatabase { db in
            switch mode {
            case .deleteExtra: try db.execute(sql: "PRAGMA synchronous = EXTRA")
            case .truncate: try db.execute(sql: "PRAGMA journal_mode = TRUNCATE")
            default: break
            }
            switch weakening {
            case .none: break
            case .synchronousOff: try db.execute(sql: "PRAGMA synchronous = OFF")
            case .walNormal: try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
        }
        return config
    }

    /// The disk: 512-byte sectors with powersafe overwrite, or 4096-byte
    /// sectors without, reported as they are.
    static func disk(sectorSize: Int) -> GRDBLitePowerLossDisk {
        let powersafe = sectorSize == 512
        return GRDBLitePowerLossDisk(
            sectorSize: Int32(sectorSize), powersafeOverwrite: powersafe ? 1 : 0, directories: 1,
            directorySyncs: 1, reportedSectorSize: Int32(sectorSize),
            reportedCharacteristics: powersafe ? SQLITE_IOCAP_POWERSAFE_OVERWRITE : 0)
    }

    /// The configuration of the files written outside the power-loss VFS
    /// (templates, the images as they are checked): scratch files, which
    /// real syncs would only slow down.
    static var unsyncedConfiguration: Configuration {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = OFF") }
        return config
    }

    /// A database with the workload's schema, page size and journal mode,
    /// and no row, written through the default VFS.
    static func makeWorkloadTemplate(
        _ mode: WorkloadMode, workload: PowerLossWorkload, at path: String
    ) throws {
        let dbQueue = try DatabaseQueue(path: path, configuration: unsyncedConfiguration)
        try dbQueue.writeWithoutTransaction { db in
            // The page size first: a WAL database can't change it.
            try db.execute(sql: "PRAGMA page_size = \(workload.pageSize)")
            if mode.isWAL { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, payload BLOB NOT NULL);
                CREATE TABLE meta (commits INTEGER NOT NULL);
                INSERT INTO meta (commits) VALUES (0);
                """)
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size")
            try #require(pageSize == workload.pageSize)
        }
        try dbQueue.close()
    }

    struct WorkloadRun {
        var acknowledged = 0
        var didCut = false
        var syncCount = 0
        var writeCount = 0
        var directorySyncCount = 0
        /// Files of the image that the page cache had deleted or replaced.
        var resurrected = 0
        var unexpectedError: (any Error)?
        var imagePath: String
    }

    /// Runs `workload` through the power-loss VFS on a copy of `template`
    /// in `runDirectory`, on `disk`, cut as `cut` says.
    static func runWorkload(
        _ workload: PowerLossWorkload, snapshots: [PowerLossWorkload.State], mode: WorkloadMode,
        weakening: Weakening = .none, disk: GRDBLitePowerLossDisk, template: String, in runDirectory: URL,
        cut: Cut, seed: UInt32
    ) throws -> WorkloadRun {
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
        try #require(grdblite_powerloss_configure(disk) == SQLITE_OK)

        var result = WorkloadRun(imagePath: imageDirectory.appendingPathComponent("db.sqlite").path)
        if case .none = cut { result.imagePath = path }
        var database: (any DatabaseWriter)?
        do {
            let uri = "file:\(path)?vfs=grdblite-powerloss"
            let config = workloadConfiguration(mode, weakening: weakening)
            database = mode == .walPool
                ? try DatabasePool(path: uri, configuration: config)
                : try DatabaseQueue(path: uri, configuration: config)
            try workload.run(on: database!, snapshots: snapshots) { result.acknowledged = $0 }
            try database!.close()
        } catch {
            if grdblite_powerloss_did_cut() == 0 { result.unexpectedError = error }
        }
        try? database?.close()
        database = nil
        if case .atEnd = cut { grdblite_powerloss_cut_now() }
        result.didCut = grdblite_powerloss_did_cut() != 0
        result.syncCount = Int(grdblite_powerloss_sync_count())
        result.writeCount = Int(grdblite_powerloss_write_count())
        result.directorySyncCount = Int(grdblite_powerloss_directory_sync_count())
        result.resurrected = Int(grdblite_powerloss_resurrected_count())
        #expect(grdblite_powerloss_model_error() == 0, "the power-loss model failed (out of memory, or the image)")
        return result
    }

    /// How an image compares with the model.
    enum WorkloadOutcome {
        /// The state after `commits` commits, the acknowledged or one more.
        case whole(commits: Int)
        /// The last acknowledged commit rolled back by a journal that came
        /// back: SQLite's documented behaviour at FULL in DELETE mode.
        case journalCameBack
        case violation(String)
    }

    /// Checks the image of a run: it opens, passes `integrity_check`, holds
    /// exactly the state after some commit K, K is the acknowledged commits
    /// or one more, and the migrator completes on it.
    static func checkWorkloadImage(
        _ run: WorkloadRun, snapshots: [PowerLossWorkload.State], mode: WorkloadMode
    ) -> WorkloadOutcome {
        do {
            let dbQueue = try DatabaseQueue(path: run.imagePath, configuration: unsyncedConfiguration)
            defer { try? dbQueue.close() }
            let integrity = try dbQueue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            guard integrity == ["ok"] else {
                return .violation("integrity_check: \(integrity.prefix(3).joined(separator: "; "))")
            }
            let state = try dbQueue.read { db in try PowerLossWorkload.State(db) }
            let commits = state.commits
            guard snapshots.indices.contains(commits) else { return .violation("meta.commits is \(commits)") }
            guard state == snapshots[commits] else {
                let expected = snapshots[commits]
                return .violation("""
                    a torn commit: meta says \(commits), but items \(state.items == expected.items ? "match" : "differ"), \
                    migrations \(state.appliedMigrations.sorted()) with tables \(state.migrationTables.keys.sorted())
                    """)
            }
            try PowerLossWorkload.migrator.migrate(dbQueue)
            guard try dbQueue.read(PowerLossWorkload.migrator.hasCompletedMigrations) else {
                return .violation("the migrator did not complete")
            }
            if commits > run.acknowledged + 1 {
                return .violation("\(commits) commits after \(run.acknowledged) acknowledged")
            }
            if commits < run.acknowledged {
                if mode == .deleteFull && commits == run.acknowledged - 1 && run.resurrected > 0 {
                    return .journalCameBack
                }
                return .violation("acknowledged commit \(run.acknowledged) lost: the image is at commit \(commits)")
            }
            return .whole(commits: commits)
        } catch {
            return .violation("\(error)")
        }
    }

    struct WorkloadTotals {
        var cuts = 0
        var failures = 0
        var journalCameBack = 0
        var durableUnacknowledged = 0
        var directorySyncs = 0
        /// Runs whose image holds a file the page cache had deleted.
        var resurrected = 0
        var firstViolation = ""
    }

    /// Where the cuts land.
    enum CutPlacement {
        /// At random syncs, or after the workload.
        case syncs
        /// At random writes, or after the workload.
        case writes
        /// After the workload only.
        case end
    }

    /// Cuts the power at `cutsPerWorkload` random sync points (or writes)
    /// of `workloadCount` workloads, and checks each image. Records an
    /// issue per failure unless `expectFailures`.
    static func cutWorkloads(
        mode: WorkloadMode, disk: GRDBLitePowerLossDisk, weakening: Weakening = .none,
        placement: CutPlacement = .syncs, pageSize: Int? = nil, workloadCount: Int, cutsPerWorkload: Int,
        random: inout SeededGenerator, seed: UInt64, expectFailures: Bool = false
    ) throws -> WorkloadTotals {
        #expect(grdblite_powerloss_vfs_register() == SQLITE_OK)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var totals = WorkloadTotals()
        for workloadIndex in 0..<workloadCount {
            let workloadSeed = random.next()
            let workload = PowerLossWorkload(seed: workloadSeed, wal: mode.isWAL, pageSize: pageSize)
            let snapshots = workload.snapshots
            let template = directory.path("template-\(workloadIndex).sqlite")
            try makeWorkloadTemplate(mode, workload: workload, at: template)
            let dry = try runWorkload(
                workload, snapshots: snapshots, mode: mode, weakening: weakening, disk: disk, template: template,
                in: directory.url.appendingPathComponent("dry-\(workloadIndex)"), cut: .none, seed: 0)
            #expect(dry.unexpectedError == nil, "\(String(describing: dry.unexpectedError))")
            #expect(dry.acknowledged == snapshots.count - 1 && !dry.didCut)
            if weakening == .none {
                #expect(
                    dry.syncCount >= snapshots.count - 1,
                    "\(dry.syncCount) syncs for \(snapshots.count - 1) commits: a commit that syncs nothing can't be durable")
            }
            let atWrites = placement == .writes
            let points = atWrites ? dry.writeCount : dry.syncCount
            try #require(points > 0, "the workload never \(atWrites ? "wrote" : "synced")")
            for cutIndex in 0..<cutsPerWorkload {
                // A point past the last sync: after the workload.
                let point = placement == .end ? points + 1 : Int.random(in: 1...(points + 1), using: &random)
                let imageSeed = UInt32(truncatingIfNeeded: random.next())
                let cut: Cut = point > points ? .atEnd : atWrites ? .atWrite(point) : .atSync(point)
                let unit = atWrites ? "write" : "sync"
                let place = point > points
                    ? "after the workload (\(points) \(unit)s)" : "at \(unit) \(point) of \(points)"
                let context = """
                    \(mode), \(disk.sectorSize)-byte sectors, page \(workload.pageSize), workload seed \
                    \(workloadSeed), cut \(place), image seed \(imageSeed) (GRDBLITE_SEED=\(seed))
                    """
                let runDirectory = directory.url.appendingPathComponent("run-\(workloadIndex)-\(cutIndex)")
                defer { try? FileManager.default.removeItem(at: runDirectory) }
                let run = try runWorkload(
                    workload, snapshots: snapshots, mode: mode, weakening: weakening, disk: disk,
                    template: template, in: runDirectory, cut: cut, seed: imageSeed)
                totals.cuts += 1
                totals.directorySyncs += run.directorySyncCount
                if run.resurrected > 0 { totals.resurrected += 1 }
                #expect(run.unexpectedError == nil, "\(context): \(String(describing: run.unexpectedError))")
                #expect(run.didCut, "\(context): the workload never reached the cut")
                switch checkWorkloadImage(run, snapshots: snapshots, mode: mode) {
                case .whole(let commits):
                    if commits > run.acknowledged { totals.durableUnacknowledged += 1 }
                case .journalCameBack:
                    totals.journalCameBack += 1
                case .violation(let violation):
                    totals.failures += 1
                    if totals.firstViolation.isEmpty { totals.firstViolation = "\(context): \(violation)" }
                    if !expectFailures { Issue.record("\(context): \(violation)") }
                }
            }
        }
        return totals
    }

    @Test(arguments: WorkloadMode.allCases, [512, 4096])
    func randomWorkloadsSurvivePowerLoss(mode: WorkloadMode, sectorSize: Int) throws {
        var (random, seed) = SeededGenerator.fromEnvironment()
        let workloadCount = 3 * reliabilityScale
        let cutsPerWorkload = 20
        let totals = try Self.cutWorkloads(
            mode: mode, disk: Self.disk(sectorSize: sectorSize), workloadCount: workloadCount,
            cutsPerWorkload: cutsPerWorkload, random: &random, seed: seed)
        #expect(totals.cuts == workloadCount * cutsPerWorkload)
        #expect(totals.directorySyncs > 0, "no directory was ever synced: the model of directories is off")
        if mode != .deleteFull {
            #expect(totals.journalCameBack == 0)
        }
        print("""
            PowerLossTests workloads \(mode), \(sectorSize)-byte sectors: \(totals.cuts) power cuts \
            (\(workloadCount) workloads × \(cutsPerWorkload)), \(totals.failures) failures, \
            \(totals.journalCameBack) last commits rolled back by a journal that came back (SQLite at FULL \
            in DELETE mode), \(totals.durableUnacknowledged) images with a commit durable before its write \
            returned (GRDBLITE_SEED=\(seed))
            """)
    }

    /// The harness can fail: a GRDBLite that syncs less (`synchronous =
    /// OFF`; WAL at NORMAL, whose commits don't sync) loses acknowledged
    /// commits or breaks the file. Cut at random writes, from fixed seeds.
    @Test(arguments: [Weakening.synchronousOff, .walNormal])
    func weakerSynchronousFailsTheWorkloadCheck(weakening: Weakening) throws {
        var random = SeededGenerator(seed: 61)
        let mode: WorkloadMode = weakening == .walNormal ? .walQueue : .deleteExtra
        let totals = try Self.cutWorkloads(
            mode: mode, disk: Self.disk(sectorSize: 4096), weakening: weakening, placement: .writes,
            workloadCount: 2, cutsPerWorkload: 10, random: &random, seed: 61, expectFailures: true)
        print("""
            PowerLossTests workloads \(mode), \(weakening): \(totals.failures) of \(totals.cuts) cuts failed; \
            the first: \(totals.firstViolation)
            """)
        #expect(totals.failures > 0, "the check never failed: it can't catch a missing sync")
    }

    /// The sector size and the device characteristics matter: a disk that
    /// tears 4096-byte sectors whole, while the VFS reports 512-byte
    /// sectors with powersafe overwrite, makes SQLite journal too little
    /// (DELETE, 1024-byte pages: a page's neighbours in its sector are torn
    /// unjournaled) or pad too little (WAL: the next commit's first frame
    /// tears the sector that ends the last one). The check must fail; the
    /// same disk reported as it is passes (`randomWorkloadsSurvivePowerLoss`).
    @Test(arguments: [WorkloadMode.deleteExtra, .walQueue])
    func aDiskThatHidesItsSectorsFailsTheCheck(mode: WorkloadMode) throws {
        var random = SeededGenerator(seed: 4096)
        var disk = Self.disk(sectorSize: 4096)
        disk.reportedSectorSize = 512
        disk.reportedCharacteristics = SQLITE_IOCAP_POWERSAFE_OVERWRITE
        let totals = try Self.cutWorkloads(
            mode: mode, disk: disk, pageSize: mode.isWAL ? 4096 : 1024, workloadCount: 2, cutsPerWorkload: 15,
            random: &random, seed: 4096, expectFailures: true)
        print("""
            PowerLossTests workloads \(mode), hidden sectors: \(totals.failures) of \(totals.cuts) cuts failed; \
            the first: \(totals.firstViolation)
            """)
        #expect(totals.failures > 0, "the check never failed: the model ignores the sector size")
    }

    /// The directory syncs matter: when the VFS skips them (the new journal
    /// or WAL never reaches the directory on the disk), a cut loses the
    /// journal that a torn write of the database needs, or the WAL that
    /// holds the commits. The check must fail.
    @Test(arguments: [WorkloadMode.deleteExtra, .walQueue])
    func skippedDirectorySyncsFailTheCheck(mode: WorkloadMode) throws {
        var random = SeededGenerator(seed: 1657)
        var disk = Self.disk(sectorSize: 512)
        disk.directorySyncs = 0
        let totals = try Self.cutWorkloads(
            mode: mode, disk: disk, workloadCount: 2, cutsPerWorkload: 15, random: &random, seed: 1657,
            expectFailures: true)
        print("""
            PowerLossTests workloads \(mode), no directory sync: \(totals.failures) of \(totals.cuts) cuts \
            failed; the first: \(totals.firstViolation)
            """)
        #expect(totals.directorySyncs == 0)
        #expect(totals.failures > 0, "the check never failed: the model ignores directories")
    }

    /// SQLite at FULL in DELETE mode deletes the journal without a sync of
    /// its directory: cut after the workload, the last commit's journal
    /// comes back in some images, and SQLite rolls that commit back, whole
    /// (a hot journal). At EXTRA the delete syncs the directory: the
    /// journal never comes back, nothing is lost.
    @Test func aDeletedJournalComesBackAtFullNotAtExtra() throws {
        for mode in [WorkloadMode.deleteFull, .deleteExtra] {
            var random = SeededGenerator(seed: 2026)
            let totals = try Self.cutWorkloads(
                mode: mode, disk: Self.disk(sectorSize: 512), placement: .end, workloadCount: 2,
                cutsPerWorkload: 10, random: &random, seed: 2026)
            print("""
                PowerLossTests workloads \(mode), cut after the workload: \(totals.cuts) cuts, \
                \(totals.resurrected) with a deleted file back, \(totals.journalCameBack) last commits rolled back
                """)
            #expect(totals.failures == 0)
            if mode == .deleteFull {
                #expect(totals.journalCameBack > 0, "the journal never came back: directories are not modelled")
                #expect(totals.journalCameBack == totals.resurrected)
            } else {
                #expect(totals.resurrected == 0 && totals.journalCameBack == 0)
            }
        }
    }
}
