extension FetchRequest {
    /// The tables and columns the request reads, as SQLite reports them
    /// when it compiles the request's statement.
    ///
    /// Requests are regions, so that observers can be told about changes
    /// SQLite does not report:
    ///
    /// ```swift
    /// try db.notifyChanges(in: Player.filter { $0.score > 1000 })
    /// ```
    ///
    /// As in GRDB, the region of a query interface request holds the
    /// associations that `including(all:)` prefetches with other statements,
    /// and a request filtered by rowid or `INTEGER PRIMARY KEY` holds only
    /// those rows of its table (`player(id,name)[1]`).
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        let statement = try makePreparedRequest(db, forSingleResult: false).statement
        let selectedColumns = try db.authorizer.selectedColumns {
            _ = try db.makeStatement(sql: statement.sql, persistent: false)
        }
        let region = DatabaseRegion(selectedColumns: selectedColumns)
        if let refinement = statement.selectionRefinement as? any StatementRegionRefinement {
            return try refinement.refinedRegion(db, authorizerRegion: region)
        }
        return region
    }
}
