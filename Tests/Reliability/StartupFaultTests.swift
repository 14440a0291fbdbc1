import CFaultInjection
import Foundation
import GRDBLite
import Testing
import TestSupport

/// Opening a database that can't be used as asked: a file another process
/// holds an exclusive lock on, a read-only WAL database without its `-shm`,
/// a database on a read-only file system, reads cut short. Each fails with
/// a typed error (or works as SQLite documents), and nothing changes on
/// the disk.
///
/// The read-only cases need a read-only file system (root ignores file
/// permissions): a tmpfs remounted read-only (`TmpfsMount`), which needs
/// root, as CI runs; elsewhere they are disabled, and say why.
@Suite(.serialized) struct StartupFaultTests {
    /// The bytes of the files of a database, by suffix, to see that nothing
    /// changed.
    static func contents(_ path: String) -> [String: Data] {
        var contents: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm", "-journal"] {
            contents[suffix] = FileManager.default.contents(atPath: path + suffix)
        }
        return contents
    }

    /// A table `t` with rows 1...50 (`wal`: in WAL mode).
    static func makeDatabase(at path: String, wal: Bool) throws {
        var config = Configuration()
        config.journalMode = wal ? .wal : .default
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            for id in 1...50 {
                try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, randomblob(300))", arguments: [id])
            }
        }
        try dbQueue.close()
    }

    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1
    }

    /// Runs `body`, which must throw a `DatabaseError` with `code`.
    static func expectError(
        _ code: ResultCode, _ context: String, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () throws -> Void)
    {
        do {
            try body()
            Issue.record("\(context): no error", sourceLocation: sourceLocation)
        } catch let error as DatabaseError {
            #expect(error.resultCode == code, "\(context): \(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(context): not a DatabaseError: \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Locked by another process

    /// Another process holds an EXCLUSIVE lock (rollback journal mode, in
    /// a transaction that deleted every row): a queue, a read-only queue
    /// and a pool fail with `SQLITE_BUSY` ("database is locked") when they
    /// open or when they first read, and write nothing; once the other
    /// process rolls back, they open and see every row.
    @Test func fileLockedByAnotherProcess() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("locked.sqlite")
        try Self.makeDatabase(at: path, wal: false)

        let child = try ChildProcess(["hold-exclusive", path, "rollback"])
        try child.expectLine("locked")
        let before = Self.contents(path)
        Self.expectError(.SQLITE_BUSY, "queue") {
            let dbQueue = try DatabaseQueue(path: path)
            _ = try dbQueue.read(Self.count)
        }
        Self.expectError(.SQLITE_BUSY, "queue write") {
            let dbQueue = try DatabaseQueue(path: path)
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id, payload) VALUES (100, x'00')") }
        }
        var readonly = Configuration()
        readonly.readonly = true
        Self.expectError(.SQLITE_BUSY, "read-only queue") {
            let dbQueue = try DatabaseQueue(path: path, configuration: readonly)
            _ = try dbQueue.read(Self.count)
        }
        Self.expectError(.SQLITE_BUSY, "pool") {
            let dbPool = try DatabasePool(path: path)
            _ = try dbPool.read(Self.count)
        }
        #expect(Self.contents(path) == before, "a connection changed the locked files")

        child.send("rollback")
        try child.expectLine("rolled back")
        #expect(child.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try DatabaseQueue(path: path).read(Self.count) == 50)
    }

    // MARK: - Read-only file system

    /// A WAL database whose WAL holds commits, copied without its `-shm`
    /// onto a file system made read-only: SQLite can't open it, as it
    /// documents (<https://sqlite.org/wal.html#readonly>: the `-shm` must
    /// exist, or the directory be writable so that it can be created).
    /// Queues and pools, read-only or not, fail with `SQLITE_CANTOPEN`
    /// when they open, and nothing is created or changed.
    @Test(.enabled(if: TmpfsMount.isAvailable, "needs root, to mount a read-only tmpfs"))
    func readOnlyWALDatabaseWithoutShm() throws {
        let mount = try TmpfsMount(size: "4m")
        defer { mount.unmount() }
        let source = try TemporaryDirectory()
        defer { source.remove() }
        // The writer stays open: the WAL keeps its frames.
        let writer = try DatabasePool(path: source.path("wal.sqlite"))
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            for id in 1...50 {
                try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, randomblob(300))", arguments: [id])
            }
        }
        let path = mount.path("wal.sqlite")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: source.path("wal.sqlite") + suffix, toPath: path + suffix)
        }
        try writer.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")).count > 32, "the WAL is empty")
        try mount.remount(readOnly: true)
        let before = Self.contents(path)
        #expect(before["-shm"] == nil)

        var readonly = Configuration()
        readonly.readonly = true
        Self.expectError(.SQLITE_CANTOPEN, "read-only queue") {
            _ = try DatabaseQueue(path: path, configuration: readonly)
        }
        Self.expectError(.SQLITE_CANTOPEN, "read-only pool") {
            let dbPool = try DatabasePool(path: path, configuration: readonly)
            _ = try dbPool.read(Self.count)
        }
        Self.expectError(.SQLITE_CANTOPEN, "queue") {
            _ = try DatabaseQueue(path: path)
        }
        Self.expectError(.SQLITE_CANTOPEN, "pool") {
            _ = try DatabasePool(path: path)
        }
        #expect(Self.contents(path) == before, "the read-only files changed")
    }

    /// A database on a read-only file system, in rollback journal mode: a
    /// queue opens it read-only (SQLite falls back to read-only when it
    /// can't open the file for writing), reads, and fails to write with
    /// `SQLITE_READONLY`; a pool can't put it in WAL mode and says so; a
    /// new database can't be created (`SQLITE_CANTOPEN`). Nothing changes.
    @Test(.enabled(if: TmpfsMount.isAvailable, "needs root, to mount a read-only tmpfs"))
    func databaseInAReadOnlyFolder() throws {
        let mount = try TmpfsMount(size: "4m")
        defer { mount.unmount() }
        let path = mount.path("folder.sqlite")
        try Self.makeDatabase(at: path, wal: false)
        try mount.remount(readOnly: true)
        let before = Self.contents(path)

        let dbQueue = try DatabaseQueue(path: path)
        #expect(try dbQueue.read(Self.count) == 50)
        Self.expectError(.SQLITE_READONLY, "write") {
            try dbQueue.write { db in try db.execute(sql: "DELETE FROM t WHERE id > 10") }
        }
        #expect(try dbQueue.read(Self.count) == 50)
        try dbQueue.close()
        Self.expectError(.SQLITE_READONLY, "pool") {
            _ = try DatabasePool(path: path)
        }
        var readonly = Configuration()
        readonly.readonly = true
        #expect(try DatabaseQueue(path: path, configuration: readonly).read(Self.count) == 50)
        Self.expectError(.SQLITE_CANTOPEN, "new database") {
            _ = try DatabaseQueue(path: mount.path("new.sqlite"))
        }
        #expect(Self.contents(path) == before, "the read-only files changed")
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.directory.url.path) == ["folder.sqlite"])
    }
}

