import Dispatch
import Foundation
import GRDBLite
import TestSupport
import Testing

/// A shared observation fetches once per change for all its subscriptions,
/// and starts and stops its database observation as its extent says.
@Suite struct SharedValueObservationTests {
    /// An observation of the count of `t` that logs its events.
    static func countObservation(_ log: LockedValue<[String]>, fails: LockedValue<Bool>? = nil)
        -> ValueObservation<ValueReducers.Trace<ValueReducers.Fetch<Int>>>
    {
        ValueObservation.tracking { db in
            if fails?.value == true { throw TestFetchError() }
            return try countT(db)
        }
        .handleEvents(
            willStart: { log.update { $0.append("start") } },
            willFetch: { log.update { $0.append("fetch") } },
            didCancel: { log.update { $0.append("cancel") } })
    }

    static func start(_ shared: SharedValueObservation<Int>, _ recorder: ObservationRecorder<Int>)
        -> AnyDatabaseCancellable
    {
        shared.start(onError: recorder.onError, onChange: recorder.onChange)
    }

    @Test(arguments: WriterKind.allCases)
    func subscriptionsShareOneFetchPerChange(_ kind: WriterKind) async throws {
        let directory = try TemporaryDirectory()
        let writer = try makeObservedDatabase(kind, directory)
        let log = LockedValue<[String]>([])
        let shared = Self.countObservation(log).shared(
            in: writer, scheduling: .async(onQueue: ObservationQueue().queue))
        let first = ObservationRecorder<Int>()
        let cancellable1 = Self.start(shared, first)
        try await first.waitForValue(0)
        try insertT(writer)
        try await first.waitForValue(1)

        // A later subscription gets the last value first, without a fetch.
        let second = ObservationRecorder<Int>()
        let cancellable2 = Self.start(shared, second)
        try await second.waitForValue(1)
        try insertT(writer)
        try await first.waitForValue(2)
        try await second.waitForValue(2)
        #expect(first.values == [0, 1, 2])
        #expect(second.values == [1, 2])
        #expect(log.value == ["start", "fetch", "fetch", "fetch"])
        cancellable1.cancel()
        cancellable2.cancel()
        #expect(log.value.last == "cancel")
    }

    @Test func whileObservedStopsWithTheLastSubscriptionAndRestarts() async throws {
        let directory = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, directory)
        let log = LockedValue<[String]>([])
        let shared = Self.countObservation(log)
            .shared(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), extent: .whileObserved)
        let first = ObservationRecorder<Int>()
        let second = ObservationRecorder<Int>()
        let cancellable1 = Self.start(shared, first)
        let cancellable2 = Self.start(shared, second)
        try await first.waitForValue(0)
        try await second.waitForValue(0)
        cancellable1.cancel()
        #expect(!log.value.contains("cancel"))
        cancellable2.cancel()
        #expect(log.value == ["start", "fetch", "cancel"])

        try insertT(writer)
        let third = ObservationRecorder<Int>()
        let cancellable3 = Self.start(shared, third)
        try await third.waitForValue(1)
        // A new database observation: no stale value first.
        #expect(third.values == [1])
        #expect(log.value == ["start", "fetch", "cancel", "start", "fetch"])
        cancellable3.cancel()
    }

    @Test func observationLifetimeLastsUntilTheSharedObservationIsReleased() async throws {
        let directory = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, directory)
        let log = LockedValue<[String]>([])
        var shared: SharedValueObservation<Int>? = Self.countObservation(log)
            .shared(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), extent: .observationLifetime)
        let first = ObservationRecorder<Int>()
        Self.start(shared!, first).cancel()
        #expect(!log.value.contains("cancel"))

        let second = ObservationRecorder<Int>()
        let cancellable = Self.start(shared!, second)
        try await second.waitForValue(0)
        try insertT(writer)
        try await second.waitForValue(1)
        #expect(log.value.filter { $0 == "start" }.count == 1)
        shared = nil
        // The subscription keeps the shared observation alive.
        #expect(!log.value.contains("cancel"))
        cancellable.cancel()
        #expect(log.value.last == "cancel")
    }

    @Test(arguments: [SharedValueObservationExtent.whileObserved, .observationLifetime])
    func errors(_ extent: SharedValueObservationExtent) async throws {
        let directory = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, directory)
        let log = LockedValue<[String]>([])
        let fails = LockedValue(false)
        let shared = Self.countObservation(log, fails: fails)
            .shared(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), extent: extent)
        let first = ObservationRecorder<Int>()
        let second = ObservationRecorder<Int>()
        let cancellables = [Self.start(shared, first), Self.start(shared, second)]
        try await first.waitForValue(0)
        fails.update { $0 = true }
        try insertT(writer)
        #expect(try await first.waitForError() is TestFetchError)
        #expect(try await second.waitForError() is TestFetchError)

        // After the error, the fetch works again.
        fails.update { $0 = false }
        let third = ObservationRecorder<Int>()
        let cancellable3 = Self.start(shared, third)
        switch extent {
        case .whileObserved:
            // A new subscription starts a new observation.
            try await third.waitForValue(1)
            #expect(log.value.filter { $0 == "start" }.count == 2)
        case .observationLifetime:
            // The error ends the shared observation for good.
            #expect(try await third.waitForError() is TestFetchError)
            #expect(log.value.filter { $0 == "start" }.count == 1)
        }
        _ = (cancellables, cancellable3)
    }

    @Test func values() async throws {
        let directory = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.pool, directory)
        let log = LockedValue<[String]>([])
        let shared = Self.countObservation(log).shared(in: writer, scheduling: .task)
        var received: [Int] = []
        for try await value in shared.values() {
            received.append(value)
            if value == 0 { try insertT(writer) } else { break }
        }
        #expect(received == [0, 1])
        #expect(log.value.last == "cancel")
    }

    @Test func closingTheDatabaseEndsTheValues() async throws {
        let directory = try TemporaryDirectory()
        let writer = try makeObservedDatabase(.queue, directory)
        let shared = ValueObservation.tracking(countT).shared(in: writer, scheduling: .task)
        var received: [Int] = []
        for try await value in shared.values() {
            received.append(value)
            try writer.close()
        }
        #expect(received == [0])
        // A later subscription ends at once.
        var later: [Int] = []
        for try await value in shared.values() { later.append(value) }
        #expect(later.isEmpty)
    }
}
