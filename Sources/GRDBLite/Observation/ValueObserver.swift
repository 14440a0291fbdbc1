import Dispatch

/// A started ``ValueObservation``: fetches, reduces and notifies values.
///
/// With a writer (``DatabaseQueue``, ``DatabasePool``), it is a transaction
/// observer of the writer connection. After a commit that changed the
/// tracked region, it fetches: right away on the writer of a queue; with
/// `spawnConcurrentRead` on a reader of a pool, whose transaction is open
/// before the writer goes on, so that the value is the state of that
/// commit. One fetch runs at a time: a commit during a fetch makes another
/// fetch follow (`asyncRead`, a state at least as recent). While a fetch
/// runs and the region is not known (the initial fetch, or any fetch of a
/// ``ValueObservation/tracking(_:)`` observation, whose region may change),
/// every change counts. Values are reduced on a serial queue of their own,
/// in fetch order, and handed to the scheduler.
///
/// Without a writer (snapshots, read-only databases), it fetches once.
// @unchecked Sendable: `state` is behind a mutex; `isModified` is only used
// by the transaction observer callbacks, on the writer's queue; `reducer`
// only on `reduceQueue`.
final class ValueObserver<Reducer: ValueReducer, Scheduler: ValueObservationScheduler>: @unchecked Sendable {
    private typealias Fetched = Reducer.Fetcher.Value

    private let scheduler: Scheduler
    private let tracking: ValueObservationTracking
    private let requiresWriteAccess: Bool
    private let events: ValueObservationEvents
    private let fetcher: Reducer.Fetcher
    private let reader: any DatabaseReader
    private let writer: (any ObservationWriter)?
    private let reduceQueue = DispatchQueue(label: "GRDBLite.ValueObservation")
    private var reducer: Reducer
    private var isModified = false
    private let state: Locked<State>

    private struct State {
        /// nil once cancelled, or once the end of the observation was
        /// notified.
        var callbacks: Callbacks?
        /// False once cancelled, failed or closed: nothing more is fetched.
        var isObserving = true
        /// The tracked region, nil until known.
        var region: DatabaseRegion?
        /// The region last given to `willTrackRegion`.
        var reportedRegion: DatabaseRegion?
        /// A fetch runs (or is about to).
        var isFetching = false
        /// A commit happened during the running fetch.
        var needsFetch = false
    }

    private struct Callbacks {
        var onChange: @Sendable (Reducer.Value) -> Void
        var onEnd: (@Sendable () -> Void)?
    }

    init(
        observation: ValueObservation<Reducer>,
        events: ValueObservationEvents,
        reader: any DatabaseReader,
        scheduler: Scheduler,
        onChange: @escaping @Sendable (Reducer.Value) -> Void,
        onEnd: (@Sendable () -> Void)?)
    {
        self.scheduler = scheduler
        self.tracking = observation.tracking
        self.requiresWriteAccess = observation.requiresWriteAccess
        self.events = events
        self.reader = reader
        self.writer = (reader as? any ObservableDatabaseReader)?.observationWriter
        let reducer = observation.makeReducer()
        self.reducer = reducer
        self.fetcher = reducer._makeFetcher()
        self.state = Locked(State(callbacks: Callbacks(onChange: onChange, onEnd: onEnd)))
    }

    // MARK: - Starting

    func start() -> AnyDatabaseCancellable {
        guard let writer else { return startReadOnly() }
        if scheduler.immediateInitialValue() {
            let initialValue: Reducer.Value
            do {
                if writer.readsConcurrently && !requiresWriteAccess {
                    initialValue = try startImmediatelyWithConcurrentReads(writer)
                } else {
                    initialValue = try startImmediatelyOnWriter(writer)
                }
            } catch {
                return failImmediately(error)
            }
            notifyNow(initialValue)
        } else {
            writer.observationWriterAsync { dbResult in
                self.startOnWriter(writer, dbResult)
            }
        }
        return AnyDatabaseCancellable(self)
    }

