// `TeamRecord`, a subclass of `Record` on the team table, and its steps.

/// What a step does with a `TeamRecord`.
public enum RecordClassOperation: String, Sendable, Codable, CaseIterable {
    /// `TeamRecord(...)`, then `insert`, `update`, `save`, `delete` or `exists`.
    case insert, update, save, delete, exists
    /// `TeamRecord.fetchOne(db, key: id)`, sets name and city,
    /// `databaseChanges`, then `updateChanges(db)`.
    case updateChanges
    /// `TeamRecord.order(Column("id")).fetchAll(db)`, and each one's `hasDatabaseChanges`.
    case fetchAll
}

/// A step on a `TeamRecord` of values (id, name, city).
public struct RecordClassStep: Sendable, Codable, Hashable {
    public var operation: RecordClassOperation
    public var values: [Value]

    public init(operation: RecordClassOperation, values: [Value]) {
        self.operation = operation
        self.values = values
    }
}
