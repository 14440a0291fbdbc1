/// A random program: a schema, then steps, then the final content.
public struct Program: Sendable, Codable, Hashable {
    /// The seed it was generated from (`--seed S --programs 1` replays it).
    public var seed: UInt64
    public var schema: Schema
    public var steps: [Step]
    /// Whether a transaction observer of every table watches the steps.
    public var observesTransactions: Bool
    /// What that observer observes.
    public var observerFilter: ObserverFilter
    /// A `ValueObservation` started before the steps (queues only).
    public var observation: ObservationUse?
    /// A `DatabasePool` (WAL) instead of a `DatabaseQueue`.
    public var usesPool: Bool

    public init(
        seed: UInt64, schema: Schema, steps: [Step], observesTransactions: Bool,
        observation: ObservationUse? = nil, usesPool: Bool = false, observerFilter: ObserverFilter = .everything
    ) {
        self.observerFilter = observerFilter
        self.seed = seed
        self.schema = schema
        self.steps = steps
        self.observesTransactions = observesTransactions
        self.observation = observation
        self.usesPool = usesPool
    }
}
