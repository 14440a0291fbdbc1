extension ValueObservation {
    /// An observation that calls the given closures when its events occur,
    /// for debugging. They run on unspecified threads.
    ///
    /// - parameters:
    ///   - willStart: The observation starts.
    ///   - willFetch: A value is about to be fetched.
    ///   - willTrackRegion: The observation tracks a region, after the
    ///     initial fetch, then each time the region changes.
    ///   - databaseDidChange: A transaction committed a change to the
    ///     tracked region.
    ///   - didReceiveValue: A value is about to be notified.
    ///   - didFail: The observation fails.
    ///   - didCancel: The observation is cancelled.
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Reducer.Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil)
        -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        var observation = mapReducer {
            ValueReducers.Trace(base: $0, willFetch: willFetch ?? { }, didReceiveValue: didReceiveValue ?? { _ in })
        }
        observation.events.willStart = ValueObservationEvents.chain(events.willStart, willStart)
        observation.events.willTrackRegion = ValueObservationEvents.chain(events.willTrackRegion, willTrackRegion)
        observation.events.databaseDidChange = ValueObservationEvents.chain(events.databaseDidChange, databaseDidChange)
        observation.events.didFail = ValueObservationEvents.chain(events.didFail, didFail)
        observation.events.didCancel = ValueObservationEvents.chain(events.didCancel, didCancel)
        return observation
    }

    /// An observation that prints its events, for debugging:
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchCount(db) }
    ///     .print("players")
    /// // players: start
    /// // players: fetch
    /// // players: tracked region: player(*)
    /// // players: value: 0
    /// // players: database did change
    /// // players: fetch
    /// // players: value: 1
    /// ```
    ///
    /// - parameter prefix: Printed before each event, with a colon.
    /// - parameter stream: Where to print; standard output by default.
    public func print(
        _ prefix: String = "",
        to stream: sending (any TextOutputStream)? = nil)
        -> ValueObservation<ValueReducers.Trace<Reducer>>
    {
        let output = SynchronizedOutput(stream)
        let prefix = prefix.isEmpty ? "" : "\(prefix): "
        return handleEvents(
            willStart: { output.write("\(prefix)start") },
            willFetch: { output.write("\(prefix)fetch") },
            willTrackRegion: { output.write("\(prefix)tracked region: \($0)") },
            databaseDidChange: { output.write("\(prefix)database did change") },
            didReceiveValue: { output.write("\(prefix)value: \($0)") },
            didFail: { output.write("\(prefix)failure: \($0)") },
            didCancel: { output.write("\(prefix)cancel") })
    }
}

/// A text stream written by one thread at a time, or standard output.
private final class SynchronizedOutput: Sendable {
    private let stream: Locked<(any TextOutputStream)?>

    init(_ stream: sending (any TextOutputStream)?) {
        self.stream = Locked(stream)
    }

    func write(_ message: String) {
        stream.withLock { stream in
            if stream == nil {
                Swift.print(message)
            } else {
                stream!.write(message)
            }
        }
    }
}

extension ValueReducers {
    /// The reducer of
    /// ``ValueObservation/handleEvents(willStart:willFetch:willTrackRegion:databaseDidChange:didReceiveValue:didFail:didCancel:)``.
    public struct Trace<Base: ValueReducer>: ValueReducer {
        /// Not an API: the fetcher of ``ValueReducers/Trace``, public
        /// because the reducer is.
        public struct _Fetcher: _ValueReducerFetcher {
            let base: Base.Fetcher
            let willFetch: @Sendable () -> Void

            /// Not an API: calls `willFetch`, then fetches.
            public func fetch(_ db: Database) throws -> Base.Fetcher.Value {
                willFetch()
                return try base.fetch(db)
            }
        }

        private var base: Base
        private let willFetch: @Sendable () -> Void
        private let didReceiveValue: @Sendable (Base.Value) -> Void

        init(
            base: Base, willFetch: @escaping @Sendable () -> Void,
            didReceiveValue: @escaping @Sendable (Base.Value) -> Void
        ) {
            self.base = base
            self.willFetch = willFetch
            self.didReceiveValue = didReceiveValue
        }

        /// Not an API: see ``_ValueReducer``.
        public func _makeFetcher() -> _Fetcher {
            _Fetcher(base: base._makeFetcher(), willFetch: willFetch)
        }

        /// Not an API: see ``_ValueReducer``.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            didReceiveValue(value)
            return value
        }
    }
}
