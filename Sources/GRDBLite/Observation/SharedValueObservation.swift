import Dispatch

/// How long the database observation of a ``SharedValueObservation``
/// lasts.
public enum SharedValueObservationExtent: Sendable {
    /// One database observation, which stops when the shared observation
    /// is deinitialized and all its subscriptions are cancelled. An error
    /// ends it for good: later subscriptions get the error.
    case observationLifetime

    /// The database observation stops when the last subscription is
    /// cancelled (or fails), and starts again with the next one: a new
    /// subscription recovers from an error.
    case whileObserved
}

extension ValueObservation where Reducer.Value: Sendable {
    /// An observation whose subscriptions share one database observation:
    /// one fetch per change, whatever the number of subscribers.
    ///
    /// ```swift
    /// let sharedPlayers = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .shared(in: dbQueue)
    ///
    /// let cancellable1 = sharedPlayers.start(onError: { _ in }, onChange: { players in ... })
    /// let cancellable2 = sharedPlayers.start(onError: { _ in }, onChange: { players in ... })
    /// ```
    ///
    /// A subscription that starts while the database observation runs gets
    /// the last value first (before `start` returns with
    /// ``ValueObservationScheduler/immediate``), then the next ones.
    ///
    /// - parameter reader: The database to observe.
    /// - parameter scheduler: Where values are notified: by default,
    ///   asynchronously on the main dispatch queue, as in GRDB (on Linux,
    ///   it runs only if the main thread runs it: prefer
    ///   `.async(onQueue:)` or `.task` on a server).
    /// - parameter extent: By default, `.whileObserved`.
    public func shared(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved) -> SharedValueObservation<Reducer.Value>
    {
        SharedValueObservation(scheduler: scheduler, extent: extent) { onError, onChange, onEnd in
            startObserver(in: reader, scheduling: scheduler, onError: onError, onChange: onChange, onEnd: onEnd)
        }
    }
}

