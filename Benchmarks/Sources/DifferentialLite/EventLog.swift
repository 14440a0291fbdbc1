#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import Synchronization

/// A transaction observer of every table: the events it is told, until a
/// step takes them.
final class EventLog: TransactionObserver, Sendable {
    private let events = Mutex<[String]>([])

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }

    func databaseDidChange(with event: DatabaseEvent) {
        let kind = switch event.kind {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
        append("\(kind) \(event.tableName) \(event.rowID)")
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