/// Short reads at start-up: an extension of `IOFaultInjectionTests`, as
/// the fault VFS is global and that suite runs one test at a time.
extension IOFaultInjectionTests {

    /// Each read of opening a queue and reading every row, cut short in
    /// turn by the fault VFS (the first half read, the rest zero-filled,
    /// SQLITE_IOERR_SHORT_READ): the queue fails with a typed error or
    /// reads rows, and the file never changes. The rows may be wrong:
    /// SQLite's VFS contract makes a short read the end of the file
    /// (xRead zero-fills the rest, and the pager takes the zeros for the
    /// page's content), which neither SQLite nor GRDBLite can tell from
    /// data. The counts are printed.
    @Test(arguments: [false, true])
    func shortReadsAtStartup(wal: Bool) throws {
        #expect(grdblite_fault_vfs_register() == SQLITE_OK)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("short.sqlite")
        try StartupFaultTests.makeDatabase(at: path, wal: wal)
        let expected = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT id || ':' || hex(payload) FROM t ORDER BY id")
        }
        let before = StartupFaultTests.contents(path).filter { $0.key != "-shm" }
        var config = Configuration()
        config.journalMode = wal ? .wal : .default
        var points = 0
        var outcomes: [String: Int] = [:]
        for countdown in 1...10_000 {
            let context = "\(wal ? "wal" : "rollback"), short read \(countdown)"
            grdblite_fault_vfs_arm(Int32(countdown), 0, GRDBLiteIOFaultShortRead)
            let result = Result {
                let dbQueue = try DatabaseQueue(path: "file:\(path)?vfs=grdblite-fault", configuration: config)
                defer { try? dbQueue.close() }
                return try dbQueue.read { db in
                    try String.fetchAll(db, sql: "SELECT id || ':' || hex(payload) FROM t ORDER BY id")
                }
            }
            let injected = grdblite_fault_vfs_fault_count()
            grdblite_fault_vfs_disarm()
            if injected == 0 {
                #expect(try result.get() == expected, "\(context)")
                break
            }
            points += 1
            switch result {
            case .success(let rows):
                outcomes[rows == expected ? "right rows" : "wrong rows (zeros read as data)", default: 0] += 1
            case .failure(let error as DatabaseError):
                outcomes["\(error.extendedResultCode.rawValue)", default: 0] += 1
            case .failure(let error):
                Issue.record("\(context): not a DatabaseError: \(error)")
            }
            #expect(StartupFaultTests.contents(path).filter { $0.key != "-shm" } == before, "\(context)")
        }
        #expect(points > 3)
        print("""
            StartupFaultTests short reads, \(wal ? "wal" : "rollback"): \(points) reads cut short; outcomes: \
            \(outcomes.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", "))
            """)
    }
}
