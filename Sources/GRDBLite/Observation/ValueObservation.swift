/// Observes the results of database requests: notifies a fresh value
/// whenever a transaction commits a change to what they read.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.fetchAll(db)
/// }
///
/// // In a task
/// for try await players in observation.values(in: dbQueue) {
///     print("Fresh players: \(players)")
/// }
///
/// // With callbacks
/// let cancellable = observation.start(
///     in: dbQueue,
///     scheduling: .async(onQueue: myQueue),
///     onError: { error in print(error) },
///     onChange: { players in print("Fresh players: \(players)") })
/// ```
///
/// Guarantees:
/// - The first value is the state of the database when the observation
///   starts.
/// - After each transaction that commits a change to the tracked region,
///   a fresh value is fetched from a state at least as recent as that
///   commit: no change is missed, and the last value reflects the last
///   commit. Values are notified in the order of the states they come from.
/// - Values of uncommitted or rolled back states are never notified.
/// - Consecutive changes may be coalesced into one value, and a value may
///   equal the previous one (see ``removeDuplicates()``).
/// - After the cancellable is cancelled or deinitialized, `onChange` is
///   not called again; an error of the fetch ends the observation (it goes
///   to `onError`); closing the database ends its observations.
///
/// The tracked region is recorded by SQLite's authorizer at each fetch
/// (``tracking(_:)``), once (``trackingConstantRegion(_:)``), or given
/// (``tracking(region:_:fetch:)``). Changes that SQLite does not report
/// (other connections, `WITHOUT ROWID` tables, the schema) are seen only
/// after ``Database/notifyChanges(in:)``.
public struct ValueObservation<Reducer: ValueReducer>: Sendable {
    /// Whether fetches can write: they then run on the writer connection,
    /// in a savepoint, and a ``DatabasePool`` can't fetch concurrently with
    /// its writes. False by default: fetches are read-only, and a write
    /// fails with `SQLITE_READONLY`.
    ///
    /// ```swift
    /// var observation = ValueObservation.tracking { db in
    ///     try Player.cleanUpAndFetchAll(db) // writes
    /// }
    /// observation.requiresWriteAccess = true
    /// ```
    public var requiresWriteAccess = false

    var events = ValueObservationEvents()
    var tracking: ValueObservationTracking
    /// Called once per started observation.
    var makeReducer: @Sendable () -> Reducer

    init(tracking: ValueObservationTracking, makeReducer: @escaping @Sendable () -> Reducer) {
        self.tracking = tracking
        self.makeReducer = makeReducer
    }

    /// The same observation with another reducer, made from this one's.
    func mapReducer<R>(_ transform: @escaping @Sendable (Reducer) -> R) -> ValueObservation<R> {
        let makeReducer = self.makeReducer
        var observation = ValueObservation<R>(tracking: tracking) { transform(makeReducer()) }
        observation.events = events
        observation.requiresWriteAccess = requiresWriteAccess
        return observation
    }
}

/// How an observation knows the region it tracks.
enum ValueObservationTracking: Sendable {
    /// Given when the observation is created.
    case explicitRegions([any DatabaseRegionConvertible])
    /// What the first fetch reads.
    case constantRegion
    /// What the last fetch read.
    case varyingRegion
}

/// The callbacks of
/// ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``
/// that don't depend on the reducer (the others are in
/// ``ValueReducers/Trace``), and `onError`.
struct ValueObservationEvents: Sendable {
    var willStart: (@Sendable () -> Void)?
    var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
    var databaseDidChange: (@Sendable () -> Void)?
    var didFail: (@Sendable (any Error) -> Void)?
    var didCancel: (@Sendable () -> Void)?

    /// Both callbacks, `first` first.
    static func chain(_ first: (@Sendable () -> Void)?, _ second: (@Sendable () -> Void)?) -> (@Sendable () -> Void)? {
        guard let first else { return second }
        guard let second else { return first }
        return { first(); second() }
    }

    /// Both callbacks, `first` first.
    static func chain<T>(_ first: (@Sendable (T) -> Void)?, _ second: (@Sendable (T) -> Void)?) -> (
        @Sendable (T) -> Void
    )? {
        guard let first else { return second }
        guard let second else { return first }
        return { first($0); second($0) }
    }
}

// MARK: - Creating observations

