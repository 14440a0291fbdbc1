// Optional support of GRDB's base test class: compiled only when the
// library has `ValueReducer` (GRDB's ValueObservation tests build custom
// reducers with it).

import GRDBLite

/// A value reducer made of two closures: one fetches, one turns what was
/// fetched into the observed value (nil: no new value).
struct AnyValueReducer<Fetched, Value>: ValueReducer {
    private var fetch: @Sendable (Database) throws -> Fetched
    private var makeValue: (Fetched) -> Value?

    init(fetch: @escaping @Sendable (Database) throws -> Fetched, value: @escaping (Fetched) -> Value?) {
        self.fetch = fetch
        self.makeValue = value
    }

    func _makeFetcher() -> AnyValueReducerFetcher<Fetched> {
        AnyValueReducerFetcher(fetch: fetch)
    }

    func _value(_ fetched: Fetched) -> Value? {
        makeValue(fetched)
    }
}

/// The fetching half of ``AnyValueReducer``.
struct AnyValueReducerFetcher<Fetched>: _ValueReducerFetcher {
    private var fetchValue: @Sendable (Database) throws -> Fetched

    init(fetch: @escaping @Sendable (Database) throws -> Fetched) {
        self.fetchValue = fetch
    }

    func fetch(_ db: Database) throws -> Fetched {
        try fetchValue(db)
    }
}
