extension DatabaseReader {
    /// Copies the whole content of this database into `writer`, replacing
    /// its content.
    ///
    /// ```swift
    /// let source = try DatabaseQueue(path: "/path/to/source.sqlite")
    /// let destination = try DatabaseQueue(path: "/path/to/destination.sqlite")
    /// try source.backup(to: destination)
    /// ```
    ///
    /// The copy is one state of the source, whole: a ``DatabasePool``
    /// copies from a read transaction, while writes go on.
    ///
    /// - parameters:
    ///   - writer: The destination database.
    ///   - pagesPerStep: The number of pages copied at each step; -1
    ///     (the default) copies all pages in one step.
    ///   - progress: Called after each step. Throwing from it before the
    ///     backup is complete abandons the backup, leaves the destination
    ///     unchanged, and the error is rethrown; an error thrown after the
    ///     last step is ignored.
    /// - throws: The error of `progress`, or a ``DatabaseError`` when
    ///   SQLite can't run the backup (a closed, read-only or
    ///   busy destination).
    public func backup(
        to writer: any DatabaseWriter,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil)
    throws
    {
        try writer.writeWithoutTransaction { destDb in
            try backup(to: destDb, pagesPerStep: pagesPerStep, afterInit: nil, afterStep: progress)
        }
    }

    /// Copies this database into `destDb`, from a read access; `afterInit`
    /// runs once SQLite's backup has started.
    func backup(
        to destDb: Database,
        pagesPerStep: CInt = -1,
        afterInit: (() throws -> Void)? = nil,
        afterStep: ((DatabaseBackupProgress) throws -> Void)? = nil)
    throws
    {
        try read { sourceDb in
            try sourceDb.backup(to: destDb, pagesPerStep: pagesPerStep, afterInit: afterInit, afterStep: afterStep)
        }
    }
}
