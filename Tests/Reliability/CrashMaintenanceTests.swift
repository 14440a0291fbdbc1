import Foundation
import GRDBLite
import Testing
import TestSupport
@testable import grdblite_crash_writer

/// SIGKILL during the operations that rewrite a database rather than add
/// to it: `erase()` between transactions, and migrations applied one at a
/// time (see `CrashMigrations`). After each kill, the database opens,
/// passes `PRAGMA integrity_check`, and holds every reported step whole;
/// an interrupted step is all there or not at all.
///
/// Half of the rounds wait for the child to announce the step ("erase",
/// "migrating N") before the random delay, so that kills land inside
/// steps on a loaded machine too; the tests fail unless some do.
/// 50 kills by default, on a few lanes at once, each with its own database
/// (see `runLanes`); `GRDBLITE_RELIABILITY_SCALE=N` runs N times more,
/// `GRDBLITE_SEED` replays a run.
@Suite struct CrashMaintenanceTests {
    /// The lines the child printed until it was killed after `reports`
    /// lines with `prefix` (and, if `waitFor` is given, a line with that
    /// prefix), a random delay later; nil if the child stopped by itself.
    private static func killChild(
        _ child: ForkedChild, after reports: Int, of prefix: String, waitFor: String?,
        _ random: inout SeededGenerator
    ) -> (lines: [String], stopped: Bool) {
        var lines: [String] = []
        var count = 0
        while count < reports || (waitFor.map { lines.last?.hasPrefix($0) != true } ?? false) {
            guard let line = child.readLine() else { return (lines, true) }
            lines.append(line)
            if line.hasPrefix(prefix) { count += 1 }
            if line == "done" {
                child.waitForExit()
                return (lines, true)
            }
        }
        spin(Int.random(in: 0..<300_000, using: &random))
        child.killNow()
        while let line = child.readLine() { lines.append(line) }
        return (lines, false)
    }

    @Test func eraseSurvivesSIGKILL() throws {
        let seed = SeededGenerator.fromEnvironment().seed
        let kills = 50 * reliabilityScale
        let lanes = try runLanes(rounds: kills) { lane in
            let path = lane.path("erase.sqlite")
            var durable = 0
            var (erases, killsInErase) = (0, 0)
            for round in lane.rounds {
                var random = SeededGenerator(seed: seed, round: round)
                let child = try lane.startChild(["write", path, "erase"])
                let (lines, stopped) = Self.killChild(
                    child, after: Int.random(in: 0...6, using: &random), of: "committed ",
                    waitFor: Bool.random(using: &random) ? "erase" : nil, &random)
                lane.expect(!stopped, "child stopped: \(child.errorOutput()) (seed \(seed))")
                var isErasing = false
                for line in lines {
                    switch line {
                    case "erase": isErasing = true
                    case "erased": (isErasing, durable, erases) = (false, 0, erases + 1)
                    case let line where line.hasPrefix("committed "): durable = Int(line.dropFirst(10)) ?? -1
                    default: break
                    }
                }
                if isErasing { killsInErase += 1 }
                let dbQueue = try DatabaseQueue(path: path)
                let last = try dbQueue.read(CrashWorkload.verify)
                if isErasing {
                    // Erased whole, or not at all.
                    lane.expect(last == 0 || last >= durable, "kill \(round) during erase: \(last) (seed \(seed))")
                } else {
                    lane.expect(last >= durable, "transaction \(durable) lost after kill \(round) (seed \(seed))")
                }
                durable = last
                try dbQueue.close()
            }
            return (erases: erases, killsInErase: killsInErase)
        }
        let killsInErase = lanes.map(\.killsInErase).reduce(0, +)
        print("""
            CrashMaintenanceTests erase: \(kills) SIGKILLs, \(lanes.map(\.erases).reduce(0, +)) erases, \
            \(killsInErase) kills during an erase (seed \(seed))
            """)
        #expect(killsInErase > 0, "no kill landed during an erase (seed \(seed))")
    }

