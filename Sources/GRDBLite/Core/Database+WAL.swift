import CSQLite
import Foundation

extension Database {
    /// The modes of a WAL checkpoint (`sqlite3_wal_checkpoint_v2`).
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>
    public enum CheckpointMode: CInt, Sendable {
        /// Copies what it can without waiting (`SQLITE_CHECKPOINT_PASSIVE`).
        case passive = 0
        /// Waits for the writers, then copies the whole WAL
        /// (`SQLITE_CHECKPOINT_FULL`).
        case full = 1
        /// As `full`, then waits for the readers so that the next writer
        /// starts the WAL over (`SQLITE_CHECKPOINT_RESTART`).
        case restart = 2
        /// As `restart`, then truncates the WAL file to zero bytes
        /// (`SQLITE_CHECKPOINT_TRUNCATE`).
        case truncate = 3
    }

    /// Runs a WAL checkpoint: copies the content of the WAL file into the
    /// database file.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     _ = try db.checkpoint(.truncate)
    /// }
    /// ```
    ///
    /// The `full`, `restart` and `truncate` modes wait for other
    /// connections as the connection's ``Configuration/busyMode`` says,
    /// then fail with `SQLITE_BUSY` if a reader or writer still prevents
    /// them: the checkpoint may then have been partial. On a database that
    /// is not in WAL mode, a checkpoint does nothing.
    ///
    /// - parameter kind: The checkpoint mode (default passive).
    /// - parameter dbName: The database name (default "main"; nil for all
    ///   attached databases).
    /// - returns: The number of frames in the WAL file, and the number of
    ///   them that are copied into the database (-1 and -1 when the
    ///   database is not in WAL mode).
    /// - throws: A ``DatabaseError``: `SQLITE_BUSY` when the checkpoint
    ///   could not complete, `SQLITE_LOCKED` inside a transaction.
    @discardableResult
    public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main") throws
        -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        preconditionValidAccess()
        try checkNotClosed()
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(
            sqliteHandle, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
        guard code == SQLITE_OK else {
            let extendedCode = sqlite3_extended_errcode(sqliteHandle)
            throw DatabaseError(
                resultCode: extendedCode & 0xFF == code ? extendedCode : code, message: lastErrorMessage)
        }
        return (walFrameCount: Int(walFrameCount), checkpointedFrameCount: Int(checkpointedFrameCount))
    }

    /// Puts the database in WAL mode, for a ``DatabasePool``, and makes sure
    /// the WAL file is not empty: SQLite can't take a snapshot of an empty
    /// one (``DatabaseSnapshotPool``).
    ///
    /// - throws: A ``DatabaseError`` that says why WAL mode is impossible:
    ///   an in-memory database, a read-only file.
    func setUpWALMode() throws {
        let mode: String
        do {
            mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")?.lowercased() ?? "unknown"
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY {
            throw DatabaseError(resultCode: error.extendedResultCode, message: """
                DatabasePool could not put the read-only database file in WAL mode (\(error.message ?? "read-only")): \
                \(path). Open it with Configuration.readonly, or make the file writable.
                """)
        }
        guard mode == "wal" else {
            if mode == "memory" {
                throw DatabaseError(resultCode: .SQLITE_ERROR, message: """
                    DatabasePool needs a database file in WAL mode, and an in-memory database can't use WAL \
                    (journal mode is memory): \(path). Use a DatabaseQueue for in-memory databases.
                    """)
            }
            if sqlite3_db_readonly(sqliteHandle, "main") == 1 {
                throw DatabaseError(resultCode: .SQLITE_READONLY, message: """
                    DatabasePool could not put the read-only database file in WAL mode (journal mode is \(mode)): \(path). \
                    Open it with Configuration.readonly, or make the file writable.
                    """)
            }
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: """
                DatabasePool could not put the database in WAL mode (journal mode is \(mode)): \(path)
                """)
        }
        // The WAL of the file SQLite opened: `path` may be a `file:` URI.
        let walPath = sqlite3_filename_wal(sqlite3_db_filename(sqliteHandle, "main")).map { String(cString: $0) }
            ?? path + "-wal"
        let walSize = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
        if walSize == 0 {
            try inSavepoint {
                try execute(
                    sql: "CREATE TABLE grdblite_wal_setup (id INTEGER PRIMARY KEY); DROP TABLE grdblite_wal_setup")
                return .commit
            }
        }
    }
}
