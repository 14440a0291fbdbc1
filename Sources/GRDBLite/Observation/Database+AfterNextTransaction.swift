extension Database {
    /// Registers closures that run when the current transaction ends, or
    /// the next one if none is open: `onCommit` after a commit, `onRollback`
    /// after a rollback. Then both are released.
    ///
    /// ```swift
    /// try db.inSavepoint {
    ///     try player.insert(db)
    ///     db.afterNextTransaction { _ in
    ///         // The player is committed to disk.
    ///     }
    ///     return .commit
    /// }
    /// ```
    ///
    /// The closures run on the writer's queue, after the transaction ends,
    /// as transaction observers (``TransactionObserver/databaseDidCommit(_:)``)
    /// do. A statement run outside of a transaction is a transaction of its
    /// own.
    ///
    /// - precondition: The connection is not read-only (read-only
    ///   transactions notify nothing).
    public func afterNextTransaction(
        onCommit: @escaping @Sendable (Database) -> Void,
        onRollback: @escaping @Sendable (Database) -> Void = { _ in })
    {
        precondition(!isReadOnly, "afterNextTransaction: read-only transactions are not notified")
        add(
            transactionObserver: TransactionCompletionHandler(onCommit: onCommit, onRollback: onRollback),
            extent: .nextTransaction)
    }
}

/// The observer of ``Database/afterNextTransaction(onCommit:onRollback:)``:
/// it observes no change, only the end of the transaction.
private final class TransactionCompletionHandler: TransactionObserver {
    let onCommit: @Sendable (Database) -> Void
    let onRollback: @Sendable (Database) -> Void

    init(onCommit: @escaping @Sendable (Database) -> Void, onRollback: @escaping @Sendable (Database) -> Void) {
        self.onCommit = onCommit
        self.onRollback = onRollback
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) { }
    func databaseDidCommit(_ db: Database) { onCommit(db) }
    func databaseDidRollback(_ db: Database) { onRollback(db) }
}
