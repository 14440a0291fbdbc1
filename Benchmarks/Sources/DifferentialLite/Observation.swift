#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram
import Foundation
import Synchronization

/// Notifies where it is called: `.immediate` would notify later values on
/// the main queue, which a running program never drains.
struct SynchronousScheduler: ValueObservationScheduler {
    func immediateInitialValue() -> Bool { true }
    func schedule(_ action: @escaping @Sendable () -> Void) { action() }
}

/// An observed value and the number of its fetch. Equal when the texts
/// are: `removeDuplicates` then tells the log that the fetch is dropped.
struct Observed: Equatable, Sendable {
    var fetch: Int
    var text: String
    var log: ObservationLog

    static func == (lhs: Observed, rhs: Observed) -> Bool {
        let equal = lhs.text == rhs.text
        if equal { lhs.log.settle(max(lhs.fetch, rhs.fetch)) }
        return equal
    }
}

/// The values a `ValueObservation` notified. Both libraries fetch on the
/// writer, then reduce on a queue of their own: a step waits until each
/// of its fetches is notified or dropped.
final class ObservationLog: Sendable {
    private struct State {
        var fetches = 0
        var settled = 0
        var failed = false
        var values: [String] = []
    }

    private let state = Mutex(State())

    /// A fetch's value, numbered.
    func fetched(_ text: String) -> Observed {
        Observed(fetch: state.withLock { $0.fetches += 1; return $0.fetches }, text: text, log: self)
    }

    func settle(_ fetch: Int) {
        state.withLock { $0.settled = max($0.settled, fetch) }
    }

    func notify(_ value: Observed) {
        state.withLock { $0.values.append(value.text); $0.settled = max($0.settled, value.fetch) }
    }

    func notify(_ error: any Error) {
        state.withLock { $0.values.append("onError: \(Canonical.text(error))"); $0.failed = true }
    }

    /// The values since the last call, once every fetch is settled (2 s at most).
    func take() -> [String] {
        let deadline = Date().addingTimeInterval(2)
        while state.withLock({ !$0.failed && $0.settled < $0.fetches }) && Date() < deadline { usleep(20) }
        return state.withLock { state in
            if !state.failed && state.settled < state.fetches {
                state.values.append("(fetch \(state.fetches) neither notified nor dropped)")
                state.settled = state.fetches
            }
            defer { state.values = [] }
            return state.values
        }
    }

    /// Starts the observation of `use` on the queue.
    func start(_ use: ObservationUse, in dbQueue: DatabaseQueue) -> AnyDatabaseCancellable {
        let value = use.value
        let observation = ValueObservation.tracking { db in self.fetched(ObservationLog.text(value, db)) }
        let onError: @Sendable (any Error) -> Void = { self.notify($0) }
        let onChange: @Sendable (Observed) -> Void = { self.notify($0) }
        if use.maps {
            // A lossy value: `removeDuplicates` then drops more.
            let mapped = observation.map { observed in
                Observed(fetch: observed.fetch, text: "lines: \(observed.text.split(separator: "\n").count)",
                         log: observed.log)
            }
            if use.removeDuplicates {
                return mapped.removeDuplicates()
                    .start(in: dbQueue, scheduling: SynchronousScheduler(), onError: onError, onChange: onChange)
            }
            return mapped.start(in: dbQueue, scheduling: SynchronousScheduler(), onError: onError, onChange: onChange)
        }
        if use.removeDuplicates {
            return observation.removeDuplicates()
                .start(in: dbQueue, scheduling: SynchronousScheduler(), onError: onError, onChange: onChange)
        }
        return observation.start(in: dbQueue, scheduling: SynchronousScheduler(), onError: onError, onChange: onChange)
    }

    /// The tracked value as text, or its error.
    static func text(_ value: ObservedValue, _ db: Database) -> String {
        do {
            switch value {
            case .players: return try Player.fetchAll(db).map(Canonical.text).joined(separator: "\n")
            case .playerCount: return try "\(Player.fetchCount(db))"
            case .teamsOfCity:
                return try Team.filter(Column("city") == "x").order(Column("id")).fetchAll(db)
                    .map(Canonical.text).joined(separator: "\n")
            case .scoreSums:
                return try Row.fetchAll(db, sql: ObservedValue.scoreSumsSQL).map(Canonical.text).joined(separator: "\n")
            case .bestPlayerTeam:
                // The second fetch's region depends on the first one's value.
                let best = try Player.order(Column("score").desc, Column.rowID).fetchOne(db)
                guard let teamId = best?.teamId else { return "no team" }
                return try Team.filter(Column("id") == teamId).order(Column.rowID).fetchAll(db)
                    .map(Canonical.text).joined(separator: "\n")
            }
        } catch {
            return "error: \(Canonical.text(error))"
        }
    }
}
