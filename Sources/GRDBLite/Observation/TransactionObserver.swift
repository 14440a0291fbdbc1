/// A type that tracks the changes and transactions of a database
/// connection.
///
/// Add an observer with `dbQueue.add(transactionObserver:)` or
/// ``Database/add(transactionObserver:extent:)``. It is told of each
/// inserted, updated or deleted row before the transaction commits
/// (including rows changed by foreign key actions and triggers), then of the
/// commit or rollback:
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT ...") // 1. didChange
///     try db.execute(sql: "UPDATE ...") // 2. didChange
/// }                                     // 3. willCommit, 4. didCommit
/// ```
///
/// Statements run outside of a transaction get their own willCommit and
/// didCommit. Changes made inside a savepoint are notified when the
/// savepoint is released, and never if it is rolled back. An error thrown
/// by ``databaseWillCommit()`` rolls the transaction back: observers get
/// ``databaseDidRollback(_:)`` and the code that committed gets the error.
/// Observers are notified in the order they were added; read-only
/// transactions are not notified.
///
/// ## Changes that are not notified
///
/// SQLite does not report them, so observers are not told of:
/// - read-only transactions;
/// - changes and transactions of other database connections, or made by
///   statements that GRDBLite did not both compile and execute;
/// - schema changes, and changes to internal tables such as `sqlite_master`;
/// - changes to `WITHOUT ROWID` tables;
/// - the deletion of conflicting rows by `ON CONFLICT REPLACE` clauses.
///
/// Tell observers about them with ``Database/notifyChanges(in:)``: they get
/// ``databaseDidChange()``. For a schema change, notify the
/// `sqlite_master` table.
///
/// - important: ``databaseDidChange(with:)``, ``databaseWillChange(with:)``
///   and ``databaseWillCommit()`` must not use the database connection.
public protocol TransactionObserver: AnyObject {
    /// Whether changes of this kind are notified to
    /// ``databaseDidChange(with:)``.
    ///
    /// It is asked once per statement, before the statement runs, for each
    /// kind of change that the statement can perform (the tables, and the
    /// columns of updates). When it returns false for all of them, the
    /// statement is not tracked at all. An observer that observes no change
    /// is still told of commits and rollbacks.
    ///
    /// ```swift
    /// func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
    ///     eventKind.tableName == "player"
    /// }
    /// ```
    ///
    /// Returning true for deletions prevents SQLite's truncate optimization
    /// on the table, so that `DELETE FROM player` reports each deleted row.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool

    /// Called when the database was modified in an unspecified way, by
    /// ``Database/notifyChanges(in:)``. The changes comply with
    /// ``observes(eventsOfKind:)``. The default implementation does nothing.
    func databaseDidChange()

    /// Called for each inserted, updated or deleted row, before the
    /// transaction commits. The change is pending until
    /// ``databaseDidCommit(_:)`` or ``databaseDidRollback(_:)``.
    ///
    /// The event is only valid during this call: keep `event.copy()` if you
    /// need it later. This method must not use the database connection.
    func databaseDidChange(with event: DatabaseEvent)

    /// Called before a row is inserted, updated or deleted, with its values
    /// before and after the change (SQLite's pre-update hook). Called before
    /// ``databaseDidChange(with:)`` for the same row. The default
    /// implementation does nothing.
    ///
    /// The event is only valid during this call: keep `event.copy()` if you
    /// need it later. This method must not use the database connection.
    func databaseWillChange(with event: DatabasePreUpdateEvent)

    /// Called when a transaction is about to commit. Throw to roll it back:
    /// the error reaches the code that committed. The default
    /// implementation does nothing.
    ///
    /// This method must not use the database connection.
    func databaseWillCommit() throws

    /// Called when a transaction has been committed. The connection can be
    /// used.
    func databaseDidCommit(_ db: Database)

    /// Called when a transaction has been rolled back. The connection can be
    /// used.
    func databaseDidRollback(_ db: Database)
}

extension TransactionObserver {
    /// The default implementation does nothing.
    public func databaseDidChange() { }

    /// The default implementation does nothing.
    public func databaseWillChange(with event: DatabasePreUpdateEvent) { }

    /// The default implementation does nothing.
    public func databaseWillCommit() throws { }

    /// Stops the change notifications (``databaseDidChange(with:)``,
    /// ``databaseDidChange()`` and ``databaseWillChange(with:)``)
    /// until the current transaction ends. Commit and rollback
    /// notifications go on.
    ///
    /// ```swift
    /// func databaseDidChange(with event: DatabaseEvent) {
    ///     playerTableWasModified = true
    ///     // Further changes don't matter until the transaction ends:
    ///     stopObservingDatabaseChangesUntilNextTransaction()
    /// }
    /// ```
    ///
    /// - precondition: Called from a change notification.
    public func stopObservingDatabaseChangesUntilNextTransaction() {
        guard let broker = DatabaseObservationBroker.current else {
            fatalError("""
                stopObservingDatabaseChangesUntilNextTransaction() must be called from \
                databaseDidChange(with:), databaseDidChange() or databaseWillChange(with:)
                """)
        }
        broker.disableUntilNextTransaction(self)
    }
}
