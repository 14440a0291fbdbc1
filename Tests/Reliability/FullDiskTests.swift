import Foundation
import GRDBLite
import Testing
import TestSupport

/// A disk that fills up for real: a small tmpfs (`TmpfsMount`), whose
/// writes fail with `ENOSPC`, not an injected error. A `DatabasePool` (WAL,
/// `journal_size_limit` = 64 KiB) on it:
///
/// - commits while a snapshot's long read keeps every checkpoint from
///   resetting the WAL, which grows until a commit fails;
/// - checkpoints a WAL into a database file that must grow, on a disk a
///   ballast file filled.
///
/// Every failure is a `DatabaseError` of a disk-full code; once space is
/// freed (the snapshot closed and the WAL checkpointed, or the ballast
/// removed), nothing acknowledged is lost, the file is sound, the pool
/// writes again, and the WAL shrinks to `journal_size_limit` when it
/// restarts. Disabled (with the reason) where a tmpfs can't be mounted.
@Suite(.serialized, .enabled(if: TmpfsMount.isAvailable, "needs root, to mount a small tmpfs"))
struct FullDiskTests {
    static let journalSizeLimit = 65_536

    /// The codes of a full disk: `SQLITE_FULL` from a write of the
    /// database or the WAL, `SQLITE_IOERR_SHMSIZE` when the WAL index
    /// can't grow (SQLite writes a byte into each new page of the `-shm`
    /// so that a full disk fails a write, not a memory access).
    static let diskFullCodes: [ResultCode] = [.SQLITE_FULL, .SQLITE_IOERR_SHMSIZE]

    static func configuration() -> Configuration {
        var config = Configuration()
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_size_limit = \(journalSizeLimit)")
        }
        return config
    }

    static func ids(_ db: Database) throws -> [Int] {
        try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")
    }

    static func insert(_ db: Database, _ id: Int) throws {
        try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, zeroblob(6000))", arguments: [id])
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// Fills the file system with `path` until a write fails.
    static func fill(_ path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        let chunk = Data(repeating: 0xAB, count: 4096)
        while (try? handle.write(contentsOf: chunk)) != nil {}
    }

    @Test func commitsFillTheDiskWhileALongReadStarvesCheckpoints() throws {
        let mount = try TmpfsMount(size: "2m")
        defer { mount.unmount() }
        // Room the checkpoint will need, freed at the end: the WAL fills
        // the rest, and the database file grows as the WAL is copied back.
        let ballast = mount.path("ballast")
        try Data(repeating: 0xAB, count: 1 << 20).write(to: URL(fileURLWithPath: ballast))
        let path = mount.path("full.sqlite")
        let dbPool = try DatabasePool(path: path, configuration: Self.configuration())
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)") }
        try dbPool.write { db in try Self.insert(db, 0) }
        // The snapshot reads in a transaction: no checkpoint goes past it.
        let snapshot = try dbPool.makeSnapshot()

        var acknowledged: [Int] = [0]
        var errors: [String: Int] = [:]
        var failures = 0
        for id in 1...1_000 where failures < 3 {
            do {
                try dbPool.write { db in try Self.insert(db, id) }
                acknowledged.append(id)
            } catch let error as DatabaseError {
                failures += 1
                errors["\(error.extendedResultCode.rawValue)", default: 0] += 1
                #expect(Self.diskFullCodes.contains(error.extendedResultCode), "commit \(id): \(error)")
            }
        }
        #expect(failures == 3, "the disk never filled up")
        let walSize = Self.fileSize(path + "-wal")
        #expect(walSize > 4 * Self.journalSizeLimit, "the WAL did not grow: \(walSize) bytes")
        // Readers still see every acknowledged commit; the snapshot its own.
        #expect(try dbPool.read(Self.ids) == acknowledged)
        #expect(try snapshot.read(Self.ids) == [0])

        // The snapshot ends, but the disk is still full: a checkpoint that
        // must grow the database file fails.
        try snapshot.close()
        do {
            try dbPool.writeWithoutTransaction { db in _ = try db.checkpoint(.restart) }
        } catch let error as DatabaseError {
            errors["checkpoint \(error.extendedResultCode.rawValue)", default: 0] += 1
            #expect(Self.diskFullCodes.contains(error.extendedResultCode), "checkpoint: \(error)")
        }
        #expect(try dbPool.read(Self.ids) == acknowledged)
        // Space is freed: the WAL is copied back and restarts, smaller
        // than the limit.
        try FileManager.default.removeItem(atPath: ballast)
        try dbPool.writeWithoutTransaction { db in _ = try db.checkpoint(.restart) }
        try dbPool.write { db in try Self.insert(db, 5_000) }
        acknowledged.append(5_000)
        let restartedSize = Self.fileSize(path + "-wal")
        #expect(restartedSize <= Self.journalSizeLimit, "the WAL kept \(restartedSize) bytes")
        #expect(try dbPool.read(Self.ids) == acknowledged)
        try dbPool.close()
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
        #expect(try reopened.read(Self.ids) == acknowledged)
        try reopened.close()
        print("""
            FullDiskTests long read: \(acknowledged.count - 2) commits before the disk was full (WAL \(walSize) \
            bytes); errors: \(errors.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", "))
            """)
    }

    @Test func checkpointFillsTheDisk() throws {
        let mount = try TmpfsMount(size: "1m")
        defer { mount.unmount() }
        let path = mount.path("checkpoint.sqlite")
        var config = Self.configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let dbPool = try DatabasePool(path: path, configuration: config)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)") }
        let acknowledged = Array(1...40)
        for id in acknowledged {
            try dbPool.write { db in try Self.insert(db, id) }
        }
        #expect(Self.fileSize(path) < 3 * 4096, "the rows are in the WAL only")
        let ballast = mount.path("ballast")
        try Self.fill(ballast)

        let error = #expect(throws: DatabaseError.self) {
            try dbPool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        }
        if let error {
            #expect(Self.diskFullCodes.contains(error.extendedResultCode), "\(error)")
        }
        #expect(try dbPool.read(Self.ids) == acknowledged)
        let failedWrite = #expect(throws: DatabaseError.self) {
            try dbPool.write { db in try Self.insert(db, 100) }
        }
        #expect(
            failedWrite.map { Self.diskFullCodes.contains($0.extendedResultCode) } ?? false,
            "\(String(describing: failedWrite))")

        try FileManager.default.removeItem(atPath: ballast)
        try dbPool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        #expect(Self.fileSize(path + "-wal") == 0)
        try dbPool.write { db in try Self.insert(db, 100) }
        #expect(try dbPool.read(Self.ids) == acknowledged + [100])
        try dbPool.close()
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
        #expect(try reopened.read(Self.ids) == acknowledged + [100])
        try reopened.close()
    }
}
