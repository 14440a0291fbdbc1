extension Database {
    /// Adds a transaction observer, notified of the changes and transactions
    /// of this connection, in the order observers were added. It has no
    /// effect on a read-only connection.
    ///
    /// ```swift
    /// let observer = MyObserver()
    /// try dbQueue.writeWithoutTransaction { db in
    ///     db.add(transactionObserver: observer)
    /// }
    /// ```
    ///
    /// Added inside a transaction, the observer is told of its end.
    ///
    /// - parameter transactionObserver: The observer to notify.
    /// - parameter extent: How long the observer is notified; by default
    ///   until it is deallocated (the connection holds a weak reference).
    public func add(
        transactionObserver: some TransactionObserver,
        extent: TransactionObservationExtent = .observerLifetime)
    {
        preconditionValidAccess()
        // A closed connection has no transaction to tell of.
        guard !configuration.readonly, !isClosed else { return }
        let broker = observationBroker ?? DatabaseObservationBroker.activate(on: self)
        broker.add(transactionObserver, extent: extent)
        // Installing the authorizer again expires the prepared statements.
        // SQLite recompiles them on their next run, after the broker has
        // installed the pre-update hook if the statement is observed: a
        // DELETE compiled before this observer, with the truncate
        // optimization, then reports each deleted row.
        authorizer.install(on: self)
    }

    /// Removes a transaction observer: it gets no further notification.
    public func remove(transactionObserver: some TransactionObserver) {
        preconditionValidAccess()
        observationBroker?.remove(transactionObserver)
    }
}

extension DatabaseWriter {
    /// Adds a transaction observer to the connection, once the database
    /// accesses that are running are done. See
    /// ``Database/add(transactionObserver:extent:)``.
    ///
    /// ```swift
    /// let observer = MyObserver()
    /// dbQueue.add(transactionObserver: observer)
    /// ```
    public func add(
        transactionObserver: some TransactionObserver,
        extent: Database.TransactionObservationExtent = .observerLifetime)
    {
        writeWithoutTransaction { $0.add(transactionObserver: transactionObserver, extent: extent) }
    }

    /// Removes a transaction observer from the connection, once the database
    /// accesses that are running are done.
    public func remove(transactionObserver: some TransactionObserver) {
        writeWithoutTransaction { $0.remove(transactionObserver: transactionObserver) }
    }
}