extension ValueObservation {
    /// An observation of the value that `fetch` returns, which tracks what
    /// each fetch reads: the region may change from one fetch to the next.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try Player.fetchAll(db)
    /// }
    /// // Or:
    /// let observation = ValueObservation.tracking(Player.fetchAll)
    ///
    /// // The tracked table depends on the content of `choice`:
    /// let observation = ValueObservation.tracking { db -> Int in
    ///     let table = try String.fetchOne(db, sql: "SELECT t FROM choice")!
    ///     return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!
    /// }
    /// ```
    ///
    /// In a ``DatabasePool``, fresh values are fetched on a reader,
    /// concurrently with the writes that follow; while a fetch runs, any
    /// committed change triggers another fetch, since the new region is not
    /// known yet.
    @preconcurrency public static func tracking<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
    where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(tracking: .varyingRegion) { ValueReducers.Fetch(fetch) }
    }

    /// An observation of the value that `fetch` returns, which tracks what
    /// the first fetch reads: `fetch` must always read the same tables,
    /// columns and rows (with ``Database/registerAccess(to:)``, it can
    /// declare the others).
    ///
    /// ```swift
    /// let observation = ValueObservation.trackingConstantRegion { db in
    ///     try Player.fetchAll(db)
    /// }
    /// ```
    ///
    /// Changes outside of that region are not notified: use
    /// ``tracking(_:)`` when the region depends on the database content.
    @preconcurrency public static func trackingConstantRegion<Value>(
        _ fetch: @escaping @Sendable (Database) throws -> Value) -> Self
    where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(tracking: .constantRegion) { ValueReducers.Fetch(fetch) }
    }

    /// An observation of the value that `fetch` returns, which tracks the
    /// given regions, whatever `fetch` reads.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(
    ///     region: Player.all(), Table("team"),
    ///     fetch: { db in try Player.fetchCount(db) })
    /// let observation = ValueObservation.tracking(
    ///     region: .fullDatabase,
    ///     fetch: { db in try Player.fetchCount(db) })
    /// ```
    @preconcurrency public static func tracking<Value>(
        region: any DatabaseRegionConvertible,
        _ otherRegions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value) -> Self
    where Reducer == ValueReducers.Fetch<Value>
    {
        tracking(regions: [region] + otherRegions, fetch: fetch)
    }

    /// An observation of the value that `fetch` returns, which tracks the
    /// given regions, whatever `fetch` reads.
    @preconcurrency public static func tracking<Value>(
        regions: [any DatabaseRegionConvertible],
        fetch: @escaping @Sendable (Database) throws -> Value) -> Self
    where Reducer == ValueReducers.Fetch<Value>
    {
        ValueObservation(tracking: .explicitRegions(regions)) { ValueReducers.Fetch(fetch) }
    }
}

// MARK: - Starting observations

extension ValueObservation {
    /// Starts the observation: `onChange` gets the initial value, then a
    /// fresh value after each change, until the returned cancellable is
    /// cancelled or deinitialized. `onError` gets the error that ends the
    /// observation, if any.
    ///
    /// ```swift
    /// let cancellable = observation.start(
    ///     in: dbQueue,
    ///     scheduling: .async(onQueue: myQueue),
    ///     onError: { error in print(error) },
    ///     onChange: { players in print("Fresh players: \(players)") })
    /// ```
    ///
    /// The scheduler says where and when the callbacks run:
    /// ``ValueObservationScheduler/async(onQueue:)`` on a serial dispatch
    /// queue, ``ValueObservationScheduler/task`` on a task,
    /// ``ValueObservationScheduler/immediate`` on the main thread with the
    /// initial value before `start` returns. In a ``DatabasePool``, that
    /// initial value is fetched on a reader; it is fetched, and notified,
    /// again once the writer observes, unless SQLite has snapshots
    /// (`SQLITE_ENABLE_SNAPSHOT`) that tell that nothing was committed
    /// in between.
    ///
    /// The observation retains `reader` until it ends. A database
    /// snapshot, or a read-only database, notifies its one value only.
    @preconcurrency public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        startObserver(in: reader, scheduling: scheduler, onError: onError, onChange: onChange, onEnd: nil)
    }

    /// Starts the observation, with callbacks on the main actor: by
    /// default, the values are notified asynchronously
    /// (``ValueObservationScheduler/mainActor``); with
    /// ``ValueObservationScheduler/immediate``, the initial value is
    /// notified before `start` returns.
    ///
    /// ```swift
    /// let cancellable = observation.start(in: dbQueue) { error in
    ///     // handle the error
    /// } onChange: { players in
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    ///
    /// On Linux, the main actor runs its jobs when the main thread runs the
    /// main dispatch queue: in an `async` main function, or in
    /// `dispatchMain()`.
    @MainActor
    @preconcurrency public func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor (any Error) -> Void,
        onChange: @escaping @MainActor (Reducer.Value) -> Void) -> AnyDatabaseCancellable
    {
        startObserver(
            in: reader,
            scheduling: scheduler,
            onError: { error in MainActor.assumeIsolated { onError(error) } },
            onChange: { value in MainActor.assumeIsolated { onChange(value) } },
            onEnd: nil)
    }

    /// The values of the observation, as an asynchronous sequence: the
    /// initial value, then a fresh value after each change. The sequence
    /// throws the error that ends the observation, and ends when the
    /// database is closed. The observation stops when the iteration ends,
    /// or when the iterating task is cancelled.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue) {
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    ///
    /// - parameter reader: The database to observe.
    /// - parameter scheduler: By default, values are produced on a task
    ///   (``ValueObservationScheduler/task``).
    /// - parameter bufferingPolicy: What happens to the values that the
    ///   iteration has not consumed yet: by default, all are kept
    ///   (`.bufferingNewest(1)` keeps the freshest one only).
    public func values(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .task,
        bufferingPolicy: AsyncValueObservation<Reducer.Value>.BufferingPolicy = .unbounded)
        -> AsyncValueObservation<Reducer.Value>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange, onEnd in
            startObserver(in: reader, scheduling: scheduler, onError: onError, onChange: onChange, onEnd: onEnd)
        }
    }

    /// Starts the observation; `onEnd` is called if the database closes.
    func startObserver(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Reducer.Value) -> Void,
        onEnd: (@Sendable () -> Void)?) -> AnyDatabaseCancellable
    {
        var events = self.events
        events.didFail = ValueObservationEvents.chain(events.didFail, onError)
        events.willStart?()
        let observer = ValueObserver(
            observation: self, events: events, reader: reader, scheduler: scheduler,
            onChange: onChange, onEnd: onEnd)
        return observer.start()
    }
}
