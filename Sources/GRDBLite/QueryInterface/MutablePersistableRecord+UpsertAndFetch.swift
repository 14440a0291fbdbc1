// Upserts that return the upserted row, and say which columns they update
// (`updating:`, `doUpdate:`): they use the query interface's assignments
// and table aliases, so they live in this layer.

/// Which columns an upsert updates when it conflicts with an existing row.
public struct UpsertUpdateStrategy: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Only the columns of the `doUpdate` assignments are updated.
    public static let noColumnUnlessSpecified = UpsertUpdateStrategy([])

    /// All columns but the primary key and the conflict target are
    /// overwritten with the inserted values, unless a `doUpdate` assignment
    /// says otherwise. The default.
    public static let allColumns = UpsertUpdateStrategy(rawValue: 1 << 0)
}

extension MutablePersistableRecord {
    /// Inserts the record, or updates the row it conflicts with, and returns
    /// the upserted row (`INSERT ... ON CONFLICT DO UPDATE ... RETURNING *`).
    /// `didInsert` gets the rowid of the inserted or updated row.
    ///
    /// ```swift
    /// // INSERT INTO vocabulary (word, kind) VALUES (?,?)
    /// // ON CONFLICT("word") DO UPDATE SET "count" = "count" + ?, "kind" = "excluded"."kind"
    /// // RETURNING *, "rowid"
    /// let upserted = try vocabulary.upsertAndFetch(db, onConflict: ["word"]) { excluded in
    ///     [Column("count") += 1]
    /// }
    /// ```
    ///
    /// - parameter db: A connection that can write.
    /// - parameter conflictTarget: The columns of the uniqueness
    ///   constraint that may conflict; any constraint when empty.
    /// - parameter strategy: Which columns are updated when no assignment
    ///   says otherwise: by default, all but the primary key and the
    ///   conflict target are overwritten with the inserted values.
    /// - parameter assignments: Assignments of the updated row; `excluded`
    ///   refers to the values of the insertion (`excluded["name"]`), and
    ///   `Column("name").noOverwrite` keeps a column as it is.
    public mutating func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> Self
    where Self: FetchableRecord
    {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }

    /// Inserts the record, or updates the row it conflicts with, and returns
    /// the upserted row as another record type. See
    /// ``upsertAndFetch(_:onConflict:updating:doUpdate:)``.
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> T
    {
        try upsertAndFetch(
            db, onConflict: conflictTarget,
            overwritesAllColumns: strategy.contains(.allColumns),
            assignments: Self.upsertAssignments(assignments),
            selection: T.databaseSelection,
            decode: T.init(row:))
    }

    /// The assignments of `doUpdate`, with `excluded` attached to the
    /// record's table.
    static func upsertAssignments(
        _ assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])?
    ) -> [(column: String, value: SQLExpression?)]
    {
        guard let assignments else { return [] }
        let excluded = TableAlias<Self>(name: "excluded")
        excluded.setTableName(databaseTableName)
        return assignments(excluded).map { ($0.columnName, $0.value) }
    }
}

extension PersistableRecord {
    /// Inserts the record, or updates the row it conflicts with, and returns
    /// the upserted row. See
    /// ``MutablePersistableRecord/upsertAndFetch(_:onConflict:updating:doUpdate:)``.
    public func upsertAndFetch(
        _ db: Database,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> Self
    where Self: FetchableRecord
    {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget, updating: strategy, doUpdate: assignments)
    }

    /// Inserts the record, or updates the row it conflicts with, and returns
    /// the upserted row as another record type. See
    /// ``MutablePersistableRecord/upsertAndFetch(_:onConflict:updating:doUpdate:)``.
    public func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = [],
        updating strategy: UpsertUpdateStrategy = .allColumns,
        doUpdate assignments: ((_ excluded: TableAlias<Self>) -> [ColumnAssignment])? = nil) throws -> T
    {
        var record = self
        return try record.upsertAndFetch(
            db, onConflict: conflictTarget,
            overwritesAllColumns: strategy.contains(.allColumns),
            assignments: Self.upsertAssignments(assignments),
            selection: T.databaseSelection,
            decode: T.init(row:))
    }
}
