import Dispatch
import Foundation
import GRDBLite
import TestSupport
import Testing

/// `ValueObservation.values(in:)`, iterated with `for try await`.
@Suite struct AsyncValueObservationTests {
    @Test(arguments: WriterKind.allCases) func forTryAwait(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        var values: [Int] = []
        for try await value in ValueObservation.tracking(countT).values(in: writer) {
            values.append(value)
            if value == 3 { break }
            try await writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        }
        #expect(values == [0, 1, 2, 3])
    }

    @Test(arguments: WriterKind.allCases) func breakingTheLoopCancelsTheObservation(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let didCancel = ObservationRecorder<Bool>()
        let observation = ValueObservation.tracking(countT).handleEvents(didCancel: { didCancel.onChange(true) })
        for try await _ in observation.values(in: writer) {
            break
        }
        try await didCancel.waitForValues(count: 1)
    }

    @Test(arguments: WriterKind.allCases) func cancellingTheTaskEndsTheLoop(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let started = ObservationRecorder<Int>()
        let didCancel = ObservationRecorder<Bool>()
        let observation = ValueObservation.tracking(countT).handleEvents(didCancel: { didCancel.onChange(true) })
        let task = Task {
            var count = 0
            for try await value in observation.values(in: writer) {
                count += 1
                started.onChange(value)
            }
            return count
        }
        try await started.waitForValues(count: 1)
        task.cancel()
        // The loop ends without error (or with CancellationError), after
        // the values it received.
        let count = try? await task.value
        #expect(count == nil || count! >= 1)
        try await didCancel.waitForValues(count: 1)
    }

    @Test(arguments: WriterKind.allCases) func theErrorIsThrownByTheLoop(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let observation = ValueObservation.tracking { db in
            let count = try countT(db)
            if count == 1 { throw TestFetchError() }
            return count
        }
        var values: [Int] = []
        await #expect(throws: TestFetchError.self) {
            for try await value in observation.values(in: writer) {
                values.append(value)
                try await writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
            }
        }
        #expect(values == [0])
    }

    @Test(arguments: WriterKind.allCases) func closingTheDatabaseEndsTheLoop(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        var values: [Int] = []
        for try await value in ValueObservation.tracking(countT).values(in: writer) {
            values.append(value)
            try writer.close()
        }
        #expect(values == [0])
    }

    @Test(arguments: WriterKind.allCases) func bufferingNewest(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let reduced = ObservationRecorder<Int>()
        let observation = ValueObservation.tracking(countT).handleEvents(didReceiveValue: reduced.onChange)
        let scheduler = CountingScheduler()
        var values: [Int] = []
        for try await value in observation.values(
            in: writer, scheduling: scheduler, bufferingPolicy: .bufferingNewest(1))
        {
            values.append(value)
            if value == 0 {
                // Three values are produced while the loop does not iterate:
                // it gets the last one only.
                for _ in 0..<3 { try insertT(writer) }
                let reducedCount = try await reduced.waitForValue(3).count
                try await scheduler.ran.waitForValues(count: reducedCount)
            }
            if value == 3 { break }
        }
        #expect(values == [0, 3])
    }

    @Test(arguments: WriterKind.allCases) func asyncSchedulerAndMapping(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let queue = ObservationQueue()
        let onQueue = LockedValue<[Bool]>([])
        let observation = ValueObservation.tracking(countT).map { count in
            onQueue.update { $0.append(queue.isCurrent) }
            return "\(count)"
        }
        var values: [String] = []
        for try await value in observation.values(in: writer, scheduling: .async(onQueue: queue.queue)) {
            values.append(value)
            if values.count == 2 { break }
            try insertT(writer)
        }
        #expect(values == ["0", "1"])
        // `map` runs off the notification queue.
        #expect(onQueue.value.allSatisfy { !$0 })
    }
}
