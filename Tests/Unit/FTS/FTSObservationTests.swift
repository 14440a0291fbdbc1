import Foundation
import GRDBLite
import TestSupport
import Testing

/// Changes to full-text tables are seen by observations, although SQLite
/// reports them in the shadow tables of the virtual table.
@Suite struct FTSObservationTests {
    @Test(arguments: WriterKind.allCases) func valueObservationOfFTS4(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try kind.make(dir)
        try await writer.write { db in
            try db.create(virtualTable: "doc", using: FTS4()) { t in t.column("body") }
        }
        let recorder = ObservationRecorder<Int>()
        let pattern = FTS3Pattern(matchingAnyTokenIn: "mars")
        let cancellable = ValueObservation
            .tracking { db in try Table("doc").all().matching(pattern).fetchCount(db) }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try await writer.write { db in try db.execute(sql: "INSERT INTO doc (body) VALUES ('red mars')") }
        try await recorder.waitForValue(1)
        try await writer.write { db in try db.execute(sql: "DELETE FROM doc") }
        // The first value is 0 too: wait for a 0 after the 1.
        try await recorder.wait(for: "value 0 after 1") { $0.values.count >= 3 && $0.values.last == 0 }
        #expect(recorder.values.first == 0)
        #expect(recorder.values.last == 0)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func valueObservationOfSynchronizedFTS5(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try kind.make(dir)
        try await writer.write { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
        }
        let recorder = ObservationRecorder<[String]>()
        let cancellable = ValueObservation
            .tracking { db in
                try String.fetchAll(
                    db, Table("book_ft").select(Column("title")).matching(FTS5Pattern(matchingAnyTokenIn: "mars")))
            }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        // A write to the content table only: the triggers update the index.
        try await writer.write { db in try db.execute(sql: "INSERT INTO book (title) VALUES ('Red Mars')") }
        try await recorder.waitForValue(["Red Mars"])
        cancellable.cancel()
    }

    @Test func regionObservationOfFTS5() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("body") }
            try db.create(table: "other") { t in t.autoIncrementedPrimaryKey("id") }
        }
        let changes = LockedValue(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("doc")).start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { _ in
            changes.update { $0 += 1 }
        }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO doc (body) VALUES ('mars')") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE doc SET body = 'venus'") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        try dbQueue.write { db in try db.execute(sql: "DELETE FROM doc") }
        #expect(changes.value == 3)
        cancellable.cancel()
    }
}
