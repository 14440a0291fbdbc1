import Foundation
import GRDBLite
import Testing
import TestSupport

/// Files that can't be opened, or that are not databases, or are damaged:
/// a `DatabaseError` with SQLite's code and a message naming the problem
/// (and the path, when opening fails), never a crash.
@Suite struct OpenErrorTests {
    /// A database file with a table of 200 rows spread over many pages.
    private func makeDatabase(at path: String) throws {
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
            for id in 1...200 {
                try db.execute(
                    sql: "INSERT INTO t (id, payload) VALUES (?, ?)",
                    arguments: [id, String(repeating: "x", count: 500)])
            }
        }
        try dbQueue.close()
    }

    @Test func missingDirectory() throws {
        let path = "/nonexistent-\(UUID().uuidString)/db.sqlite"
        let error = databaseError { _ = try DatabaseQueue(path: path) }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        #expect(error?.message == "unable to open database file: \(path)")
    }

    @Test func directoryInsteadOfFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let error = databaseError { _ = try DatabaseQueue(path: directory.url.path) }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        #expect(error?.message?.hasSuffix(": \(directory.url.path)") == true)
    }

    @Test func readonlyConfigurationOnMissingFileDoesNotCreateIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("missing.sqlite")
        var config = Configuration()
        config.readonly = true
        let error = databaseError { _ = try DatabaseQueue(path: path, configuration: config) }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
        #expect(error?.message == "unable to open database file: \(path)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func readonlyConfigurationRejectsWrites() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        try makeDatabase(at: path)
        var config = Configuration()
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        let error = databaseError {
            try dbQueue.write { try $0.execute(sql: "DELETE FROM t WHERE id = ?", arguments: [1]) }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.message == "attempt to write a readonly database")
        #expect(error?.sql == "DELETE FROM t WHERE id = ?")
        #expect(error?.arguments == [1])
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 200)
    }

    @Test func notADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("text.sqlite")
        try Data(String(repeating: "This is not a database.\n", count: 400).utf8).write(to: URL(fileURLWithPath: path))
        let error = databaseError { _ = try DatabaseQueue(path: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
        #expect(error?.message == "file is not a database")
        #expect(error?.sql == "SELECT COUNT(*) FROM sqlite_master")
        // The file is left alone.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 24 * 400)
    }

    @Test func damagedHeaderIsNotADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        try makeDatabase(at: path)
        try overwrite(path, at: 0, with: Data("SQLite format 2\0".utf8))
        let error = databaseError { _ = try DatabaseQueue(path: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
    }

    /// Opening checks the schema (page 1); the lost pages fail when read.
    @Test(arguments: [UInt64(12_288), 12_388, 40_960])
    func truncatedDatabase(size: UInt64) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        try makeDatabase(at: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
        let error = databaseError {
            let dbQueue = try DatabaseQueue(path: path)
            _ = try dbQueue.read { try String.fetchAll($0, sql: "SELECT payload FROM t") }
        }
        #expect(error?.resultCode == .SQLITE_CORRUPT)
        #expect(error?.message == "database disk image is malformed")
    }

    @Test func truncatedToLessThanAPage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        try makeDatabase(at: path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 50)
        try handle.close()
        let error = databaseError {
            let dbQueue = try DatabaseQueue(path: path)
            _ = try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") }
        }
        #expect(error?.resultCode == .SQLITE_NOTADB || error?.resultCode == .SQLITE_CORRUPT)
    }

    @Test func corruptedTablePage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        try makeDatabase(at: path)
        // Page 2 is the root of table t: garbage in its b-tree header.
        try overwrite(path, at: 4096, with: Data(repeating: 0xFF, count: 64))
        let dbQueue = try DatabaseQueue(path: path)
        let error = databaseError {
            _ = try dbQueue.read { try Row.fetchAll($0, sql: "SELECT * FROM t WHERE id > ?", arguments: [0]) }
        }
        #expect(error?.resultCode == .SQLITE_CORRUPT)
        #expect(error?.message == "database disk image is malformed")
        #expect(error?.sql == "SELECT * FROM t WHERE id > ?")
        #expect(error?.arguments == [0])
        // Writes fail too, and the queue goes on working.
        let writeError = databaseError {
            try dbQueue.write { try $0.execute(sql: "INSERT INTO t (payload) VALUES ('new')") }
        }
        #expect(writeError?.resultCode == .SQLITE_CORRUPT)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }

    private func overwrite(_ path: String, at offset: UInt64, with data: Data) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: data)
        try handle.close()
    }
}