    /// The initial value, fetched on the writer, which then observes.
    private func startImmediatelyOnWriter(_ writer: some ObservationWriter) throws -> Reducer.Value {
        let fetched = try writer.observationWriterSync { db in
            let region = try explicitRegion(db)
            let (fetched, recordedRegion) = try fetchOnWriter(db, recording: region == nil)
            install(in: db, region: region ?? recordedRegion, isFetching: false)
            reportRegion()
            // unsafe: the fetched value goes from the writer to this thread.
            return UncheckedSendable(fetched)
        }
        return try reduceQueue.sync { try reduceInitialValue(fetched.value) }
    }

    /// The initial value, fetched on a reader of a pool without waiting
    /// for the writer; then the writer observes. Commits may have happened
    /// in between: with SQLite snapshots (`SQLITE_ENABLE_SNAPSHOT`), the
    /// writer compares the state the value was fetched from with the last
    /// commit, and fetches again only if they differ; without them
    /// (Debian's SQLite), it always fetches again.
    private func startImmediatelyWithConcurrentReads(_ writer: some ObservationWriter) throws -> Reducer.Value {
        let (fetched, recordedRegion, fetchedState) = try writer.read { db in
            let (fetched, region) = try fetch(db, recording: tracking.isRecorded)
            // The state of the fetch, if SQLite can tell it (it may refuse,
            // e.g. for a WAL file that no transaction was written to). It
            // can be compared with a later one as long as the WAL file is
            // not deleted, which the writer's open connection prevents.
            let state = SnapshotAPI.linked == nil ? nil : try? WALSnapshot(db)
            // unsafe: the fetched value goes from the reader to this thread.
            return (UncheckedSendable(fetched), region, state)
        }
        let initialValue = try reduceQueue.sync { try reduceInitialValue(fetched.value) }
        writer.observationWriterAsync { dbResult in
            do {
                let db = try dbResult.get()
                guard self.isObserving else { return }
                var region = try self.explicitRegion(db)
                if let fetchedState, try db.isolated(readOnly: true, { fetchedState.isCurrent(in: db) }) {
                    // No commit since the fetch: the value and its region hold.
                    self.install(in: db, region: region ?? recordedRegion, isFetching: false)
                    self.reportRegion()
                    return
                }
                if case .constantRegion = self.tracking { region = recordedRegion }
                self.install(in: db, region: region, isFetching: true)
                self.events.databaseDidChange?()
                writer.spawnConcurrentRead { self.fetchConcurrently($0, writer) }
            } catch {
                self.fail(error)
            }
        }
        return initialValue
    }

    /// Starts observing from the writer connection, then fetches the
    /// initial value: on the writer, or on a reader that sees the state of
    /// the installation.
    private func startOnWriter(_ writer: some ObservationWriter, _ dbResult: Result<Database, any Error>) {
        do {
            let db = try dbResult.get()
            guard isObserving else { return }
            let region = try explicitRegion(db)
            if requiresWriteAccess {
                let (fetched, recordedRegion) = try fetchOnWriter(db, recording: region == nil)
                install(in: db, region: region ?? recordedRegion, isFetching: false)
                reportRegion()
                reduceAndNotify(fetched)
            } else {
                install(in: db, region: region, isFetching: true)
                writer.spawnConcurrentRead { self.fetchConcurrently($0, writer) }
            }
        } catch {
            fail(error)
        }
    }

    /// A snapshot, or a read-only database: one value.
    private func startReadOnly() -> AnyDatabaseCancellable {
        if scheduler.immediateInitialValue() {
            let initialValue: Reducer.Value
            do {
                let fetched = try reader.read { db in
                    // unsafe: the fetched value goes from the reader to this thread.
                    UncheckedSendable(try fetch(db, recording: false).value)
                }
                initialValue = try reduceQueue.sync { try reduceInitialValue(fetched.value) }
            } catch {
                return failImmediately(error)
            }
            notifyNow(initialValue)
        } else {
            reader.asyncRead { dbResult in
                do {
                    let db = try dbResult.get()
                    guard self.isObserving else { return }
                    self.reduceAndNotify(try self.fetch(db, recording: false).value)
                } catch {
                    self.fail(error)
                }
            }
        }
        return AnyDatabaseCancellable(self)
    }

