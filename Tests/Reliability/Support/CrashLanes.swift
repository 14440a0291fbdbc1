import Foundation
import Synchronization
import Testing
import TestSupport

extension SeededGenerator {
    /// The generator of round `round` of a run with `seed`: each round
    /// draws from its own stream, whichever lane runs it and whenever,
    /// so that `GRDBLITE_SEED` replays every round's choices.
    init(seed: UInt64, round: Int) {
        var mixer = SeededGenerator(seed: seed ^ (UInt64(truncatingIfNeeded: round) &* 0xD1B5_4A32_D192_ED03))
        self.init(seed: mixer.next())
    }
}

/// A child forked by a `grdblite-crash-writer serve` server (see `serve()`
/// in the crash writer), whose lines are read on the server's stdout
/// until the server reports the child's death.
final class ForkedChild {
    let pid: pid_t
    private let server: ChildProcess
    private let errorPath: String
    private var pending: [String] = []
    /// "signal N" or "status N", once the server has reported the death.
    private(set) var exit: String?

    fileprivate init(server: ChildProcess, arguments: [String], errorPath: String) throws {
        self.server = server
        self.errorPath = errorPath
        server.send((arguments + [errorPath]).joined(separator: "\t"))
        guard let line = server.readLine(), line.hasPrefix("pid "), let pid = pid_t(line.dropFirst(4)) else {
            throw ChildProcessError(description: "the fork server didn't start \(arguments): \(server.errorOutput())")
        }
        self.pid = pid
    }

    /// Whether the server can fork another child.
    fileprivate var isDone: Bool { exit != nil }

    /// The next line the child printed, or nil once it is dead and all
    /// its lines are read.
    func readLine() -> String? {
        pending.isEmpty ? next() : pending.removeFirst()
    }

    private func next() -> String? {
        guard exit == nil, let line = server.readLine() else { return nil }
        if line.hasPrefix("exited ") {
            exit = String(line.dropFirst("exited ".count))
            return nil
        }
        return line
    }

    /// Kills the child with SIGKILL (the server doesn't reap it before
    /// the next request: the pid is still its own) and waits for its death.
    func killNow() {
        if exit == nil { kill(pid, SIGKILL) }
        waitForExit()
    }

    /// Waits for the child's death; the lines it printed stay to read.
    func waitForExit() {
        while let line = next() { pending.append(line) }
    }

    /// Whether the child died of a signal.
    var diedOfASignal: Bool { exit?.hasPrefix("signal ") == true }

    /// What the child printed on stderr.
    func errorOutput() -> String {
        (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "(no stderr)"
    }
}

/// One of the threads of `runLanes`: its own temporary directory, the
/// rounds it runs one after the other, and the failures it saw.
///
/// Swift Testing attributes `#expect` to the test of the current task,
/// which a thread doesn't have: a lane keeps its failures, and `runLanes`
/// records them as the test's issues once every lane is done.
final class CrashLane: @unchecked Sendable {
    /// The lane's number, in `0..<count`.
    let index: Int
    /// The rounds of the lane: those of `1...rounds` whose number is
    /// `index + 1` modulo the number of lanes.
    let rounds: [Int]
    private let directory: TemporaryDirectory
    private let lock = NSLock()
    private var failures: [String] = []
    /// The servers of the lane, and the last child of each (only the
    /// lane's thread uses them).
    private var servers: [(server: ChildProcess, child: ForkedChild?)] = []
    private var childCount = 0
    private var childIDs: [ObjectIdentifier: pid_t] = [:]
    private var isCancelled = false

    fileprivate init(index: Int, count: Int, rounds: Int) throws {
        self.index = index
        self.rounds = Array(stride(from: index + 1, through: rounds, by: count))
        directory = try TemporaryDirectory()
    }

    deinit { directory.remove() }

    /// The path of a file in the lane's directory.
    func path(_ name: String) -> String { directory.path(name) }

    /// Forks a child of one of the lane's servers (a new one if they all
    /// have a live child), that `cancel()` kills.
    func startChild(_ arguments: [String]) throws -> ForkedChild {
        let server: ChildProcess
        if let index = servers.firstIndex(where: { $0.child?.isDone ?? true }) {
            server = servers[index].server
            servers.remove(at: index)
        } else {
            server = try ChildProcess(["serve"])
        }
        childCount += 1
        let child = try ForkedChild(
            server: server, arguments: arguments, errorPath: path("child\(childCount).stderr"))
        servers.append((server, child))
        let cancelled = lock.withLock {
            childIDs[ObjectIdentifier(server)] = child.pid
            return isCancelled
        }
        if cancelled {
            child.killNow()
            throw ChildProcessError(description: "lane \(index) cancelled: it ran out of time")
        }
        return child
    }

    /// Records a failure unless `condition` holds.
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { record(message()) }
    }

    /// Records a failure.
    func record(_ message: String) {
        lock.withLock { failures.append("lane \(index): \(message)") }
    }

    fileprivate var recordedFailures: [String] { lock.withLock { failures } }

    /// Kills the lane's child, so that its reads end, and the next ones.
    fileprivate func cancel() {
        lock.withLock {
            isCancelled = true
            for childID in childIDs.values { kill(childID, SIGKILL) }
        }
    }
}

/// Runs the rounds `1...rounds` of a crash test on `count` threads at
/// once, each with its own database: the time a round spends waiting
/// (for the child to start, for its fsyncs, for its lines) overlaps the
/// other lanes' work. `body` runs a lane's rounds in order and returns
/// what it counted; its failures become the test's issues.
///
/// A lane still running after `timeout` (scaled by
/// `GRDBLITE_RELIABILITY_SCALE`) fails the test: its child is killed, so
/// that the lane ends (a lane that still doesn't end within a minute is
/// left behind, and `runLanes` throws).
func runLanes<Counts: Sendable>(
    rounds: Int, count: Int = 3, timeout: Duration = .seconds(600),
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable (CrashLane) throws -> Counts
) throws -> [Counts] {
    let lanes = try (0..<min(count, rounds)).map { try CrashLane(index: $0, count: count, rounds: rounds) }
    let results = Mutex<[Int: Result<Counts, any Error>]>([:])
    let group = DispatchGroup()
    for lane in lanes {
        group.enter()
        let thread = Thread {
            let result = Result { try body(lane) }
            results.withLock { $0[lane.index] = result }
            group.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }
    let seconds = Double(timeout.components.seconds) * Double(reliabilityScale)
    if group.wait(timeout: .now() + seconds) == .timedOut {
        Issue.record(
            "the lanes ran for more than \(Int(seconds)) s: their children are killed", sourceLocation: sourceLocation)
        for lane in lanes { lane.cancel() }
        // A lane stuck elsewhere than in a child must not hang the run.
        if group.wait(timeout: .now() + 60) == .timedOut {
            throw ChildProcessError(description: "a lane did not end a minute after its children were killed")
        }
    }
    var counts: [Counts] = []
    for lane in lanes {
        for failure in lane.recordedFailures {
            Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
        }
        switch results.withLock({ $0[lane.index] }) {
        case .success(let laneCounts)?: counts.append(laneCounts)
        case .failure(let error)?: Issue.record(error, "lane \(lane.index)", sourceLocation: sourceLocation)
        case nil: break
        }
    }
    return counts
}
