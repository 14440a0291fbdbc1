import GRDBLite
import Synchronization

/// Records SQL statements, from any thread, in order: give `record` to
/// `Configuration.trace` to record all statements of a queue.
final class SQLRecorder: Sendable {
    private let statements = Mutex<[String]>([])

    /// The statements recorded so far.
    var sql: [String] {
        statements.withLock { $0 }
    }

    func record(_ sql: String) {
        statements.withLock { $0.append(sql) }
    }

    func reset() {
        statements.withLock { $0.removeAll() }
    }
}

/// The statements that `body` runs on `db`, with `?` placeholders.
func recordedSQL(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
    let recorder = SQLRecorder()
    db.trace { recorder.record($0.description) }
    defer { db.trace(nil) }
    try body()
    return recorder.sql
}

/// The schema statements (CREATE, ALTER, DROP, REINDEX) that `body` runs
/// on `db`.
func recordedSchemaSQL(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
    try recordedSQL(db, body).filter { sql in
        ["CREATE", "ALTER", "DROP", "REINDEX"].contains(where: { sql.hasPrefix($0) })
    }
}
