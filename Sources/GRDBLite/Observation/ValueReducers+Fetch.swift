extension ValueReducers {
    /// The reducer of an observation made with
    /// ``ValueObservation/tracking(_:)`` and its variants: notifies each
    /// fetched value.
    public struct Fetch<Value: Sendable>: ValueReducer {
        /// Not an API: the fetcher of ``ValueReducers/Fetch``, public
        /// because the reducer is.
        public struct _Fetcher: _ValueReducerFetcher {
            let fetchValue: @Sendable (Database) throws -> Value

            /// Not an API: calls the observation's fetch closure.
            public func fetch(_ db: Database) throws -> Value {
                try fetchValue(db)
            }
        }

        private let fetchValue: @Sendable (Database) throws -> Value

        init(_ fetch: @escaping @Sendable (Database) throws -> Value) {
            fetchValue = fetch
        }

        /// Not an API: see ``_ValueReducer``.
        public func _makeFetcher() -> _Fetcher {
            _Fetcher(fetchValue: fetchValue)
        }

        /// Not an API: see ``_ValueReducer``.
        public func _value(_ fetched: Value) -> Value? {
            fetched
        }
    }
}