    /// Observes the writer connection.
    private func install(in db: Database, region: DatabaseRegion?, isFetching: Bool) {
        state.withLock { state in
            state.region = region
            state.isFetching = isFetching
        }
        db.add(transactionObserver: self, extent: .observerLifetime)
    }

    // MARK: - Fetching

    /// Fetches in the current transaction, recording the region or not.
    private func fetch(_ db: Database, recording: Bool) throws -> (value: Fetched, region: DatabaseRegion?) {
        guard recording else { return (try fetcher.fetch(db), nil) }
        let (value, region) = try db.recordingSelection { try fetcher.fetch(db) }
        return (value, try region.observableRegion(db, canonicalNames: false))
    }

    /// Fetches on the writer connection, outside of any transaction: in a
    /// read-only transaction, or in a savepoint if the observation requires
    /// write access.
    private func fetchOnWriter(_ db: Database, recording: Bool) throws -> (value: Fetched, region: DatabaseRegion?) {
        guard requiresWriteAccess else {
            // After a commit, in the read-only transaction of the observers
            // told of it (see `SharedCommitRead`).
            return try db.isolatedAfterCommit { try fetch(db, recording: recording) }
        }
        var result: (value: Fetched, region: DatabaseRegion?)?
        try db.inSavepoint {
            result = try fetch(db, recording: recording)
            return .commit
        }
        return result!
    }

    /// The region given when the observation was created, if any.
    private func explicitRegion(_ db: Database) throws -> DatabaseRegion? {
        guard case .explicitRegions(let regions) = tracking else { return nil }
        return try DatabaseRegion.union(regions, in: db).observableRegion(db, canonicalNames: true)
    }

    /// Whether the next fetch records the region.
    private var recordsRegion: Bool {
        switch tracking {
        case .explicitRegions: false
        case .constantRegion: state.withLock { $0.region == nil }
        case .varyingRegion: true
        }
    }

    /// Fetches in the read transaction of `spawnConcurrentRead` or
    /// `asyncRead`, then starts the fetch that a commit during this one
    /// asked for.
    private func fetchConcurrently(_ dbResult: Result<Database, any Error>, _ writer: some ObservationWriter) {
        do {
            let db = try dbResult.get()
            guard isObserving else {
                state.withLock { $0.isFetching = false }
                return
            }
            let (fetched, region) = try fetch(db, recording: recordsRegion)
            if let region {
                state.withLock { $0.region = region }
            }
            reportRegion()
            // The value is enqueued in the same step as the fetch ends: no
            // other fetch can enqueue its value first, and once the value
            // is notified, changes are compared with the fetched region.
            let fetchesAgain = state.withLock { state in
                reduceAndNotify(fetched)
                if state.needsFetch {
                    state.needsFetch = false
                    return true
                }
                state.isFetching = false
                return false
            }
            if fetchesAgain {
                writer.asyncRead { self.fetchConcurrently($0, writer) }
            }
        } catch {
            state.withLock { $0.isFetching = false }
            if let error = error as? DatabaseError, error.isConnectionClosed {
                // The database closed after the commit: the observation ends.
                end()
            } else {
                fail(error)
            }
        }
    }

    /// Calls `willTrackRegion` if the region changed since the last call.
    private func reportRegion() {
        guard let willTrackRegion = events.willTrackRegion else { return }
        let region = state.withLock { state -> DatabaseRegion? in
            guard let region = state.region, region != state.reportedRegion else { return nil }
            state.reportedRegion = region
            return region
        }
        if let region { willTrackRegion(region) }
    }

    // MARK: - Notifying

    private var isObserving: Bool {
        state.withLock { $0.isObserving }
    }

    private func reduceInitialValue(_ fetched: Fetched) throws -> Reducer.Value {
        guard let value = try reducer._value(fetched) else {
            fatalError("A ValueReducer returned no initial value")
        }
        return value
    }

    /// Reduces on the reduce queue, then schedules the notification.
    private func reduceAndNotify(_ fetched: Fetched) {
        // unsafe: the fetched value goes from the fetching thread to the
        // reduce queue, and is not used anywhere else.
        let fetched = UncheckedSendable(fetched)
        reduceQueue.async {
            guard self.state.withLock({ $0.callbacks != nil }) else { return }
            do {
                guard let value = try self.reducer._value(fetched.value) else { return }
                self.scheduler.schedule { self.notifyNow(value) }
            } catch {
                self.fail(error)
            }
        }
    }

