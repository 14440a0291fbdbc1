#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram
import Synchronization

/// A transaction observer: the events it is told, until a step takes them.
final class EventLog: TransactionObserver, Sendable {
    private let events = Mutex<[String]>([])
    let filter: ObserverFilter

    init(_ filter: ObserverFilter) {
        self.filter = filter
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        switch filter {
        case .everything, .firstChangeOfEachTransaction: return true
        case .players: return eventKind.tableName == "player"
        case .insertsAndDeletes:
            if case .update = eventKind { return false }
            return true
        case .scoreUpdates:
            if case .update(_, let columns) = eventKind { return columns.contains("score") }
            return false
        }
    }

    func databaseDidChange(with event: DatabaseEvent) {
        let kind = switch event.kind {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
        append("\(kind) \(event.tableName) \(event.rowID)")
        if filter == .firstChangeOfEachTransaction { stopObservingDatabaseChangesUntilNextTransaction() }
    }

    func databaseWillCommit() throws { append("willCommit") }
    func databaseDidCommit(_ db: Database) { append("didCommit") }
    func databaseDidRollback(_ db: Database) { append("didRollback") }

    private func append(_ event: String) {
        events.withLock { $0.append(event) }
    }

    /// The events since the last call.
    func take() -> [String] {
        events.withLock { events in
            defer { events = [] }
            return events
        }
    }
}
