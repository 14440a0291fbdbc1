import Foundation

/// The value observation workloads: `observationCommits` commits, each in
/// its own transaction, into a table that 1, 10 or 100 `ValueObservation`s
/// track (one in ten tracks another table, which never changes). A run
/// ends when every observation of the table has notified the state of the
/// last commit: the time covers the commits, the fetches and the
/// notifications. Per-row figures are per commit. GRDBLite and GRDB only
/// (raw SQLite and Vapor have no observation). Timed, not counted by
/// `bench instructions`.
extension Workload {
    static let observe1 = observe(1)
    static let observe10 = observe(10)
    static let observe100 = observe(100)

    /// The commits of each run.
    static let observationCommits = 100

    private static func observe(_ count: Int) -> Workload {
        Workload(
            name: "observe-\(count)",
            title: "Value observation: \(count) observation\(count == 1 ? "" : "s"), a commit each",
            rowCount: { _ in observationCommits },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("observe-\(count): the job reports nothing") }
                return try fetched()
            },
            expected: { _ in Digest(count: observationCommits) },
            allocationRule: nil,
            jobs: [
                .lite: { try LiteSide.observe($0, observations: count) },
                .grdb: { try GRDBSide.observe($0, observations: count) }
            ],
            // Timed only: the fetches and notifications run on other
            // threads, and 100 observations are slow under callgrind.
            measuresInstructions: false)
    }
}

/// The SQL of the observation workloads.
enum ObservationSQL {
    static let schema =
        "CREATE TABLE observed(id INTEGER PRIMARY KEY, v INTEGER); CREATE TABLE other(id INTEGER PRIMARY KEY)"
    static let insert = "INSERT INTO observed(v) VALUES (0)"
    static let count = "SELECT COUNT(*) FROM observed"

    /// The table that observation `index` counts the rows of.
    static func table(ofObservation index: Int) -> String {
        index % 10 == 9 ? "other" : "observed"
    }

    /// A new database file for a side's observations.
    static func path(_ fixture: Fixture, side: String, observations: Int) -> String {
        let path = fixture.folder + "/observe-\(side)-\(observations).sqlite"
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        return path
    }
}

/// The last value each observation notified, and a wait until those of
/// the observed table reach a count.
final class ObservationProgress: @unchecked Sendable {
    // @unchecked Sendable: `lastValues` is only used under `condition`.
    private let condition = NSCondition()
    private var lastValues: [Int]
    private let tracksObserved: [Bool]

    init(observations: Int) {
        lastValues = Array(repeating: -1, count: observations)
        tracksObserved = (0..<observations).map { ObservationSQL.table(ofObservation: $0) == "observed" }
    }

    func receive(_ value: Int, from index: Int) {
        condition.lock()
        lastValues[index] = value
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every observation notified a value, and those of the
    /// observed table the value `count`; throws after a minute.
    func wait(untilObservedCount count: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(60)
        while !zip(lastValues, tracksObserved).allSatisfy({ value, tracks in tracks ? value == count : value >= 0 }) {
            if !condition.wait(until: deadline) {
                throw BenchError("observations: timed out waiting for \(count) rows; last values: \(lastValues)")
            }
        }
    }
}