/// A ``ValueObservation`` shared by its subscriptions: see
/// ``ValueObservation/shared(in:scheduling:extent:)``.
// @unchecked Sendable: the mutable state is behind `state`'s lock.
public final class SharedValueObservation<Element: Sendable>: @unchecked Sendable {
    typealias Start = @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Element) -> Void,
        _ onEnd: @escaping @Sendable () -> Void) -> AnyDatabaseCancellable

    /// One subscription.
    private final class Client: Sendable {
        let onError: @Sendable (any Error) -> Void
        let onChange: @Sendable (Element) -> Void
        let onEnd: (@Sendable () -> Void)?

        init(
            onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Element) -> Void,
            onEnd: (@Sendable () -> Void)?
        ) {
            self.onError = onError
            self.onChange = onChange
            self.onEnd = onEnd
        }

        func notify(_ result: Result<Element, any Error>) {
            switch result {
            case .success(let value): onChange(value)
            case .failure(let error): onError(error)
            }
        }
    }

    private struct State {
        var clients: [Client] = []
        /// Whether the database observation runs (or is starting).
        var isObserving = false
        /// Counts the database observations started, so that a start that
        /// returns late keeps its cancellable only if it is still current.
        var observationCount = 0
        var cancellable: AnyDatabaseCancellable?
        /// The last value or error, for the subscriptions that start later.
        var lastResult: Result<Element, any Error>?
        /// Whether the database was closed: later subscriptions end at once.
        var hasEnded = false
    }

    /// What a new subscription does, decided under the lock.
    private enum SubscriptionStart {
        case startObservation(Int)
        case notifyLast(Result<Element, any Error>)
        case end
        case none
    }

    private let scheduler: any ValueObservationScheduler
    private let extent: SharedValueObservationExtent
    private let startObservation: Start
    private let state = Locked(State())

    init(scheduler: some ValueObservationScheduler, extent: SharedValueObservationExtent, start: @escaping Start) {
        self.scheduler = scheduler
        self.extent = extent
        startObservation = start
    }

    deinit {
        state.withLock { $0.cancellable }?.cancel()
    }

    /// Subscribes: `onChange` gets the values, `onError` the error that
    /// ends the observation. The subscription lasts until the returned
    /// cancellable is cancelled or deinitialized, and keeps the shared
    /// observation alive until then.
    @preconcurrency public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Element) -> Void) -> AnyDatabaseCancellable
    {
        subscribe(Client(onError: onError, onChange: onChange, onEnd: nil))
    }

    /// The values, as an asynchronous sequence, through a subscription of
    /// its own for each iteration.
    ///
    /// ```swift
    /// for try await players in sharedPlayers.values() {
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    public func values(bufferingPolicy: AsyncValueObservation<Element>.BufferingPolicy = .unbounded)
        -> AsyncValueObservation<Element>
    {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange, onEnd in
            self.subscribe(Client(onError: onError, onChange: onChange, onEnd: onEnd))
        }
    }

    private func subscribe(_ client: Client) -> AnyDatabaseCancellable {
        let action: SubscriptionStart = state.withLock { state in
            if state.hasEnded { return .end }
            // A failed observation of `observationLifetime` never restarts.
            if case .failure(let error)? = state.lastResult, !state.isObserving {
                return .notifyLast(.failure(error))
            }
            state.clients.append(client)
            if !state.isObserving {
                state.isObserving = true
                state.observationCount += 1
                return .startObservation(state.observationCount)
            }
            return state.lastResult.map { .notifyLast($0) } ?? .none
        }
        // Outside of the lock: the callbacks may subscribe again.
        switch action {
        case .startObservation(let observationNumber):
            let cancellable = startObservation(
                { [weak self] error in self?.observationDidFail(error) },
                { [weak self] value in self?.observationDidChange(value) },
                { [weak self] in self?.observationDidEnd() })
            let isStillObserving = state.withLock { state in
                guard state.isObserving && state.observationCount == observationNumber else { return false }
                state.cancellable = cancellable
                return true
            }
            // The subscriptions ended while it started (from the initial
            // value of `.immediate`, or an error): stop it.
            if !isStillObserving { cancellable.cancel() }
        case .notifyLast(let result):
            if scheduler.immediateInitialValue() {
                client.notify(result)
            } else {
                scheduler.schedule { client.notify(result) }
            }
        case .end:
            client.onEnd?()
        case .none:
            break
        }
        return AnyDatabaseCancellable {
            // The subscription retains the shared observation.
            self.unsubscribe(client)
        }
    }

    private func unsubscribe(_ client: Client) {
        let cancellable: AnyDatabaseCancellable? = state.withLock { state in
            state.clients.removeAll { $0 === client }
            guard extent == .whileObserved && state.clients.isEmpty && state.isObserving else { return nil }
            state.isObserving = false
            state.lastResult = nil
            defer { state.cancellable = nil }
            return state.cancellable
        }
        cancellable?.cancel()
    }

    private func observationDidChange(_ value: Element) {
        let clients = state.withLock { state in
            state.lastResult = .success(value)
            return state.clients
        }
        for client in clients { client.onChange(value) }
    }

    private func observationDidFail(_ error: any Error) {
        let clients = state.withLock { state in
            let clients = state.clients
            state.clients = []
            state.isObserving = false
            state.cancellable = nil
            // `observationLifetime` keeps the error for later subscriptions;
            // `whileObserved` starts again.
            state.lastResult = extent == .observationLifetime ? .failure(error) : nil
            return clients
        }
        for client in clients { client.onError(error) }
    }

    private func observationDidEnd() {
        let clients = state.withLock { state in
            let clients = state.clients
            state.clients = []
            state.isObserving = false
            state.cancellable = nil
            state.hasEnded = true
            return clients
        }
        for client in clients { client.onEnd?() }
    }
}
