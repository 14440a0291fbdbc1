import BenchSQLite
import Foundation

/// The database files of a run, in one folder, shared by all sides:
///
/// - `fetch.sqlite`: the `item` table with `fetchRowCount` rows, generated
///   once per run (reused when `--path` names a folder where it already has
///   the right content), read by the fetch workloads;
/// - `insert.sqlite`: an `item` table that the bench empties before each
///   run of an insert workload, and checks after it;
/// - `concurrent.sqlite`, for the concurrency workloads: a copy of the
///   fetch file in WAL mode, with a `written` table (the schema of `item`)
///   that the writers fill and the bench empties before each run. Made
///   when a workload first needs it;
/// - `server.sqlite`, for the server workloads (`ServerWorkloads.swift`):
///   the `author` and `book` tables in WAL mode, made when a workload first
///   needs it.
///
/// Row `n` holds `n` in each of its ten columns, as in GRDB's suite. The
/// fetch file also holds the `wideorder` table of the wide workloads
/// (`WideWorkloads.swift`), and the insert file an empty one.
final class Fixture {
    let folder: String
    let fetchRowCount: Int
    let insertRowCount: Int
    var fetchPath: String { folder + "/fetch.sqlite" }
    var insertPath: String { folder + "/insert.sqlite" }
    /// The rows the writer of `write-while-reading` inserts.
    var concurrentInsertRowCount: Int { max(100, insertRowCount / 4) }
    /// The requests of one run of a server workload, all tasks together
    /// (`bench run --server-requests`).
    var serverRequestCount = 16_384
    /// The commits of one run of an observation latency workload.
    var latencyCommitCount = 100
    /// True once the server file exists.
    private var hasServerFile = false
    /// A connection to the concurrent file, once it exists.
    private var concurrentChecker: RawDatabase?
    /// True when the folder is a temporary one, removed at the end.
    private let isTemporary: Bool
    /// A connection to the insert file, that resets and checks it.
    private var insertChecker: RawDatabase!

    /// Prepares the files in `folder`, or in a new temporary folder.
    init(folder: String?, fetchRowCount: Int, insertRowCount: Int) throws {
        self.fetchRowCount = fetchRowCount
        self.insertRowCount = insertRowCount
        if let folder {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            self.folder = folder
            self.isTemporary = false
        } else {
            self.folder = try temporaryFolder()
            self.isTemporary = true
        }
        try generateFetchFileIfNeeded()
        insertChecker = try RawDatabase(path: insertPath)
        try insertChecker.execute("DROP TABLE IF EXISTS item")
        try insertChecker.execute(BenchSQL.createTable)
        try insertChecker.execute("DROP TABLE IF EXISTS wideorder")
        try insertChecker.execute(WideSQL.createTable)
    }

    deinit {
        insertChecker = nil
        concurrentChecker = nil
        if isTemporary {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// Writes the fetched rows, unless the file already holds them.
    private func generateFetchFileIfNeeded() throws {
        let expected = Digest.expected(rowCount: fetchRowCount)
        do {
            let db = try RawDatabase(path: fetchPath)
            if try db.integers("SELECT 1 FROM sqlite_master WHERE name = 'item'") != nil,
               try db.itemDigest() == expected,
               try db.integers("SELECT 1 FROM sqlite_master WHERE name = 'wideorder'") != nil,
               try db.integers("SELECT COUNT(*) FROM wideorder") == [wideRowCount]
            {
                return
            }
        }
        try? FileManager.default.removeItem(atPath: fetchPath)
        let db = try RawDatabase(path: fetchPath)
        try db.execute(BenchSQL.createTable)
        try db.execute("BEGIN")
        let statement = try db.prepare(BenchSQL.insertPositional)
        defer { sqlite3_finalize(statement) }
        for n in 0..<Int64(fetchRowCount) {
            sqlite3_reset(statement)
            for column in 1...CInt(10) {
                sqlite3_bind_int64(statement, column, n)
            }
            let code = sqlite3_step(statement)
            if code != SQLITE_DONE { throw db.error(code, BenchSQL.insertPositional) }
        }
        try db.execute("COMMIT")
        try db.generateWideTable(count: wideRowCount)
        let digest = try db.itemDigest()
        if digest != expected {
            throw BenchError("generated \(fetchPath) holds \(digest), expected \(expected)")
        }
    }

    /// The path of the concurrent file, made on first use.
    func concurrentPath() throws -> String {
        let path = folder + "/concurrent.sqlite"
        if concurrentChecker == nil {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            try FileManager.default.copyItem(atPath: fetchPath, toPath: path)
            let db = try RawDatabase(walPath: path)
            guard try db.strings("PRAGMA journal_mode = WAL") == ["wal"] else {
                throw BenchError("\(path) can't be put in WAL mode")
            }
            try db.execute(
                BenchSQL.createTable.replacingOccurrences(of: "CREATE TABLE item", with: "CREATE TABLE written"))
            concurrentChecker = db
        }
        return path
    }

    /// The path of the server file, made on first use: see ``ServerData``.
    func serverPath() throws -> String {
        let path = folder + "/server.sqlite"
        if !hasServerFile {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            let db = try RawDatabase(walPath: path)
            guard try db.strings("PRAGMA journal_mode = WAL") == ["wal"] else {
                throw BenchError("\(path) can't be put in WAL mode")
            }
            try ServerData.generate(db)
            hasServerFile = true
        }
        return path
    }

    /// Empties the `written` table of the concurrent file before a run of
    /// a concurrency workload.
    func resetWrittenTable() throws {
        try concurrentChecker?.execute("DELETE FROM written")
    }

    /// What the writer of the last run of a concurrency workload wrote.
    func writtenDigest() throws -> Digest {
        guard let concurrentChecker else { throw BenchError("no concurrent file") }
        return try concurrentChecker.itemDigest(table: "written")
    }

    /// Empties the inserted table before a run of an insert workload.
    func resetInsertTable() throws {
        try insertChecker.execute("DELETE FROM item")
    }

    /// Empties the wide table before a run of `insert-wide-encodable`.
    func resetWideInsertTable() throws {
        try insertChecker.execute("DELETE FROM wideorder")
    }

    /// What the last run of `insert-wide-encodable` wrote.
    func insertedWideDigest() throws -> Digest {
        try Digest(orders: insertChecker.wideOrders())
    }

    /// What the last run of an insert workload wrote.
    func insertedDigest() throws -> Digest {
        try insertChecker.itemDigest()
    }
}
