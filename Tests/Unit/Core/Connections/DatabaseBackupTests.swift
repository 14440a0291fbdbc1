import Dispatch
import Foundation
@testable import GRDBLite
import Testing
import TestSupport

/// `backup(to:pagesPerStep:progress:)` on readers and connections, and the
/// copies of `DatabaseQueue` (after GRDB's backup tests).
@Suite struct DatabaseBackupTests {
    private struct AbandonError: Error { }

    /// Fills `writer` with `rows` rows of `item`, over several pages.
    private static func fill(_ writer: some DatabaseWriter, rows: Int = 20, first: Int = 0) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS item (id INTEGER PRIMARY KEY, payload BLOB)")
            for id in first..<(first + rows) {
                try db.execute(sql: "INSERT INTO item VALUES (?, zeroblob(1000))", arguments: [id])
            }
        }
    }

    private static func ids(_ reader: some DatabaseReader) throws -> [Int] {
        try reader.read { db in try Int.fetchAll(db, sql: "SELECT id FROM item ORDER BY id") }
    }

    private static func pageCount(_ reader: some DatabaseReader) throws -> Int {
        try reader.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count")! }
    }

    // MARK: - Readers

    @Test(arguments: WriterKind.allCases, WriterKind.allCases)
    func backupReplacesTheDestination(source sourceKind: WriterKind, destination destinationKind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try sourceKind.make(directory)
        let destination = try destinationKind.make(directory)
        try Self.fill(source, rows: 3)
        try destination.write { db in
            try db.execute(sql: "CREATE TABLE other (a)")
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, payload BLOB)")
            try db.execute(sql: "INSERT INTO item VALUES (42, NULL)")
        }
        // The destination's schema cache must not survive the backup.
        #expect(try destination.read { try $0.tableExists("other") })

        try source.backup(to: destination)

        #expect(try Self.ids(destination) == [0, 1, 2])
        #expect(try destination.read { try $0.tableExists("other") } == false)
        #expect(try Self.ids(source) == [0, 1, 2])
    }

    @Test func backupFromASnapshot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pool = try DatabasePool(path: directory.path())
        try Self.fill(pool, rows: 2)
        let snapshot = try pool.makeSnapshot()
        try Self.fill(pool, rows: 2, first: 10)
        let destination = try DatabaseQueue()
        try snapshot.backup(to: destination)
        #expect(try Self.ids(destination) == [0, 1])
    }

    @Test func backupToAnyDatabaseWriter() throws {
        let source = try DatabaseQueue()
        try Self.fill(source, rows: 1)
        let destination: any DatabaseWriter = try DatabaseQueue()
        try source.backup(to: destination)
        #expect(try Self.ids(destination) == [0])
    }

    @Test func databaseBackup() throws {
        let source = try DatabaseQueue()
        let destination = try DatabaseQueue()
        try Self.fill(source, rows: 2)
        try source.read { sourceDb in
            try destination.barrierWriteWithoutTransaction { destDb in
                try sourceDb.backup(to: destDb)
            }
        }
        #expect(try Self.ids(destination) == [0, 1])
    }

    // MARK: - Progress

    @Test(arguments: WriterKind.allCases)
    func progressReportsEachStep(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try kind.make(directory)
        let destination = try kind.make(directory)
        try Self.fill(source)
        let pageCount = try Self.pageCount(source)
        #expect(pageCount > 3)

        var reports: [DatabaseBackupProgress] = []
        try source.backup(to: destination, pagesPerStep: 2) { reports.append($0) }

        #expect(reports.map(\.totalPageCount) == Array(repeating: pageCount, count: reports.count))
        #expect(reports.map(\.completedPageCount) == reports.indices.map { min(2 * ($0 + 1), pageCount) })
        #expect(reports.map(\.isCompleted) == reports.indices.map { $0 == reports.count - 1 })
        #expect(reports.last?.remainingPageCount == 0)
        #expect(try Self.ids(destination) == Array(0..<20))
    }

    @Test(arguments: WriterKind.allCases)
    func throwingFromProgressAbandonsTheBackup(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try kind.make(directory)
        let destination = try kind.make(directory)
        try Self.fill(source)
        try Self.fill(destination, rows: 1, first: 100)

        var calls = 0
        #expect(throws: AbandonError.self) {
            try source.backup(to: destination, pagesPerStep: 1) { progress in
                calls += 1
                #expect(!progress.isCompleted)
                if calls == 3 { throw AbandonError() }
            }
        }
        #expect(calls == 3)
        // Unchanged, and still writable.
        #expect(try Self.ids(destination) == [100])
        try Self.fill(destination, rows: 1, first: 101)
        #expect(try Self.ids(destination) == [100, 101])
    }

    @Test func throwingFromTheLastProgressIsIgnored() throws {
        let source = try DatabaseQueue()
        let destination = try DatabaseQueue()
        try Self.fill(source, rows: 2)
        try source.backup(to: destination, pagesPerStep: 1) { progress in
            if progress.isCompleted { throw AbandonError() }
        }
        #expect(try Self.ids(destination) == [0, 1])
    }

    // MARK: - Concurrent writes

    /// A pool copies the state of one commit, while writes go on.
    @Test func poolBackupIsConsistentWhileWritesGoOn() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = try DatabasePool(path: directory.path("source.sqlite"))
        let destination = try DatabaseQueue(path: directory.path("destination.sqlite"))
        try Self.fill(source)

        let writeNow = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            guard writeNow.wait(timeout: .now() + stepTimeout) == .success else { return }
            try? source.write { db in
                try db.execute(sql: "DELETE FROM item WHERE id < 10")
                try db.execute(sql: "INSERT INTO item VALUES (1000, NULL)")
            }
            written.signal()
        }
        writer.start()

        var steps = 0
        try destination.writeWithoutTransaction { destDb in
            try source.backup(to: destDb, pagesPerStep: 1, afterStep: { _ in
                steps += 1
                if steps == 2 {
                    writeNow.signal()
                    try written.waitOrThrow("the concurrent write")
                }
            })
        }
        #expect(steps > 2)
        #expect(try Self.ids(destination) == Array(0..<20))
        #expect(try Self.ids(source) == Array(10..<20) + [1000])
    }

    // MARK: - Errors

    @Test func backupToAClosedDestinationThrows() throws {
        let source = try DatabaseQueue()
        try Self.fill(source, rows: 1)
        let destination = try DatabaseQueue()
        try destination.close()
        let error = try #require(throws: DatabaseError.self) { try source.backup(to: destination) }
        #expect(error.resultCode == .SQLITE_MISUSE)
    }

    @Test func backupFromAClosedSourceThrows() throws {
        let source = try DatabaseQueue()
        try source.close()
        let destination = try DatabaseQueue()
        let error = try #require(throws: DatabaseError.self) { try source.backup(to: destination) }
        #expect(error.resultCode == .SQLITE_MISUSE)
    }

    @Test func backupToAReadOnlyDestinationThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("destination.sqlite")
        try Self.fill(DatabaseQueue(path: path), rows: 1, first: 100)
        var configuration = Configuration()
        configuration.readonly = true
        let destination = try DatabaseQueue(path: path, configuration: configuration)
        let source = try DatabaseQueue()
        try Self.fill(source, rows: 2)

        let error = try #require(throws: DatabaseError.self) { try source.backup(to: destination) }
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(try Self.ids(destination) == [100])
        #expect(try Self.ids(source) == [0, 1])
    }

    @Test func backupToABusyDestinationThrows() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("destination.sqlite")
        let destination = try DatabaseQueue(path: path)
        try Self.fill(destination, rows: 1, first: 100)
        let source = try DatabaseQueue()
        try Self.fill(source, rows: 2)

        // Another connection holds the write lock.
        let locker = try DatabaseQueue(path: path)
        try locker.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            let error = try #require(throws: DatabaseError.self) { try source.backup(to: destination) }
            #expect(error.resultCode == .SQLITE_BUSY)
            try db.execute(sql: "ROLLBACK")
        }
        #expect(try Self.ids(destination) == [100])
    }

    @Test func backupToADestinationInATransactionThrows() throws {
        let source = try DatabaseQueue()
        try Self.fill(source, rows: 2)
        let destination = try DatabaseQueue()
        try Self.fill(destination, rows: 1, first: 100)
        try destination.inDatabase { destDb in
            try destDb.inTransaction {
                try destDb.execute(sql: "INSERT INTO item VALUES (101, NULL)")
                let error = try #require(throws: DatabaseError.self) {
                    try source.read { try $0.backup(to: destDb) }
                }
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == "destination database is in use")
                return .rollback
            }
        }
        #expect(try Self.ids(destination) == [100])
    }

    // MARK: - Copies

    @Test(arguments: [false, true])
    func inMemoryCopy(readonly: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        try Self.fill(DatabaseQueue(path: path), rows: 2)
        var configuration = Configuration()
        configuration.readonly = readonly
        let copy = try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: configuration)
        #expect(copy.path == ":memory:")
        #expect(try Self.ids(copy) == [0, 1])
        try Self.checkCopyWrites(copy, readonly: readonly, originalPath: path)
    }

    @Test(arguments: [false, true])
    func temporaryCopy(readonly: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        try Self.fill(DatabaseQueue(path: path), rows: 2)
        var configuration = Configuration()
        configuration.readonly = readonly
        let copy = try DatabaseQueue.temporaryCopy(fromPath: path, configuration: configuration)
        #expect(copy.path == "")
        #expect(try Self.ids(copy) == [0, 1])
        try Self.checkCopyWrites(copy, readonly: readonly, originalPath: path)
    }

    /// A writable copy changes without changing the original; a read-only
    /// one refuses writes, even after reads.
    private static func checkCopyWrites(_ copy: DatabaseQueue, readonly: Bool, originalPath: String) throws {
        if readonly {
            for _ in 0..<2 {
                let error = try #require(throws: DatabaseError.self) {
                    try copy.write { try $0.execute(sql: "DELETE FROM item") }
                }
                #expect(error.resultCode == .SQLITE_READONLY)
                _ = try ids(copy)
            }
            #expect(try ids(copy) == [0, 1])
        } else {
            try copy.write { try $0.execute(sql: "DELETE FROM item") }
            #expect(try ids(copy) == [])
        }
        #expect(try ids(DatabaseQueue(path: originalPath)) == [0, 1])
    }

    @Test func copiesOfAMissingFileThrow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("missing.sqlite")
        let memoryError = try #require(throws: DatabaseError.self) { try DatabaseQueue.inMemoryCopy(fromPath: path) }
        #expect(memoryError.resultCode == .SQLITE_CANTOPEN)
        let temporaryError = try #require(throws: DatabaseError.self) {
            try DatabaseQueue.temporaryCopy(fromPath: path)
        }
        #expect(temporaryError.resultCode == .SQLITE_CANTOPEN)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
