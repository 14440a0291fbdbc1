extension ValueObservation {
    /// An observation that notifies the values of this one, transformed.
    /// The transform runs off the database connections, one value at a
    /// time; an error it throws ends the observation.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .map { players in players.map(\.name) }
    /// ```
    public func map<T>(
        _ transform: @escaping @Sendable (Reducer.Value) throws -> T) -> ValueObservation<ValueReducers.Map<Reducer, T>>
    {
        mapReducer { ValueReducers.Map($0, transform) }
    }
}

extension ValueReducers {
    /// The reducer of ``ValueObservation/map(_:)``.
    public struct Map<Base: ValueReducer, Value: Sendable>: ValueReducer {
        private var base: Base
        private let transform: @Sendable (Base.Value) throws -> Value

        init(_ base: Base, _ transform: @escaping @Sendable (Base.Value) throws -> Value) {
            self.base = base
            self.transform = transform
        }

        /// Not an API: see ``_ValueReducer``.
        public func _makeFetcher() -> Base.Fetcher {
            base._makeFetcher()
        }

        /// Not an API: see ``_ValueReducer``.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Value? {
            try base._value(fetched).map(transform)
        }
    }
}
