import Foundation
import GRDBLite
import TestSupport
import Testing

@Suite struct ValueObservationMapTests {
    @Test(arguments: WriterKind.allCases) func map(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<String>()
        let cancellable = ValueObservation.tracking(countT)
            .map { "count: \($0)" }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        #expect(try await recorder.waitForValues(count: 2) == ["count: 0", "count: 1"])
        cancellable.cancel()
    }

    /// `map` keeps the configuration of the observation.
    @Test func mapKeepsRequiresWriteAccess() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)") }
        var observation = ValueObservation.tracking { db in
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            return try countT(db)
        }
        observation.requiresWriteAccess = true
        let mapped = observation.map { $0 * 10 }
        #expect(mapped.requiresWriteAccess)
        let recorder = ObservationRecorder<Int>()
        let cancellable = mapped.start(
            in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        #expect(try await recorder.waitForValues(count: 1) == [10])
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func aThrowingTransformEndsTheObservation(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .map { count -> Int in
                if count == 1 { throw TestFetchError() }
                return count
            }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        #expect(try await recorder.waitForError() is TestFetchError)
        #expect(recorder.values == [0])
        cancellable.cancel()
    }
}
