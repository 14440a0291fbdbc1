extension Statement {
    /// The tables and columns the statement reads, as SQLite reports them
    /// when it compiles the statement: the full database when SQLite can't
    /// tell.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// statement.databaseRegion // player(name)
    /// ```
    ///
    /// The statement of a query interface request knows more, as in GRDB:
    /// a filter by rowid narrows the region to those rows
    /// (`player(id,name)[1]`), and the associations that `including(all:)`
    /// prefetches with other statements are part of it.
    public var databaseRegion: DatabaseRegion {
        guard let columns = selectedColumns else { return .fullDatabase }
        let region = DatabaseRegion(selectedColumns: columns)
        guard let refinement = selectionRefinement as? any StatementRegionRefinement else { return region }
        // On error, the authorizer's region: wider, never missing a change.
        return (try? refinement.refinedRegion(database, authorizerRegion: region)) ?? region
    }
}

/// The region of a statement, as the request that made it knows it.
protocol StatementRegionRefinement: StatementSelectionRefinement {
    /// The region that the statement reads, given the one the authorizer
    /// reports.
    func refinedRegion(_ db: Database, authorizerRegion: DatabaseRegion) throws -> DatabaseRegion
}

extension DatabaseCursor {
    /// The tables and columns the cursor's statement reads.
    public var databaseRegion: DatabaseRegion { statement.databaseRegion }
}
