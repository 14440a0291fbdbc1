#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import Synchronization

/// The statements `db.trace` reports, until a step takes them.
final class TraceLog: Sendable {
    private let entries = Mutex<[(expanded: String, sql: String)]>([])
    private let enabled = Mutex(true)

    /// Records a statement, unless the library runs it for itself, each
    /// its own way: schema introspection (`PRAGMA`, `sqlite_master`),
    /// `SELECT QUOTE(?)` (GRDB's SQL literals).
    func record(_ event: Database.TraceEvent) {
        guard case .statement(let statement) = event, enabled.withLock({ $0 }) else { return }
        let sql = statement.sql
        let introspection = ["sqlite_master", "sqlite_temp_master", "sqlite_schema", "sqlite_temp_schema"]
        if sql.hasPrefix("PRAGMA") || sql.hasPrefix("SELECT QUOTE(") { return }
        if introspection.contains(where: sql.contains) { return }
        entries.withLock { $0.append((statement.expandedSQL, sql)) }
    }

    /// The statements since the last call.
    func take() -> (expanded: [String], sql: [String]) {
        let taken = entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
        return (taken.map(\.expanded), taken.map(\.sql))
    }

    func stop() {
        enabled.withLock { $0 = false }
    }
}
