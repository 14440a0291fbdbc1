/// Not an API: the requirements of ``ValueReducer``, public because
/// ``ValueObservation`` is generic over its reducer.
///
/// A reducer turns what a ``ValueObservation`` fetches into the values it
/// notifies. Its fetcher runs on database connections, possibly several
/// at once; the reducer itself is called one value at a time, in order.
/// Reducers are not `Sendable` (``ValueObservation/removeDuplicates()``
/// calls `==`, which need not be), but their types are: observations
/// create them on other threads.
public protocol _ValueReducer: SendableMetatype {
    /// The fetching half of the reducer.
    associatedtype Fetcher: _ValueReducerFetcher
    /// The notified values.
    associatedtype Value: Sendable

    /// Not an API: returns the fetcher, called once per observation.
    func _makeFetcher() -> Fetcher

    /// Not an API: the value to notify after `fetched`, or nil to notify
    /// nothing (a duplicate, for example).
    mutating func _value(_ fetched: Fetcher.Value) throws -> Value?
}

/// Not an API: fetches the raw values of a ``ValueReducer``; public
/// because reducers are.
public protocol _ValueReducerFetcher: Sendable {
    /// What the fetcher fetches.
    associatedtype Value

    /// Not an API: fetches, inside a transaction.
    func fetch(_ db: Database) throws -> Value
}

/// The type that builds the values of a ``ValueObservation``, from its
/// fetch to its notified values (``ValueObservation/map(_:)``,
/// ``ValueObservation/removeDuplicates()``...). Use the built-in reducers,
/// in ``ValueReducers``: don't declare new conformances.
public protocol ValueReducer: _ValueReducer { }

/// The built-in ``ValueReducer``s. You don't use them directly; they
/// appear in the types of observations:
/// `ValueObservation<ValueReducers.Fetch<[Player]>>`.
public enum ValueReducers { }
