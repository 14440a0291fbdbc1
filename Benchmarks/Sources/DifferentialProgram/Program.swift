/// A random program: a schema, then steps, then the final content.
public struct Program: Sendable, Codable, Hashable {
    /// The seed it was generated from (`--seed S --programs 1` replays it).
    public var seed: UInt64
    public var schema: Schema
    public var steps: [Step]

    public init(seed: UInt64, schema: Schema, steps: [Step]) {
        self.seed = seed
        self.schema = schema
        self.steps = steps
    }
}
