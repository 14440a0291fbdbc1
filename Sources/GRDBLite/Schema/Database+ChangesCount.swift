extension Database {
    /// Runs `body`, an INSERT, UPDATE or DELETE of `tableName`, and returns
    /// the number of rows it changed.
    ///
    /// SQLite does not count the changes that the `INSTEAD OF` triggers of
    /// a view make (`sqlite3_changes` is zero): for a view, every row that
    /// the statement changed through its triggers counts, as in GRDB.
    func changesCount(writing tableName: String, _ body: () throws -> Void) throws -> Int {
        guard try viewExists(tableName) else {
            try body()
            return changesCount
        }
        let before = totalChangesCount
        try body()
        return totalChangesCount - before
    }
}
