extension ValueObservation {
    /// An observation that notifies the values of this one, except those
    /// that `predicate` says are duplicates of the previous notified value.
    /// The predicate is called one value at a time.
    public func removeDuplicates(
        by predicate: sending @escaping (Reducer.Value, Reducer.Value) -> Bool)
        -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>>
    {
        // nonisolated(unsafe): the predicate is `sending`, so nothing else
        // uses it; each observation's reducer calls it serially.
        nonisolated(unsafe) let predicate = predicate
        return mapReducer { ValueReducers.RemoveDuplicates($0, predicate: predicate) }
    }
}

extension ValueObservation where Reducer.Value: Equatable {
    /// An observation that notifies the values of this one, except those
    /// equal to the previous notified value.
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking { db in try Int.fetchOne(db, sql: "SELECT MAX(score) FROM player") }
    ///     .removeDuplicates()
    /// ```
    public func removeDuplicates() -> ValueObservation<ValueReducers.RemoveDuplicates<Reducer>> {
        mapReducer { ValueReducers.RemoveDuplicates($0, predicate: { $0 == $1 }) }
    }
}

extension ValueReducers {
    /// The reducer of ``ValueObservation/removeDuplicates()``.
    public struct RemoveDuplicates<Base: ValueReducer>: ValueReducer {
        private var base: Base
        private var previous: Base.Value?
        private let isDuplicate: (Base.Value, Base.Value) -> Bool

        init(_ base: Base, predicate: @escaping (Base.Value, Base.Value) -> Bool) {
            self.base = base
            self.isDuplicate = predicate
        }

        /// Not an API: see ``_ValueReducer``.
        public func _makeFetcher() -> Base.Fetcher {
            base._makeFetcher()
        }

        /// Not an API: see ``_ValueReducer``.
        public mutating func _value(_ fetched: Base.Fetcher.Value) throws -> Base.Value? {
            guard let value = try base._value(fetched) else { return nil }
            if let previous, isDuplicate(previous, value) { return nil }
            previous = value
            return value
        }
    }
}
