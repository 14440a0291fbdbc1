// Batch deletes and updates that return the rows they delete or update,
// with a RETURNING clause (SQLite 3.35+).
//
// SQLite's caveats apply: the order of returned rows is unspecified, and
// `LIMIT` can't be combined with `RETURNING`.
// <https://www.sqlite.org/lang_returning.html#limitations_and_caveats>

// MARK: - Delete and fetch

extension QueryInterfaceRequest {
    /// A `DELETE ... RETURNING` statement, to run and fetch from.
    ///
    /// ```swift
    /// // DELETE FROM "player" RETURNING "name"
    /// let statement = try Player.all().deleteAndFetchStatement(db, selection: [Column("name")])
    /// let deletedNames = try String.fetchSet(statement)
    /// ```
    ///
    /// - precondition: `selection` is not empty.
    public func deleteAndFetchStatement(_ db: Database, selection: [any SQLSelectable]) throws -> Statement {
        precondition(!selection.isEmpty, "Invalid empty selection")
        return try SQLQueryGenerator(relation: relation).makeDeleteStatement(db, selection: selection)
    }

    /// A `DELETE ... RETURNING` statement whose returned columns are
    /// picked from the record's columns: `deleteAndFetchStatement(db) { [$0.name] }`.
    public func deleteAndFetchStatement(
        _ db: Database,
        select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> Statement
    where RowDecoder: TableRecord
    {
        try deleteAndFetchStatement(db, selection: select(RowDecoder.databaseComponents))
    }

    /// Deletes the rows of the request, and returns a cursor over the
    /// deleted records (`DELETE ... RETURNING *`). The rows are deleted as
    /// the cursor is iterated.
    public func deleteAndFetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord
    {
        try RowDecoder.fetchCursor(deleteAndFetchStatement(db, selection: RowDecoder.databaseSelection))
    }

    /// Deletes the rows of the request, and returns the deleted records.
    public func deleteAndFetchAll(_ db: Database) throws -> [RowDecoder]
    where RowDecoder: FetchableRecord & TableRecord
    {
        try Array(deleteAndFetchCursor(db))
    }

    /// Deletes the rows of the request, and returns the set of deleted
    /// records.
    public func deleteAndFetchSet(_ db: Database) throws -> Set<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord & Hashable
    {
        try Set(deleteAndFetchCursor(db))
    }

    /// Deletes the rows of the request, and returns the ids of the deleted
    /// records (`DELETE ... RETURNING "id"`).
    ///
    /// - precondition: The table has a single-column primary key.
    public func deleteAndFetchIds(_ db: Database) throws -> Set<RowDecoder.ID>
    where RowDecoder: TableRecord & Identifiable,
        RowDecoder.ID: Hashable & DatabaseValueConvertible & StatementColumnConvertible
    {
        let tableName = RowDecoder.databaseTableName
        let primaryKey = try db.primaryKey(tableName)
        precondition(
            primaryKey.columns.count == 1,
            "Fetching id requires a single-column primary key in the table \(tableName)")
        return try RowDecoder.ID.fetchSet(deleteAndFetchStatement(db, selection: [Column(primaryKey.columns[0])]))
    }
}

// MARK: - Update and fetch

extension QueryInterfaceRequest {
    /// An `UPDATE ... RETURNING` statement, to run and fetch from.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ? RETURNING "score"
    /// let statement = try Player.all().updateAndFetchStatement(
    ///     db, [Column("score") += 10], selection: [Column("score")])
    /// let scores = try Int.fetchAll(statement)
    /// ```
    ///
    /// - parameter db: A connection that can write.
    /// - parameter conflictResolution: The conflict policy; by default, the
    ///   update policy of `MutablePersistableRecord` types, or ABORT.
    /// - parameter assignments: The columns to set, and their values.
    /// - parameter selection: The columns to return.
    /// - precondition: `selection` is not empty, and `assignments` set
    ///   at least one column.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment],
        selection: [any SQLSelectable]) throws -> Statement
    {
        precondition(!selection.isEmpty, "Invalid empty selection")
        guard let statement = try SQLQueryGenerator(relation: relation).makeUpdateStatement(
            db,
            conflictResolution: conflictResolution ?? defaultConflictResolutionForUpdate,
            assignments: assignments,
            selection: selection)
        else {
            preconditionFailure("Invalid empty assignments")
        }
        return statement
    }

    /// An `UPDATE ... RETURNING` statement, with assignments and returned
    /// columns picked from the record's columns:
    /// `updateAndFetchStatement(db) { [$0.score += 10] } select: { [$0.score] }`.
    public func updateAndFetchStatement(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment],
        select: (DatabaseComponents) throws -> [any SQLSelectable]
    ) throws -> Statement
    where RowDecoder: TableRecord
    {
        try updateAndFetchStatement(
            db,
            onConflict: conflictResolution,
            assignments(RowDecoder.databaseComponents),
            selection: select(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns a cursor over the
    /// updated records (`UPDATE ... RETURNING *`). The rows are updated as
    /// the cursor is iterated.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> RecordCursor<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord
    {
        let statement = try updateAndFetchStatement(
            db, onConflict: conflictResolution, assignments, selection: RowDecoder.databaseSelection)
        return try RowDecoder.fetchCursor(statement)
    }

    /// Updates the rows of the request, and returns a cursor over the
    /// updated records: `updateAndFetchCursor(db) { [$0.score += 10] }`.
    public func updateAndFetchCursor(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> RecordCursor<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord
    {
        try updateAndFetchCursor(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns the updated records.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> [RowDecoder]
    where RowDecoder: FetchableRecord & TableRecord
    {
        try Array(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows of the request, and returns the updated records:
    /// `updateAndFetchAll(db) { [$0.score += 10] }`.
    public func updateAndFetchAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> [RowDecoder]
    where RowDecoder: FetchableRecord & TableRecord
    {
        try updateAndFetchAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }

    /// Updates the rows of the request, and returns the set of updated
    /// records.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Set<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord & Hashable
    {
        try Set(updateAndFetchCursor(db, onConflict: conflictResolution, assignments))
    }

    /// Updates the rows of the request, and returns the set of updated
    /// records: `updateAndFetchSet(db) { [$0.score += 10] }`.
    public func updateAndFetchSet(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]
    ) throws -> Set<RowDecoder>
    where RowDecoder: FetchableRecord & TableRecord & Hashable
    {
        try updateAndFetchSet(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}
