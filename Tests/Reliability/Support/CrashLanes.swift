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
    private var childID: pid_t?
    private var isCancelled = false

    fileprivate init(index: Int, count: Int, rounds: Int) throws {
        self.index = index
        self.rounds = Array(stride(from: index + 1, through: rounds, by: count))
        directory = try TemporaryDirectory()
    }

    deinit { directory.remove() }

    /// The path of a file in the lane's directory.
    func path(_ name: String) -> String { directory.path(name) }

    /// Starts a child, that `cancel()` kills.
    func startChild(_ arguments: [String]) throws -> ChildProcess {
        let child = try ChildProcess(arguments)
        let cancelled = lock.withLock {
            childID = child.process.processIdentifier
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
            if let childID { kill(childID, SIGKILL) }
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
/// that the lane ends.
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
        group.wait()
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
