/// A read-only transaction that consecutive reads share: after a commit,
/// the value observations of a `DatabaseQueue` fetch their new values on
/// the writer, each isolated in a read-only transaction. The observation
/// layer makes consecutive observers share one: the first fetch begins it,
/// and the layer ends it once they are all told of the commit, or before
/// an observer that may write (a transaction observer of the user, a value
/// observation that requires write access).
/// Nothing can write in between, so each value is still the state of the
/// commit; one BEGIN and one COMMIT run per commit instead of one per
/// observation.
struct SharedCommitRead {
    /// Set by the observation layer while it tells a sharing observer of
    /// a commit.
    var isAvailable = false
    /// Whether the shared transaction began (and its read-only access).
    var isOpen = false
}

extension Database {
    /// Runs `block` in the shared read-only transaction, which it begins
    /// if needed; as `isolated(readOnly: true)` when sharing is not
    /// available.
    func isolatedAfterCommit<T>(_ block: () throws -> T) throws -> T {
        if sharedCommitRead.isOpen && !isInsideTransaction {
            // SQLite ended it (an error rolled it back; a fetch committed).
            endSharedCommitRead()
        }
        guard sharedCommitRead.isAvailable, sharedCommitRead.isOpen || !isInsideTransaction else {
            return try isolated(readOnly: true, block)
        }
        if !sharedCommitRead.isOpen {
            try rollbackIfNeeded()
            // Without toggling query_only: see `enterReadOnlyAccess`.
            try enterReadOnlyAccess(checkingStatements: true)
            do {
                try beginTransaction(.deferred)
            } catch {
                exitReadOnlyAccess()
                throw error
            }
            sharedCommitRead.isOpen = true
        } else {
            // Each observation's transaction has its date, as in GRDB,
            // where each opens its own.
            transactionDateResult = Result { try configuration.transactionClock.now(self) }
        }
        // As in a transaction block: once the fetch ended the transaction
        // (COMMIT, ROLLBACK, or SQLite's rollback after an error), its
        // statements fail instead of running in autocommit mode.
        let wasInsideTransactionBlock = isInsideTransactionBlock
        isInsideTransactionBlock = true
        defer { isInsideTransactionBlock = wasInsideTransactionBlock }
        let result = try block()
        try checkForAbortedTransaction()
        return result
    }

    /// Ends the shared read-only transaction, if one began. Its values are
    /// fetched: a failed commit only leaves a rollback to do.
    func endSharedCommitRead() {
        guard sharedCommitRead.isOpen else { return }
        sharedCommitRead.isOpen = false
        if isInsideTransaction {
            do {
                try commit()
            } catch {
                try? rollback()
            }
        }
        exitReadOnlyAccess()
    }
}
