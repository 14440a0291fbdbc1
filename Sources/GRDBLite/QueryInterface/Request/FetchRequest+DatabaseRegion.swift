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
    /// The associations that `including(all:)` prefetches with other
    /// statements are not part of the region, as in GRDB. A query interface
    /// request filtered by rowid or `INTEGER PRIMARY KEY` holds only those
    /// rows of its table (`player(id,name)[1]`), as in GRDB.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        let sql = try makePreparedRequest(db, forSingleResult: false).statement.sql
        let selectedColumns = try db.authorizer.selectedColumns {
            _ = try db.makeStatement(sql: sql, persistent: false)
        }
        let region = selectedColumns.reduce(into: DatabaseRegion()) { region, selected in
            region.formUnion(selected.column.isEmpty
                ? DatabaseRegion(table: selected.table)
                : DatabaseRegion(table: selected.table, columns: [selected.column]))
        }
        if let request = self as? any RowIDRestrictedRequest, let (table, rowIDs) = try request.restrictedRowIDs(db) {
            return region.restrictingRows(ofTable: table, to: rowIDs)
        }
        return region
    }
}
