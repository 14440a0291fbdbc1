/// Observes the transactions that change a region of the database: calls
/// back right after each such commit, on the writer, before any other
/// write can happen.
///
/// ```swift
/// let observation = DatabaseRegionObservation(tracking: Table("player"))
/// let cancellable = observation.start(in: dbQueue) { error in
///     // handle the error
/// } onChange: { db in
///     print("Players were changed")
/// }
/// ```
///
/// Most applications want the fresh values instead: see
/// ``ValueObservation``. The changes that SQLite does not report are seen
/// only after ``Database/notifyChanges(in:)``.
public struct DatabaseRegionObservation: Sendable {
    private let regions: [any DatabaseRegionConvertible]

    /// Observes the union of the given regions: requests, tables,
    /// ``DatabaseRegion``s.
    ///
    /// ```swift
    /// let observation = DatabaseRegionObservation(tracking: Player.all(), Table("team"))
    /// let observation = DatabaseRegionObservation(tracking: .fullDatabase)
    /// ```
    public init(tracking regions: any DatabaseRegionConvertible...) {
        self.init(tracking: regions)
    }

    /// Observes the union of the given regions.
    public init(tracking regions: [any DatabaseRegionConvertible]) {
        self.regions = regions
    }

    /// Starts the observation: `onChange` is called on the writer, with
    /// its connection, right after each transaction that committed a change
    /// to the region, until the returned cancellable is cancelled or
    /// deinitialized. It is observing when `start` returns.
    ///
    /// `onError` gets the error that prevented the observation from
    /// starting (the region could not be computed, the database is
    /// closed). Closing the database ends the observation.
    @preconcurrency public func start(
        in writer: any DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void) -> AnyDatabaseCancellable
    {
        start(in: writer, onError: onError, onChange: onChange, onEnd: { })
    }

    /// The transactions that change the region, as an asynchronous
    /// sequence: one element after each such commit. The sequence throws
    /// the error that prevented the observation from starting, and ends
    /// when the database is closed. The observation stops when the
    /// iteration ends, or when the iterating task is cancelled.
    ///
    /// ```swift
    /// for try await _ in DatabaseRegionObservation(tracking: Table("player")).values(in: dbQueue) {
    ///     print("Players were changed")
    /// }
    /// ```
    ///
    /// The observation starts when the iteration starts. Unlike `start`,
    /// the iteration runs after the commit, concurrently with the writes
    /// that follow: read the database there to see a state at least as
    /// recent as the commit.
    ///
    /// - parameter writer: The database to observe.
    /// - parameter bufferingPolicy: What happens to the commits that the
    ///   iteration has not consumed yet: by default, each is kept
    ///   (`.bufferingNewest(1)` coalesces them).
    @_spi(GRDBLite)
    public func values(
        in writer: any DatabaseWriter,
        bufferingPolicy: AsyncValueObservation<Void>.BufferingPolicy = .unbounded) -> AsyncValueObservation<Void>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange, onEnd in
            start(in: writer, onError: onError, onChange: { _ in onChange(()) }, onEnd: onEnd)
        }
    }

    private func start(
        in writer: any DatabaseWriter,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Database) -> Void,
        onEnd: @escaping @Sendable () -> Void) -> AnyDatabaseCancellable
    {
        let observer = DatabaseRegionObserver(onChange: onChange, onEnd: onEnd)
        let regions = self.regions
        func install(_ db: Database) throws {
            let region = try DatabaseRegion.union(regions, in: db).observableRegion(db, canonicalNames: true)
            observer.region.withLock { $0 = region }
            db.add(transactionObserver: observer, extent: .observerLifetime)
        }
        do {
            if let writer = (writer as? any ObservableDatabaseReader)?.observationWriter {
                try writer.observationWriterSync(install)
            } else {
                // A read-only database: nothing changes. Another type: its
                // writer access, which traps if it is closed.
                try writer.unsafeReentrantWrite(install)
            }
        } catch {
            onError(error)
            return AnyDatabaseCancellable { }
        }
        // The connection holds the observer weakly: releasing it stops the
        // observation.
        let retained = Locked<DatabaseRegionObserver?>(observer)
        return AnyDatabaseCancellable {
            let observer = retained.withLock { observer in
                defer { observer = nil }
                return observer
            }
            observer?.cancel()
        }
    }
}

/// The transaction observer of a ``DatabaseRegionObservation``.
// @unchecked Sendable: `isChanged` is only used by the transaction observer
// callbacks, on the writer's queue; the rest is behind mutexes or constant.
private final class DatabaseRegionObserver: TransactionObserver, DatabaseClosingObserver, @unchecked Sendable {
    let region = Locked(DatabaseRegion())
    private let callbacks: Locked<(onChange: @Sendable (Database) -> Void, onEnd: @Sendable () -> Void)?>
    private var isChanged = false

    init(onChange: @escaping @Sendable (Database) -> Void, onEnd: @escaping @Sendable () -> Void) {
        callbacks = Locked((onChange, onEnd))
    }

    func cancel() {
        callbacks.withLock { $0 = nil }
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        region.withLock { $0 }.isModified(byEventsOfKind: eventKind)
    }

    func databaseDidChange() {
        isChanged = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if region.withLock({ $0 }).isModified(by: event) {
            isChanged = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidCommit(_ db: Database) {
        guard isChanged else { return }
        isChanged = false
        callbacks.withLock { $0?.onChange }?(db)
    }

    func databaseDidRollback(_ db: Database) {
        isChanged = false
    }

    func databaseWillClose() {
        let callbacks = self.callbacks.withLock { callbacks in
            defer { callbacks = nil }
            return callbacks
        }
        callbacks?.onEnd()
    }
}