/// Files and directories the process can't write. As root, permission
/// bits don't stop writes: the tests use the immutable attribute
/// (`chattr +i`) instead, and are cancelled where the process can't set it
/// (a container without CAP_LINUX_IMMUTABLE).
@Suite(.serialized) struct ReadOnlyFileTests {
    /// Makes `path` unwritable by this process; throws if that is impossible.
    private func makeUnwritable(_ path: String) throws -> () -> Void {
        if getuid() != 0 {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let permissions = attributes[.posixPermissions] as! Int
            try FileManager.default.setAttributes([.posixPermissions: permissions & 0o555], ofItemAtPath: path)
            return { try? FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path) }
        }
        guard chattr("+i", path) else {
            try Test.cancel("running as root and chattr +i is not permitted: can't make a file read-only")
        }
        return { _ = chattr("-i", path) }
    }

    /// Runs chattr; true if it succeeded. (posix_spawn and waitpid: on
    /// Linux, Foundation's `Process.waitUntilExit()` can wait forever.)
    private func chattr(_ flag: String, _ path: String) -> Bool {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments: [String] = ["/usr/bin/chattr", flag, path]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/chattr", &actions, nil, argv, environ) == 0 else { return false }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status == 0
    }

    @Test func readOnlyFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write {
            try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t (id) VALUES (1)")
        }
        try dbQueue.close()
        let restore = try makeUnwritable(path)
        defer { restore() }
        #expect(open(path, O_RDWR) == -1, "the file is read-only for this process")

        // SQLite opens the file read-only: reads work, writes fail.
        let readOnlyQueue = try DatabaseQueue(path: path)
        #expect(try readOnlyQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [1])
        let error = databaseError {
            try readOnlyQueue.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (2)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.message == "attempt to write a readonly database")
        #expect(try readOnlyQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [1])
    }

    /// A pool needs WAL mode, which a read-only file can't switch to: a
    /// clear error; a read-only pool reads it.
    @Test func readOnlyFileAndAPool() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write {
            try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t (id) VALUES (1)")
        }
        try dbQueue.close()
        let restore = try makeUnwritable(path)
        defer { restore() }

        let error = databaseError { _ = try DatabasePool(path: path) }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(
            error?.message?.contains("DatabasePool could not put the read-only database file in WAL mode") == true,
            "\(String(describing: error))")
        #expect(error?.message?.contains(path) == true)

        var configuration = Configuration()
        configuration.readonly = true
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        #expect(try dbPool.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [1])
        let writeError = databaseError {
            try dbPool.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (2)") }
        }
        #expect(writeError?.resultCode == .SQLITE_READONLY)
        #expect(try dbPool.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [1])
    }

    @Test func readOnlyDirectoryPreventsTheJournal() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("db.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write {
            try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t (id) VALUES (1)")
        }
        let restore = try makeUnwritable(directory.url.path)
        defer { restore() }

        // The rollback journal can't be created next to the database. SQLite
        // reports a directory this user may not write in (EACCES) with
        // SQLITE_READONLY_DIRECTORY, and an immutable one (EPERM: chattr +i,
        // when the tests run as root) with SQLITE_CANTOPEN.
        let error = databaseError {
            try dbQueue.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (2)") }
        }
        if getuid() != 0 {
            #expect(error?.extendedResultCode == .SQLITE_READONLY_DIRECTORY)
            #expect(error?.message == "attempt to write a readonly database")
        } else {
            #expect(error?.resultCode == .SQLITE_CANTOPEN)
            #expect(error?.message == "unable to open database file")
        }
        #expect(error?.sql == "INSERT INTO t (id) VALUES (2)")
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [1])

        // Once the directory is writable again, the queue writes.
        restore()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (id) VALUES (2)") }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [1, 2])
    }
}
