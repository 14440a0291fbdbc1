import Dispatch
import Foundation
import GRDBLite
import TestSupport
import Testing

/// Where and when each scheduler notifies.
@Suite struct ValueObservationSchedulerTests {
    @MainActor @Test(arguments: WriterKind.allCases) func immediateNotifiesTheInitialValueSynchronously(
        kind: WriterKind
    ) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        try insertT(writer)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .immediate, recorder: recorder)
        #expect(recorder.values == [1])
        // The next values come asynchronously, on the main actor.
        let onMainActor = LockedValue<[Bool]>([])
        let cancellable2 = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .immediate) { error in
                recorder.onError(error)
            } onChange: { (_: Int) in
                MainActor.assertIsolated()
                onMainActor.update { $0.append(true) }
            }
        #expect(onMainActor.value == [true])
        try insertT(writer)
        let values = try await recorder.waitForValue(2)
        switch kind {
        case .queue:
            #expect(values == [1, 2])
        case .pool:
            // The initial value is fetched on a reader, without waiting for
            // the writer. With SQLite snapshots, the writer sees that nothing
            // was committed since, and starts observing; without them, it
            // fetches again, and the value is notified twice (as GRDB does
            // on Linux). See ValueObservationSnapshotTests.
            #expect(values == (sqliteHasSnapshots ? [1, 2] : [1, 1, 2]))
        }
        cancellable.cancel()
        cancellable2.cancel()
    }

    @MainActor @Test func immediateNotifiesTheInitialErrorSynchronously() throws {
        let dbQueue = try DatabaseQueue()
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT * FROM missing") ?? 0 }
            .start(in: dbQueue, scheduling: .immediate, recorder: recorder)
        #expect(recorder.error is DatabaseError)
        cancellable.cancel()
    }

    @Test func immediateTrapsOffTheMainActor() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let done = DispatchSemaphore(value: 0)
            Thread {
                startImmediately(in: dbQueue)
                done.signal()
            }.start()
            done.wait()
        }
    }

    @Test(arguments: WriterKind.allCases) func asyncOnQueueNotifiesOnTheQueue(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let queue = ObservationQueue()
        let recorder = ObservationRecorder<Bool>()
        let block = DispatchSemaphore(value: 0)
        queue.queue.async { block.wait() }
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: queue.queue)) { error in
                recorder.onError(error)
            } onChange: { _ in
                recorder.onChange(queue.isCurrent)
            }
        // Not synchronously.
        #expect(recorder.values == [])
        block.signal()
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        #expect(try await recorder.waitForValues(count: 2) == [true, true])
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func asyncOnQueueNotifiesTheErrorOnTheQueue(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let queue = ObservationQueue()
        let recorder = ObservationRecorder<Bool>()
        let cancellable = ValueObservation.tracking { _ -> Int in throw TestFetchError() }
            .start(in: writer, scheduling: .async(onQueue: queue.queue)) { _ in
                recorder.onChange(queue.isCurrent)
            } onChange: { _ in }
        #expect(try await recorder.waitForValues(count: 1) == [true])
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func taskNotifiesInOrder(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .task, recorder: recorder)
        try await recorder.waitForValues(count: 1)
        for _ in 0..<10 { try insertT(writer) }
        let values = try await recorder.waitForValue(10)
        #expect(values.first == 0)
        #expect(values == values.sorted())
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func taskWithPriority(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .task(priority: .high), recorder: recorder)
        #expect(try await recorder.waitForValues(count: 1) == [0])
        cancellable.cancel()
    }

    @MainActor @Test(arguments: WriterKind.allCases) func mainActorStart(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        // The @MainActor `start`: asynchronous, on the main actor, by default.
        let cancellable = ValueObservation.tracking(countT).start(in: writer) { error in
            recorder.onError(error)
        } onChange: { value in
            MainActor.assertIsolated()
            recorder.onChange(value)
        }
        #expect(recorder.values == [])
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        #expect(try await recorder.waitForValues(count: 2) == [0, 1])
        cancellable.cancel()
    }
}

/// Starts an observation with the `.immediate` scheduler, through the
/// `start` method that is not isolated to the main actor.
private func startImmediately(in reader: any DatabaseReader) {
    func start(_ scheduler: some ValueObservationScheduler) {
        ValueObservation.tracking { _ in 0 }
            .start(in: reader, scheduling: scheduler, onError: { _ in }, onChange: { _ in })
            .cancel()
    }
    start(.immediate)
}
