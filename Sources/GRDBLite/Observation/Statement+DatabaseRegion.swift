extension Statement {
    /// The tables and columns the statement reads, as SQLite reports them
    /// when it compiles the statement: the full database when SQLite can't
    /// tell.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// statement.databaseRegion // player(name)
    /// ```
    public var databaseRegion: DatabaseRegion {
        guard let columns = selectedColumns else { return .fullDatabase }
        return columns.reduce(into: DatabaseRegion()) { region, selected in
            region.formUnion(selected.column.isEmpty
                ? DatabaseRegion(table: selected.table)
                : DatabaseRegion(table: selected.table, columns: [selected.column]))
        }
    }
}

extension DatabaseCursor {
    /// The tables and columns the cursor's statement reads.
    public var databaseRegion: DatabaseRegion { statement.databaseRegion }
}
