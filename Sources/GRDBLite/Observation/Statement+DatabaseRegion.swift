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
        guard let region = authorizerRegion else { return .fullDatabase }
        guard let refinement = selectionRefinement as? any StatementRegionRefinement else { return region }
        // On error, the authorizer's region: wider, never missing a change.
        return (try? refinement.refinedRegion(database, authorizerRegion: region)) ?? region
    }
}

extension Statement {
    /// The region of the columns the authorizer reports, computed once
    /// per statement; nil if SQLite can't tell.
    private var authorizerRegion: DatabaseRegion? {
        if let derivation = selectedColumnsDerivation as? SelectedRegion { return derivation.region }
        guard let columns = selectedColumns else { return nil }
        let region = DatabaseRegion(selectedColumns: columns)
        selectedColumnsDerivation = SelectedRegion(region: region)
        return region
    }
}

/// The region of a statement's selected columns, kept by the statement.
private final class SelectedRegion {
    let region: DatabaseRegion
    init(region: DatabaseRegion) { self.region = region }
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