    @Test(arguments: ["rollback", "wal"])
    func migrationsSurviveSIGKILL(mode: String) throws {
        let seed = SeededGenerator.fromEnvironment().seed
        let kills = 50 * reliabilityScale
        let lanes = try runLanes(rounds: kills) { lane in
            let path = lane.path("migrations.sqlite")
            var config = Configuration()
            config.journalMode = mode == "wal" ? .wal : .default
            var (killsInMigrations, completedRuns) = (0, 0)
            var applied = 0 // after the previous kill
            for round in lane.rounds {
                var random = SeededGenerator(seed: seed, round: round)
                var lines: [String] = []
                while true {
                    let child = try lane.startChild(["migrate", path, mode])
                    let stopped: Bool
                    (lines, stopped) = Self.killChild(
                        child, after: Int.random(in: 0...4, using: &random), of: "migrated ",
                        waitFor: Bool.random(using: &random) ? "migrating" : nil, &random)
                    if !stopped { break }
                    // All 20 applied: start again from an empty file.
                    lane.expect(lines.last == "done", "child stopped: \(child.errorOutput()) (seed \(seed))")
                    let all = try DatabaseQueue(path: path, configuration: config).read(CrashMigrations.verify)
                    lane.expect(all == 20, "\(all) migrations applied after \"done\" (seed \(seed))")
                    for suffix in ["", "-journal", "-wal", "-shm"] {
                        try? FileManager.default.removeItem(atPath: path + suffix)
                    }
                    completedRuns += 1
                    applied = 0
                }
                let reported = lines.last { $0.hasPrefix("migrated ") }.flatMap { Int($0.dropFirst(9)) } ?? applied
                let started = lines.last { $0.hasPrefix("migrating ") }.flatMap { Int($0.dropFirst(10)) } ?? applied
                if lines.last?.hasPrefix("migrating ") == true { killsInMigrations += 1 }
                let dbQueue = try DatabaseQueue(path: path, configuration: config)
                do {
                    applied = try dbQueue.read(CrashMigrations.verify)
                    lane.expect(
                        applied >= reported && applied <= max(reported, started),
                        "kill \(round): \(applied) applied, \(reported) reported (\(mode), seed \(seed))")
                } catch {
                    lane.record("after kill \(round) (\(mode), seed \(seed)): \(error)")
                }
                try dbQueue.close()
            }
            return (killsInMigrations: killsInMigrations, completedRuns: completedRuns)
        }
        let killsInMigrations = lanes.map(\.killsInMigrations).reduce(0, +)
        print("""
            CrashMaintenanceTests migrations \(mode): \(kills) SIGKILLs, \(killsInMigrations) during a migration, \
            \(lanes.map(\.completedRuns).reduce(0, +)) runs to the end (seed \(seed))
            """)
        #expect(killsInMigrations * 5 >= kills, "fewer than 20% of the kills landed during a migration (seed \(seed))")
    }
}

/// The checker of the migration crash test must catch what it looks for.
@Suite struct CrashMigrationsVerifierTests {
    private func database(migrations: Int) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try CrashMigrations.migrator.migrate(dbQueue, upTo: "m\(migrations)")
        return dbQueue
    }

    @Test func acceptsCompleteMigrations() throws {
        #expect(try database(migrations: 7).read(CrashMigrations.verify) == 7)
        #expect(try database(migrations: 20).read(CrashMigrations.verify) == 20)
        #expect(try DatabaseQueue().read(CrashMigrations.verify) == 0)
    }

    @Test(arguments: [
        "DROP TABLE t3",
        "CREATE TABLE t8 (n INTEGER NOT NULL)",
        "DELETE FROM grdb_migrations WHERE identifier = 'm7'",
        "DELETE FROM grdb_migrations WHERE identifier = 'm4'",
        "DELETE FROM t2 WHERE n = 1",
        "UPDATE t5 SET next = NULL WHERE n = 2",
        "ALTER TABLE t7 ADD COLUMN next INTEGER",
        "INSERT INTO t6 (n, next) VALUES (7, 8)",
    ])
    func rejectsIncompleteMigrations(damage: String) throws {
        let dbQueue = try database(migrations: 7)
        try dbQueue.writeWithoutTransaction { try $0.execute(sql: damage) }
        #expect(throws: CrashWorkload.Violation.self) {
            try dbQueue.read(CrashMigrations.verify)
        }
    }
}
