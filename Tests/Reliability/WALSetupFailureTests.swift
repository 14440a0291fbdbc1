import GRDBLite
import Testing
import TestSupport

/// A queue configured for WAL mode on a database that can't use it
/// (`PRAGMA journal_mode = WAL` answers another mode, with no error) fails
/// to open, instead of running in a journal mode it was not asked for.
@Suite struct WALSetupFailureTests {
    @Test func aQueueThatCantUseWALFailsToOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var config = Configuration()
        config.journalMode = .wal
        // A temporary database, and a file opened through a VFS without
        // shared memory: SQLite keeps the rollback journal for both.
        for path in ["", "file:\(directory.path("db.sqlite"))?vfs=unix-none"] {
            let error = #expect(throws: DatabaseError.self, "\(path)") {
                try DatabaseQueue(path: path, configuration: config)
            }
            #expect(error?.message?.contains("could not activate WAL mode") == true, "\(String(describing: error))")
        }
    }
}
