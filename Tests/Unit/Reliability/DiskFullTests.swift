import Foundation
import GRDBLite
import Testing
import TestSupport

/// A write that runs out of space (`PRAGMA max_page_count`) throws
/// `SQLITE_FULL`, rolls back, keeps earlier data and leaves the queue
/// usable.
@Suite struct DiskFullTests {
    enum Mode: String, CaseIterable, Sendable { case rollback, wal }

    /// A database file with 10 committed rows, limited to a few more pages.
    private func makeFullDatabase(_ mode: Mode, in directory: TemporaryDirectory) throws -> DatabaseQueue {
        var config = Configuration()
        config.journalMode = mode == .wal ? .wal : .default
        let dbQueue = try DatabaseQueue(path: directory.path("full.sqlite"), configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            for id in 1...10 {
                try db.execute(
                    sql: "INSERT INTO t (id, payload) VALUES (?, ?)",
                    arguments: [id, Data(repeating: UInt8(id), count: 100)])
            }
        }
        try dbQueue.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 4)")
        }
        return dbQueue
    }

    private func checkOriginalRows(_ dbQueue: DatabaseQueue) throws {
        let rows = try dbQueue.read { try Row.fetchAll($0, sql: "SELECT id, payload FROM t ORDER BY id") }
        #expect(rows.count == 10)
        for (index, row) in rows.enumerated() {
            #expect(row["id"] as Int == index + 1)
            #expect(row["payload"] as Data == Data(repeating: UInt8(index + 1), count: 100))
        }
        #expect(try dbQueue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
    }

    @Test(arguments: Mode.allCases)
    func fullWriteThrowsAndRollsBack(mode: Mode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try makeFullDatabase(mode, in: directory)
        let big = Data(repeating: 0xAB, count: 3000)
        var inserted = 0
        let error = databaseError {
            try dbQueue.write { db in
                try db.execute(sql: "UPDATE t SET payload = x'FF' WHERE id = 1")
                for id in 100..<200 {
                    try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, ?)", arguments: [id, big])
                    inserted += 1
                }
            }
        }
        #expect(inserted > 0, "some inserts succeeded before the disk was full")
        #expect(error?.resultCode == .SQLITE_FULL)
        #expect(error?.message == "database or disk is full")
        #expect(error?.sql == "INSERT INTO t (id, payload) VALUES (?, ?)")
        #expect(error?.arguments == [100 + inserted, big])
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false)
        // The whole transaction is rolled back, the update included.
        try checkOriginalRows(dbQueue)

        // The queue is usable: a write that fits succeeds...
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (id, payload) VALUES (11, x'11')") }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 11)
        // ...and so does the big one once there is room.
        try dbQueue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA max_page_count = 100000") }
        try dbQueue.write { db in
            for id in 100..<200 {
                try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, ?)", arguments: [id, big])
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 111)
    }

    @Test(arguments: Mode.allCases)
    func fullStatementOutsideATransactionOnlyRollsBackItself(mode: Mode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try makeFullDatabase(mode, in: directory)
        let error = databaseError {
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO t (id, payload) VALUES (11, x'11')")
                try db.execute(sql: "INSERT INTO t (id, payload) SELECT id + 100, zeroblob(50000) FROM t")
            }
        }
        #expect(error?.resultCode == .SQLITE_FULL)
        #expect(error?.sql == "INSERT INTO t (id, payload) SELECT id + 100, zeroblob(50000) FROM t")
        // The first statement committed on its own; the failed one left nothing.
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t ORDER BY id") } == Array(1...11))
    }

    @Test func fullSavepointRollsBackTheTransactionBlock() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try makeFullDatabase(.rollback, in: directory)
        let error = databaseError {
            try dbQueue.inTransaction { db in
                try db.execute(sql: "INSERT INTO t (id, payload) VALUES (11, x'11')")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t (id, payload) VALUES (12, zeroblob(100000))")
                    return .commit
                }
                return .commit
            }
        }
        #expect(error?.resultCode == .SQLITE_FULL)
        try checkOriginalRows(dbQueue)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t (id, payload) VALUES (11, x'11')") }
    }

    @Test func fullRecordInsertThrowsSQLITE_FULL() throws {
        struct Item: Codable, PersistableRecord, FetchableRecord {
            static let databaseTableName = "t"
            var id: Int
            var payload: Data
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try makeFullDatabase(.rollback, in: directory)
        let error = databaseError {
            try dbQueue.write { db in
                for id in 11...100 {
                    try Item(id: id, payload: Data(count: 5000)).insert(db)
                }
            }
        }
        #expect(error?.resultCode == .SQLITE_FULL)
        #expect(error?.sql?.hasPrefix("INSERT INTO \"t\"") == true)
        try checkOriginalRows(dbQueue)
        #expect(try dbQueue.read { try Item.fetchCount($0) } == 10)
    }
}
