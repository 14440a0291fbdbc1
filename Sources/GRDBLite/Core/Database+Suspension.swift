import CSQLite
import Foundation

// Suspension keeps a connection from locking the database file, for apps
// that share a database with other processes and must release their locks
// before they are suspended (the 0xDEAD10CC exception on iOS). A suspended
// connection interrupts its running statement, rolls back its transaction,
// and refuses, with `SQLITE_ABORT`, the statements that would lock the
// file: writes, and reads outside of WAL mode.

extension Database {
    /// Posting it suspends the databases opened with
    /// ``Configuration/observesSuspensionNotifications``: their statements
    /// that would lock the database file fail with `SQLITE_ABORT` (reads
    /// in WAL mode still run) until ``resumeNotification`` is posted.
    public static let suspendNotification = Notification.Name("GRDB.Database.Suspend")

    /// Posting it resumes the databases suspended by
    /// ``suspendNotification``.
    public static let resumeNotification = Notification.Name("GRDB.Database.Resume")

    /// Suspends the connection, from any thread: its running statement is
    /// interrupted, and the statements that would lock the database fail
    /// until `resume()`.
    func suspend() {
        let interrupts = accessCancellation.withLock { state in
            if state.isSuspended { return false }
            state.isSuspended = true
            accessIsCancelled.store(true, ordering: .relaxed)
            return true
        }
        // The interruption may roll back the transaction and release its
        // lock; otherwise the next statement that needs a lock rolls back.
        if interrupts { sqlite3_interrupt(sqliteHandle) }
    }

    /// Resumes the connection, from any thread.
    func resume() {
        accessCancellation.withLock { state in
            state.isSuspended = false
            accessIsCancelled.store(state.isCancelled, ordering: .relaxed)
        }
    }

    /// Throws `SQLITE_ABORT` ("Database is suspended"), after a rollback
    /// that releases the lock, when the connection is suspended and
    /// `statement` may lock the database file. Statements that end
    /// transactions or savepoints, read-only statements in WAL mode, and
    /// `PRAGMA query_only` always run.
    func checkSuspension(before statement: Statement) throws {
        guard let journalMode = accessCancellation.withLock({ $0.isSuspended ? ($0.journalMode ?? "") : nil })
        else { return }
        switch statement.info.transactionEffect {
        case .rollbackTransaction, .rollbackSavepoint, .releaseSavepoint, .commitTransaction: return
        default: break
        }
        if statement.sql.starts(with: "PRAGMA query_only") { return }
        if statement.isReadonly && (journalMode.isEmpty ? readJournalMode() : journalMode) == "wal" { return }
        try? rollback()
        throw DatabaseError(
            resultCode: .SQLITE_ABORT, message: "Database is suspended",
            sql: statement.sql, arguments: statement.arguments,
            publicStatementArguments: configuration.publicStatementArguments)
    }

    /// The journal mode, read once without the checks of statements
    /// (which would check the suspension again).
    private func readJournalMode() -> String {
        var sqliteStatement: SQLiteStatement?
        guard sqlite3_prepare_v2(sqliteHandle, "PRAGMA journal_mode", -1, &sqliteStatement, nil) == SQLITE_OK
        else { return "" }
        defer { sqlite3_finalize(sqliteStatement) }
        guard sqlite3_step(sqliteStatement) == SQLITE_ROW, let text = sqlite3_column_text(sqliteStatement, 0)
        else { return "" }
        let mode = String(cString: text).lowercased()
        accessCancellation.withLock { $0.journalMode = mode }
        return mode
    }
}

/// Suspends and resumes connections when ``Database/suspendNotification``
/// and ``Database/resumeNotification`` are posted, until it is released.
// @unchecked Sendable: the observer tokens are only read in deinit.
final class SuspensionObserver: @unchecked Sendable {
    private let tokens: [any NSObjectProtocol]

    /// Calls `suspend` and `resume` when the notifications are posted, if
    /// `configuration` observes them; nil otherwise.
    init?(
        _ configuration: Configuration,
        suspend: @escaping @Sendable () -> Void,
        resume: @escaping @Sendable () -> Void)
    {
        guard configuration.observesSuspensionNotifications else { return nil }
        let center = NotificationCenter.default
        tokens = [
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { _ in suspend() },
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { _ in resume() },
        ]
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }
}
