import Foundation

/// The observation latency workloads: 1, 10 or 100 `ValueObservation`s of
/// a count on a `DatabasePool` (one in ten tracks another table, which
/// never changes), notified with `.async(onQueue:)` on a serial queue
/// (`observe-latency-queue-N`) or through the async sequence of
/// `values(in:)`, one task per observation (`observe-latency-values-N`).
/// A run makes `Fixture.latencyCommitCount` commits, one at a time: each
/// waits until every observation of the table has notified it. A latency
/// is the time from the commit (the end of the `write` closure, which
/// `COMMIT` follows at once: in WAL mode with `synchronous = NORMAL`, a
/// commit doesn't wait on the disk) to an observation's `onChange` (or the
/// sequence's element), on `ContinuousClock`; one per commit and
/// observation of the table. Not from the return of `write`: on both
/// sides, most notifications come before `write` returns. GRDBLite and
/// GRDB only. Timed, not counted by `bench instructions`.
extension Workload {
    static let observeLatencyQueue1 = observeLatency(.queue, observations: 1)
    static let observeLatencyQueue10 = observeLatency(.queue, observations: 10)
    static let observeLatencyQueue100 = observeLatency(.queue, observations: 100)
    static let observeLatencyValues1 = observeLatency(.values, observations: 1)
    static let observeLatencyValues10 = observeLatency(.values, observations: 10)
    static let observeLatencyValues100 = observeLatency(.values, observations: 100)

    private static func observeLatency(_ mode: ObservationLatencyMode, observations count: Int) -> Workload {
        Workload(
            name: "observe-latency-\(mode.rawValue)-\(count)",
            title: "Observation latency, \(count) observation\(count == 1 ? "" : "s"), \(mode.title)",
            rowCount: { $0.latencyCommitCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("observe-latency: the job reports nothing") }
                return try fetched()
            },
            expected: { Digest(count: $0.latencyCommitCount) },
            allocationRule: nil,
            jobs: [
                .lite: { try LiteSide.observeLatency($0, mode: mode, observations: count) },
                .grdb: { try GRDBSide.observeLatency($0, mode: mode, observations: count) },
            ],
            measuresInstructions: false,
            latencyGroup: .observation)
    }
}

/// How the observations of a latency workload notify.
enum ObservationLatencyMode: String, Sendable {
    /// `start(in:scheduling: .async(onQueue:) …)`, on one serial queue.
    case queue
    /// `for try await value in observation.values(in:)`, a task each.
    case values

    var title: String {
        switch self {
        case .queue: ".async(onQueue:)"
        case .values: "async sequence"
        }
    }
}

/// The notifications of the observations, and the latencies of the
/// commits of a run.
final class ObservationLatencyProbe: @unchecked Sendable {
    // @unchecked Sendable: every property is only used under `condition`.
    private let condition = NSCondition()
    private var lastValues: [Int]
    private var notified: [ContinuousClock.Instant?]
    private var target = -1
    private let tracksObserved: [Bool]

    init(observations: Int) {
        lastValues = Array(repeating: -1, count: observations)
        notified = Array(repeating: nil, count: observations)
        tracksObserved = (0..<observations).map { ObservationSQL.table(ofObservation: $0) == "observed" }
    }

    /// `onChange`: observation `index` notified `value`.
    func receive(_ value: Int, from index: Int) {
        let now = ContinuousClock.now
        condition.lock()
        lastValues[index] = value
        if value == target { notified[index] = now }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every observation notified its first value.
    func waitForInitialValues() throws {
        try wait { _ in zip(self.lastValues, self.tracksObserved).allSatisfy { $1 ? $0 == 0 : $0 >= 0 } }
    }

    /// Runs `commit`, which adds one row to the observed table that held
    /// `count` rows and returns the instant its transaction ends, waits for
    /// every observation of the table to notify it, and returns their
    /// latencies in seconds.
    func latencies(
        ofCommitAfter count: Int, _ commit: () throws -> ContinuousClock.Instant) throws -> [Double]
    {
        condition.lock()
        target = count + 1
        for index in notified.indices { notified[index] = nil }
        condition.unlock()
        let committed = try commit()
        try wait { _ in zip(self.lastValues, self.tracksObserved).allSatisfy { !$1 || $0 == count + 1 } }
        condition.lock()
        defer { condition.unlock() }
        return zip(notified, tracksObserved).compactMap { instant, tracks in
            guard tracks, let instant else { return nil }
            let elapsed = instant - committed
            return max(0, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
    }

    /// Waits until `done` holds; throws after a minute.
    private func wait(_ done: (ObservationLatencyProbe) -> Bool) throws {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(60)
        while !done(self) {
            if !condition.wait(until: deadline) {
                throw BenchError("observe-latency: timed out; last values: \(lastValues)")
            }
        }
    }
}
