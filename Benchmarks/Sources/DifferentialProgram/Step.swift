/// A record's values, one for each of its table's columns, in order.
public struct RecordValues: Sendable, Codable, Hashable {
    public var table: TableName
    public var values: [Value]

    public init(table: TableName, values: [Value]) {
        self.table = table
        self.values = values
    }
}

/// `Database.TransactionKind`, for `inTransaction(_:_:)`.
public enum TransactionKindUse: String, Sendable, Codable, CaseIterable {
    case deferred, immediate, exclusive
}

/// What a step does with a record.
public enum RecordOperation: String, Sendable, Codable, CaseIterable {
    case insert, save, update, upsert, delete, insertAndFetch, exists
    case updateAndFetch, saveAndFetch, upsertAndFetch
    /// Fetches the record of the same id, sets the other values, `updateChanges`.
    case updateChanges
}

/// `Database.ConflictResolution`, for `insert(_:onConflict:)`.
public enum Conflict: String, Sendable, Codable, CaseIterable {
    case abort, ignore, replace
}

/// How a transaction or a savepoint ends.
public enum TransactionEnd: String, Sendable, Codable, CaseIterable {
    /// Returns `.commit`.
    case commit
    /// Returns `.rollback`.
    case rollback
}

/// One thing a GRDB user does with the database.
public indirect enum Step: Sendable, Codable, Hashable {
    /// `record.insert(db)`, `save`, ... on a `Team` or a `Player`.
    case record(RecordOperation, RecordValues, conflict: Conflict?)
    /// `Table.filter(...).updateAll(db, Column(column).set(to: value))`.
    case updateAll(TableName, Filter?, column: String, Value)
    /// `Table.filter(...).deleteAll(db)`.
    case deleteAll(TableName, Filter?)
    /// `Player.filter(...).deleteAndFetchAll(db)` (`DELETE ... RETURNING`): the deleted records.
    case deleteAndFetch(TableName, Filter?)
    /// A query-interface request, fetched.
    case query(Query)
    /// `db.execute(sql:arguments:)`, or `Row.fetchAll` when `fetches`.
    case sql(String, [Value], fetches: Bool)
    /// Throws an error of the program's own.
    case fail
    /// A raw SQL fetch through a row adapter.
    case adapted(AdaptedFetch)
    /// The `Codable` record of strategies, `Stamp<Profile>`.
    case stamp(StampStep)
    /// A request of interpolated SQL or a common table expression.
    case request(SQLRequestUse)
    /// A subclass of `Record`, `TeamRecord`.
    case recordClass(RecordClassStep)
    /// A grouped request, or an aggregate selection.
    case aggregate(AggregateUse)
    /// `db.inTransaction { ... }`: steps, then the end. When `catches`, each
    /// step's error is caught; otherwise the first one leaves the
    /// transaction, which rolls back.
    case transaction([Step], TransactionEnd, catches: Bool)
    /// `db.inSavepoint { ... }`, the same way.
    case savepoint([Step], TransactionEnd, catches: Bool)
    /// `db.inTransaction(kind) { ... }`, each step's error caught: often
    /// empty, or of steps that read or change nothing.
    case kindedTransaction(TransactionKindUse, [Step], TransactionEnd)
    /// Outside of the steps' database access: `close()`, open the same
    /// file again, and migrate again (when the schema has a migrator, or
    /// extra migrations), with `appending` more extra migrations than the
    /// last time (`extra1`, `extra2`...: an index each). The transaction
    /// observer is added again.
    case reopen(appending: Int)
    /// In a pool only: a read on a reader fetches `query`, and stays open
    /// while the writer runs `writes` in a transaction (each error caught); the same read
    /// fetches again (the old state: snapshot isolation), then a new read
    /// (the new state). Semaphores with a timeout order the two threads.
    case racingRead(Query, writes: [Step])
}
