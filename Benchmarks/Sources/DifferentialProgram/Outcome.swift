/// What a user observes of one step.
public struct StepOutcome: Sendable, Codable, Hashable {
    /// Where the step is: `3`, or `3.1` for the first step of step 3.
    public var path: String
    /// The statements SQLite ran, as `db.trace` tells them: arguments
    /// expanded, then as sent (with `?` placeholders).
    public var expandedSQL: [String]
    public var sql: [String]
    /// The values, rows or records returned, or the error thrown.
    public var result: String
    /// What a transaction observer was told, when the program has one.
    public var events: [String]
    /// The values (or errors) the program's `ValueObservation` notified.
    public var values: [String]

    public init(
        path: String, expandedSQL: [String], sql: [String], result: String, events: [String], values: [String] = []
    ) {
        self.path = path
        self.expandedSQL = expandedSQL
        self.sql = sql
        self.result = result
        self.events = events
        self.values = values
    }
}

/// Everything a user observes of a program.
public struct Outcome: Sendable, Codable, Hashable {
    /// The schema's creation (path `schema`), then each step.
    public var steps: [StepOutcome]
    /// `dumpContent()` at the end, or its error.
    public var finalContent: String

    public init(steps: [StepOutcome], finalContent: String) {
        self.steps = steps
        self.finalContent = finalContent
    }
}