    /// Calls `onChange` unless the observation was cancelled.
    private func notifyNow(_ value: Reducer.Value) {
        guard let onChange = state.withLock({ $0.callbacks?.onChange }) else { return }
        onChange(value)
    }

    /// Ends the observation with an error, notified after the values that
    /// are already scheduled.
    private func fail(_ error: any Error) {
        guard stopObserving() else { return }
        scheduler.schedule {
            guard self.takeCallbacks() != nil else { return }
            self.events.didFail?(error)
        }
    }

    /// The error of the initial fetch of an immediate start, notified
    /// before `start` returns.
    private func failImmediately(_ error: any Error) -> AnyDatabaseCancellable {
        _ = stopObserving()
        if takeCallbacks() != nil {
            events.didFail?(error)
        }
        return AnyDatabaseCancellable { }
    }

    /// Ends the observation without error: the database closed.
    private func end() {
        guard stopObserving() else { return }
        scheduler.schedule {
            self.takeCallbacks()?.onEnd?()
        }
    }

    /// Stops fetching; false if the observation had already stopped.
    private func stopObserving() -> Bool {
        state.withLock { state in
            defer { state.isObserving = false }
            return state.isObserving
        }
    }

    private func takeCallbacks() -> Callbacks? {
        state.withLock { state in
            defer { state.callbacks = nil }
            return state.callbacks
        }
    }
}

extension ValueObserver: DatabaseCancellable {
    func cancel() {
        _ = stopObserving()
        guard takeCallbacks() != nil else { return }
        events.didCancel?()
    }
}

extension ValueObserver: DatabaseClosingObserver {
    func databaseWillClose() {
        end()
    }
}

extension ValueObserver: TransactionObserver {
    /// The region that changes are compared with, or nil when every change
    /// counts (the region is not known yet, or is being fetched again).
    private var trackedRegion: DatabaseRegion? {
        state.withLock { trackedRegion(in: $0) }
    }

    private func trackedRegion(in state: State) -> DatabaseRegion? {
        if case .varyingRegion = tracking, state.isFetching { return nil }
        return state.region
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        // One lock for both, asked for each statement.
        let (isObserving, region) = state.withLock { ($0.isObserving, trackedRegion(in: $0)) }
        guard isObserving else { return false }
        return region?.isModified(byEventsOfKind: eventKind) ?? true
    }

    func databaseDidChange() {
        isModified = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidChange(with event: DatabaseEvent) {
        if trackedRegion?.isModified(by: event) ?? true {
            isModified = true
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidCommit(_ db: Database) {
        guard isModified else { return }
        isModified = false
        guard isObserving, let writer else { return }
        events.databaseDidChange?()
        if requiresWriteAccess || !writer.readsConcurrently {
            // On the writer connection, right away: a queue's
            // `spawnConcurrentRead` would read there too, through one more
            // closure.
            do {
                let (fetched, region) = try fetchOnWriter(db, recording: recordsRegion)
                if let region {
                    state.withLock { $0.region = region }
                }
                reportRegion()
                reduceAndNotify(fetched)
            } catch {
                fail(error)
            }
            return
        }
        let startsFetch = state.withLock { state in
            if state.isFetching {
                state.needsFetch = true
                return false
            }
            state.isFetching = true
            return true
        }
        if startsFetch {
            writer.spawnConcurrentRead { self.fetchConcurrently($0, writer) }
        }
    }

    func databaseDidRollback(_ db: Database) {
        isModified = false
    }
}

extension ValueObserver: CommitReadSharingObserver {
    /// After a commit, an observation of a queue fetches on the writer: in
    /// a shared read-only transaction unless it requires write access.
    var sharesCommitRead: Bool { !requiresWriteAccess }
}

extension ValueObservationTracking {
    /// Whether fetches record the region they read.
    var isRecorded: Bool {
        if case .explicitRegions = self { return false }
        return true
    }
}
