import Dispatch
import Foundation
import GRDBLite
import TestSupport
import Testing

@Suite struct ValueObservationHandleEventsTests {
    /// The events of a queue's observation, in order.
    @Test func handleEvents() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)") }
        let events = LockedValue<[String]>([])
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .handleEvents(
                willStart: { events.update { $0.append("start") } },
                willFetch: { events.update { $0.append("fetch") } },
                willTrackRegion: { region in events.update { $0.append("region \(region)") } },
                databaseDidChange: { events.update { $0.append("change") } },
                didReceiveValue: { value in events.update { $0.append("value \(value)") } },
                didFail: { _ in events.update { $0.append("fail") } },
                didCancel: { events.update { $0.append("cancel") } })
            .start(in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(dbQueue)
        try await recorder.waitForValues(count: 2)
        cancellable.cancel()
        #expect(events.value == [
            "start", "fetch", "region t(*)", "value 0",
            "change", "fetch", "value 1",
            "cancel",
        ])
    }

    @Test(arguments: WriterKind.allCases) func didFail(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let failures = ObservationRecorder<String>()
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking { _ -> Int in throw TestFetchError() }
            .handleEvents(didFail: { error in failures.onChange("\(error)") })
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        #expect(try await recorder.waitForError() is TestFetchError)
        #expect(failures.values == ["\(TestFetchError())"])
        cancellable.cancel()
    }

    /// `willTrackRegion` tells each new region of a `tracking` observation.
    @Test func willTrackRegionFollowsTheRegion() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE flag(v INTEGER NOT NULL); INSERT INTO flag VALUES (0);
                CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);
                """)
        }
        let regions = LockedValue<[String]>([])
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation
            .tracking { db -> Int in
                let flag = try Bool.fetchOne(db, sql: "SELECT v FROM flag")!
                if flag { return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM a")! }
                return try Int.fetchOne(db, sql: "SELECT MAX(name) FROM a") == nil ? 0 : -1
            }
            .handleEvents(willTrackRegion: { region in regions.update { $0.append("\(region)") } })
            .start(in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try await dbQueue.write { db in try db.execute(sql: "UPDATE flag SET v = 1") }
        try await recorder.waitForValues(count: 2)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO a DEFAULT VALUES") }
        #expect(try await recorder.waitForValues(count: 3) == [0, 0, 1])
        #expect(regions.value == ["a(name),flag(v)", "a(*),flag(v)"])
        cancellable.cancel()
    }

    @Test func print() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)") }
        let output = LockedOutput()
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .print("count", to: output)
            .start(in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(dbQueue)
        try await recorder.waitForValues(count: 2)
        cancellable.cancel()
        #expect(output.lines == [
            "count: start", "count: fetch", "count: tracked region: t(*)", "count: value: 0",
            "count: database did change", "count: fetch", "count: value: 1",
            "count: cancel",
        ])
    }
}

/// A text stream that keeps what it is given.
private final class LockedOutput: TextOutputStream, @unchecked Sendable {
    // @unchecked Sendable: `storage` is only used under its lock.
    private let storage = LockedValue<[String]>([])
    var lines: [String] { storage.value }
    func write(_ string: String) {
        storage.update { $0.append(string) }
    }
}
