/// A reducer whose `_value` costs little next to its fetch, as it calls no
/// closure but comparisons: ``ValueReducers/Fetch``, and
/// ``ValueReducers/RemoveDuplicates`` of such a reducer.
///
/// An observation of a pool reduces the values of such a reducer on the
/// reader, right where it fetched them, instead of handing each to a queue
/// of its own: one thread hand-over less per value. The other reducers
/// (`map`, `handleEvents`) run closures of the user, which may be slow:
/// they reduce on the observation's queue, and the reader goes on.
protocol CheapValueReducer {
    /// Whether `_value` is cheap: a wrapper is as cheap as what it wraps.
    static var isCheap: Bool { get }
}

extension ValueReducers.Fetch: CheapValueReducer {
    static var isCheap: Bool { true }
}

extension ValueReducers.RemoveDuplicates: CheapValueReducer {
    static var isCheap: Bool {
        (Base.self as? any CheapValueReducer.Type)?.isCheap ?? false
    }
}
