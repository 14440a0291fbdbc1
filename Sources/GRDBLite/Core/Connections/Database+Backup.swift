import CSQLite

// Backups run SQLite's online backup API (https://sqlite.org/backup.html)
// from a connection that reads the source to a connection that writes the
// destination. The destination is replaced page by page, inside one write
// transaction of SQLite's: until the last step it is unchanged, and an
// abandoned or failed backup leaves it so.

extension Database {
    /// Copies the whole content of this database into `destDb`, replacing
    /// its content.
    ///
    /// ```swift
    /// try source.read { sourceDb in
    ///     try destination.barrierWriteWithoutTransaction { destDb in
    ///         try sourceDb.backup(to: destDb)
    ///     }
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - destDb: The connection to the destination database.
    ///   - pagesPerStep: The number of pages copied at each step; -1
    ///     (the default) copies all pages in one step.
    ///   - progress: Called after each step. Throwing from it before the
    ///     backup is complete abandons the backup, leaves the destination
    ///     unchanged, and the error is rethrown; an error thrown after the
    ///     last step is ignored.
    /// - throws: The error of `progress`, or a ``DatabaseError`` when
    ///   SQLite can't run the backup (a destination that is closed,
    ///   read-only, busy, or inside a transaction).
    public func backup(
        to destDb: Database,
        pagesPerStep: CInt = -1,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil)
    throws
    {
        try backup(to: destDb, pagesPerStep: pagesPerStep, afterInit: nil, afterStep: progress)
    }

    /// The backup, with a hook called once SQLite's backup object exists
    /// (for tests of concurrent writes).
    func backup(
        to destDb: Database,
        pagesPerStep: CInt,
        afterInit: (() throws -> Void)?,
        afterStep: ((DatabaseBackupProgress) throws -> Void)?)
    throws
    {
        if isClosed || destDb.isClosed {
            throw DatabaseError.connectionIsClosed()
        }
        guard let backup = sqlite3_backup_init(destDb.sqliteHandle, "main", sqliteHandle, "main") else {
            // The error is stored in the destination connection.
            throw DatabaseError(resultCode: destDb.lastErrorCode, message: destDb.lastErrorMessage)
        }

        // Finishing releases SQLite's backup object and, if the backup did
        // not complete, rolls back what it wrote in the destination.
        var isFinished = false
        defer {
            if !isFinished { sqlite3_backup_finish(backup) }
        }

        try afterInit?()
        while true {
            let code = sqlite3_backup_step(backup, pagesPerStep)
            let progress = DatabaseBackupProgress(
                remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                totalPageCount: Int(sqlite3_backup_pagecount(backup)),
                isCompleted: code == SQLITE_DONE)
            if code == SQLITE_DONE {
                // Too late to abandon: the destination is complete.
                try? afterStep?(progress)
                break
            }
            guard code == SQLITE_OK else {
                isFinished = true
                sqlite3_backup_finish(backup)
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: Self.backupMessage(code, destDb))
            }
            try afterStep?(progress)
        }

        isFinished = true
        let code = sqlite3_backup_finish(backup)
        // The destination has a new schema.
        destDb.dropCachesAfterSchemaChange()
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: Self.backupMessage(code, destDb))
        }
    }

    /// The message of a failed backup step: the one of the destination
    /// connection when it has one for this code, SQLite's generic one
    /// otherwise.
    private static func backupMessage(_ code: CInt, _ destDb: Database) -> String {
        if sqlite3_errcode(destDb.sqliteHandle) & 0xFF == code & 0xFF, let message = destDb.lastErrorMessage {
            return message
        }
        return String(cString: sqlite3_errstr(code))
    }
}
