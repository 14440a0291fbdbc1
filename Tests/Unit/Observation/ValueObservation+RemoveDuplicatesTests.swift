import Foundation
import GRDBLite
import TestSupport
import Testing

@Suite struct ValueObservationRemoveDuplicatesTests {
    @Test(arguments: WriterKind.allCases) func removeDuplicates(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let fetches = LockedValue(0)
        // The number of rows named 'x'.
        let cancellable = ValueObservation
            .tracking { db in
                fetches.update { $0 += 1 }
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t WHERE name = 'x'")!
            }
            .removeDuplicates()
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        // Each change is fetched before the next one is written: a pool
        // may fetch once for several commits that come in a row.
        let changes = [
            "INSERT INTO t(name) VALUES ('y')",  // fetched, same value
            "INSERT INTO t(name) VALUES ('x')",
            "UPDATE t SET name = 'z' WHERE name = 'y'",  // fetched, same value
            "DELETE FROM t WHERE name = 'x'",
        ]
        for (offset, sql) in changes.enumerated() {
            try write(writer, sql)
            try await waitUntil("fetch \(offset + 2)") { fetches.value >= offset + 2 }
        }
        let values = try await recorder.waitForValues(count: 3)
        #expect(values == [0, 1, 0])
        #expect(fetches.value == 5)
        cancellable.cancel()
    }

    @Test func removeDuplicatesBy() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)") }
        let recorder = ObservationRecorder<Int>()
        // Duplicates: same parity.
        let cancellable = ValueObservation.tracking(countT)
            .removeDuplicates(by: { $0 % 2 == $1 % 2 })
            .start(in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        for _ in 0..<2 { try write(dbQueue, "INSERT INTO t DEFAULT VALUES") }  // 1, 2
        try write(dbQueue, "INSERT INTO t DEFAULT VALUES; INSERT INTO t DEFAULT VALUES")  // 4: same parity as 2
        try write(dbQueue, "INSERT INTO t DEFAULT VALUES")  // 5
        #expect(try await recorder.waitForValues(count: 4) == [0, 1, 2, 5])
        cancellable.cancel()
    }
}

private func write(_ writer: any DatabaseWriter, _ sql: String) throws {
    try blocking {
        try writer.write { db in try db.execute(sql: sql) }
    }
}
