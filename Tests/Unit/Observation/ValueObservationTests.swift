import Dispatch
import Foundation
import GRDBLite
import TestSupport
import Testing

/// The guarantees of `ValueObservation`, on a queue and on a pool.
@Suite struct ValueObservationTests {
    @Test(arguments: WriterKind.allCases) func firstValueIsTheCurrentState(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        try insertT(writer, count: 3)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        #expect(try await recorder.waitForValues(count: 1) == [3])
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func aValueAfterEachCommit(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        for count in 1...3 {
            try insertT(writer)
            try await recorder.waitForValues(count: count + 1)
        }
        #expect(recorder.values == [0, 1, 2, 3])
        cancellable.cancel()
    }

    /// Commits as fast as possible: values may be coalesced, but they come
    /// in commit order, and the last one is the last commit's.
    @Test(arguments: WriterKind.allCases) func noCommitIsMissed(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        let commits = 50
        for _ in 0..<commits { try insertT(writer) }
        let values = try await recorder.waitForValue(commits)
        #expect(values.first == 0)
        #expect(values.last == commits)
        #expect(values == values.sorted())
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func rolledBackAndUncommittedStatesAreNeverNotified(kind: WriterKind)
        async throws
    {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        // A rolled back transaction.
        #expect(throws: TestFetchError.self) {
            try blocking {
                try writer.write { db in
                    try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                    throw TestFetchError()
                }
            }
        }
        // A rolled back savepoint, and an intermediate state (1 row).
        try blocking {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                    return .rollback
                }
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            }
        }
        // Explicit transactions.
        try blocking {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN; INSERT INTO t DEFAULT VALUES; ROLLBACK")
                try db.execute(sql: "BEGIN; INSERT INTO t DEFAULT VALUES; INSERT INTO t DEFAULT VALUES; COMMIT")
            }
        }
        let values = try await recorder.waitForValue(4)
        #expect(values.allSatisfy { [0, 2, 4].contains($0) }, "\(values)")
        #expect(values.last == 4)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func changesOutsideOfTheRegionAreNotNotified(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let fetches = LockedValue(0)
        let cancellable = ValueObservation
            .tracking { db in
                fetches.update { $0 += 1 }
                return try countT(db)
            }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try blocking {
            try writer.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        }
        try insertT(writer)
        #expect(try await recorder.waitForValues(count: 2) == [0, 1])
        #expect(fetches.value == 2)
        cancellable.cancel()
    }

    /// `tracking` records the region of each fetch: when it reads `a` or
    /// `b` depending on `flag`, the changes of the table it reads now count.
    @Test(arguments: WriterKind.allCases) func trackingRecordsTheRegionOfEachFetch(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeFlagDatabase(kind, dir)
        let recorder = ObservationRecorder<String>()
        let cancellable = ValueObservation.tracking(fetchFlagged)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValue("b:0")
        try write(writer, "INSERT INTO a DEFAULT VALUES")  // not tracked
        try write(writer, "INSERT INTO b DEFAULT VALUES")
        try await recorder.waitForValue("b:1")
        try write(writer, "UPDATE flag SET v = 1")
        try await recorder.waitForValue("a:1")
        try write(writer, "INSERT INTO b DEFAULT VALUES")  // no longer tracked
        try write(writer, "INSERT INTO a DEFAULT VALUES")
        #expect(try await recorder.waitForValue("a:2") == ["b:0", "b:1", "a:1", "a:2"])
        cancellable.cancel()
    }

    /// `trackingConstantRegion` keeps the region of the first fetch.
    @Test(arguments: WriterKind.allCases) func trackingConstantRegionKeepsTheFirstRegion(kind: WriterKind) async throws
    {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeFlagDatabase(kind, dir)
        let recorder = ObservationRecorder<String>()
        let cancellable = ValueObservation.trackingConstantRegion(fetchFlagged)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValue("b:0")
        try write(writer, "UPDATE flag SET v = 1")
        try await recorder.waitForValue("a:0")
        try write(writer, "INSERT INTO a DEFAULT VALUES")  // not in the first region
        try write(writer, "INSERT INTO b DEFAULT VALUES")
        #expect(try await recorder.waitForValue("a:1") == ["b:0", "a:0", "a:1"])
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func trackingAnExplicitRegion(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        // Tracks `other`, fetches `t`.
        let cancellable = ValueObservation.tracking(region: Table("other"), fetch: countT)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(writer)  // not tracked
        try insertT(writer)  // not tracked
        try write(writer, "INSERT INTO other DEFAULT VALUES")
        #expect(try await recorder.waitForValues(count: 2) == [0, 2])
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func notifyChangesTriggersAFetch(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let fetches = LockedValue(0)
        let cancellable = ValueObservation
            .tracking { db in
                fetches.update { $0 += 1 }
                return try countT(db)
            }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try blocking {
            try writer.write { db in try db.notifyChanges(in: Table("t")) }
        }
        #expect(try await recorder.waitForValues(count: 2) == [0, 0])
        #expect(fetches.value == 2)
        cancellable.cancel()
    }

    // MARK: - Errors

    @Test(arguments: WriterKind.allCases) func aFetchErrorEndsTheObservation(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let fetches = LockedValue(0)
        let cancellable = ValueObservation
            .tracking { db in
                fetches.update { $0 += 1 }
                let count = try countT(db)
                if count == 1 { throw TestFetchError() }
                return count
            }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        #expect(try await recorder.waitForError() is TestFetchError)
        let fetchesAtError = fetches.value
        // The observation no longer fetches.
        try insertT(writer)
        let barrier = ObservationRecorder<Int>()
        let barrierCancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: barrier)
        try await barrier.waitForValue(2)
        #expect(fetches.value == fetchesAtError)
        #expect(recorder.values == [0])
        cancellable.cancel()
        barrierCancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func anInitialFetchErrorIsNotified(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing")! }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        let error = try #require(try await recorder.waitForError() as? DatabaseError)
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message?.contains("missing") == true)
        #expect(recorder.values.isEmpty)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func fetchesAreReadOnlyByDefault(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in
                try db.execute(sql: "INSERT INTO other DEFAULT VALUES")
                return try countT(db)
            }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        let error = try #require(try await recorder.waitForError() as? DatabaseError)
        #expect(error.resultCode == .SQLITE_READONLY)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func requiresWriteAccessFetchesInASavepoint(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        var observation = ValueObservation.tracking { db in
            try db.execute(sql: "INSERT INTO other DEFAULT VALUES")
            return try countT(db)
        }
        observation.requiresWriteAccess = true
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        #expect(try await recorder.waitForValues(count: 2) == [0, 1])
        // Each fetch wrote, and its write did not trigger another fetch.
        let otherCount = try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM other")! }
        #expect(otherCount == 2)
        cancellable.cancel()
    }

    // MARK: - Cancellation

    /// Values scheduled before `cancel()` are not notified after it.
    @Test(arguments: WriterKind.allCases) func noValueAfterCancel(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let reduced = ObservationRecorder<Int>()
        let didCancel = LockedValue(false)
        let queue = ObservationQueue()
        let cancellable = ValueObservation.tracking(countT)
            .handleEvents(didReceiveValue: reduced.onChange, didCancel: { didCancel.update { $0 = true } })
            .start(in: writer, scheduling: .async(onQueue: queue.queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        // Blocks the notification queue: the next values wait there.
        let block = DispatchSemaphore(value: 0)
        queue.queue.async { block.wait() }
        try insertT(writer)
        try insertT(writer)
        try await reduced.waitForValue(2)
        cancellable.cancel()
        #expect(didCancel.value)
        block.signal()
        queue.queue.sync { }
        #expect(recorder.values == [0])
    }

    @Test(arguments: WriterKind.allCases) func cancelFromOnChange(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellableBox = LockedValue<AnyDatabaseCancellable?>(nil)
        let queue = ObservationQueue()
        // Blocks the notification queue until the cancellable is stored.
        let block = DispatchSemaphore(value: 0)
        queue.queue.async { block.wait() }
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: queue.queue)) { error in
                recorder.onError(error)
            } onChange: { value in
                recorder.onChange(value)
                if value == 1 { cancellableBox.value?.cancel() }
            }
        cancellableBox.update { $0 = cancellable }
        block.signal()
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        try await recorder.waitForValue(1)
        try insertT(writer)
        try insertT(writer)
        queue.queue.sync { }
        #expect(recorder.values == [0, 1])
        #expect(recorder.error == nil)
    }

    /// Deinitializing the cancellable cancels the observation.
    @Test(arguments: WriterKind.allCases) func releasingTheCancellableCancels(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let didCancel = ObservationRecorder<Bool>()
        var cancellable: AnyDatabaseCancellable? = ValueObservation.tracking(countT)
            .handleEvents(didCancel: { didCancel.onChange(true) })
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        #expect(cancellable != nil)
        cancellable = nil
        try await didCancel.waitForValues(count: 1)
        try insertT(writer)
        #expect(recorder.values == [0])
    }

    // MARK: - Closing

    @Test(arguments: WriterKind.allCases) func closingTheDatabaseEndsTheObservation(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let queue = ObservationQueue()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: queue.queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        try await recorder.waitForValue(1)
        try writer.close()
        queue.queue.sync { }
        #expect(recorder.values == [0, 1])
        #expect(recorder.error == nil)
        cancellable.cancel()
    }

    /// An observation started after `close()` fails with SQLITE_MISUSE.
    @Test(arguments: WriterKind.allCases) func startingOnAClosedDatabaseFails(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        try writer.close()
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        let error = try #require(try await recorder.waitForError() as? DatabaseError)
        #expect(error.resultCode == .SQLITE_MISUSE)
        cancellable.cancel()
    }

    /// The observation retains the database until it ends; the database is
    /// then deallocated.
    @Test(arguments: WriterKind.allCases) func theDatabaseIsReleasedAfterCancel(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var writer: (any DatabaseWriter)? = try makeObservedDatabase(kind, dir)
        weak let weakWriter = writer
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: writer!, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try insertT(writer!)
        try await recorder.waitForValue(1)
        writer = nil
        cancellable.cancel()
        try await waitUntil("the database is deallocated") { weakWriter == nil }
    }

    // MARK: - Readers

    @Test func aReadOnlyDatabaseNotifiesOneValue() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path()
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t DEFAULT VALUES")
        }
        var configuration = Configuration()
        configuration.readonly = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(in: reader, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        #expect(try await recorder.waitForValues(count: 1) == [1])
        cancellable.cancel()
    }

    /// A snapshot never changes: its observation notifies the state of
    /// the snapshot, and nothing after the pool's commits.
    @Test func aSnapshotNotifiesOneValue() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let dbPool = try makeObservedDatabase(.pool, dir) as! DatabasePool
        try insertT(dbPool)
        let snapshot = try dbPool.makeSnapshot()
        try insertT(dbPool)
        let fetches = LockedValue(0)
        let recorder = ObservationRecorder<Int>()
        let observation = ValueObservation.tracking { db in
            fetches.update { $0 += 1 }
            return try countT(db)
        }
        let cancellable = observation
            .start(in: snapshot, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        #expect(try await recorder.waitForValues(count: 1) == [1])
        try insertT(dbPool)
        #expect(fetches.value == 1)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func typeErasedReaders(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation.tracking(countT)
            .start(
                in: AnyDatabaseReader(writer), scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder
            )
        try await recorder.waitForValues(count: 1)
        try insertT(writer)
        #expect(try await recorder.waitForValues(count: 2) == [0, 1])
        cancellable.cancel()
    }

    // MARK: - Pool

    /// In a pool, a fetch runs on a reader: the writer goes on while it
    /// runs, and the commits it makes are not missed.
    @Test func aPoolFetchesWithoutBlockingTheWriter() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(.pool, dir)
        let fetchStarted = DispatchSemaphore(value: 0)
        let releaseFetch = DispatchSemaphore(value: 0)
        let fetches = LockedValue(0)
        let recorder = ObservationRecorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in
                let count = try countT(db)
                // The second fetch (after the first insert) waits.
                if fetches.update({ $0 += 1; return $0 }) == 2 {
                    fetchStarted.signal()
                    if releaseFetch.wait(timeout: .now() + stepTimeout) == .timedOut {
                        throw StepFailure("not released")
                    }
                }
                return count
            }
            .start(in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try await onThread {
            try insertT(writer)
            try fetchStarted.waitOrThrow("the fetch")
            // The fetch is blocked: the writer can still write.
            try insertT(writer)
            try insertT(writer)
            releaseFetch.signal()
        }
        let values = try await recorder.waitForValue(3)
        // The blocked fetch saw the state of its commit.
        #expect(values.prefix(2) == [0, 1])
        #expect(values == values.sorted())
        cancellable.cancel()
    }

    // MARK: - Concurrency

    /// Many observations at once, started from several tasks, while a task
    /// writes: each sees the initial state, values in commit order, and
    /// the final state.
    @Test(arguments: WriterKind.allCases) func observationsFromSeveralTasks(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let commits = 20
        try await withThrowingTaskGroup(of: [Int].self) { group in
            for index in 0..<8 {
                group.addTask {
                    var values: [Int] = []
                    let observation = ValueObservation.tracking(countT)
                    if index.isMultiple(of: 2) {
                        for try await value in observation.values(in: writer) {
                            values.append(value)
                            if value == commits { break }
                        }
                    } else {
                        let recorder = ObservationRecorder<Int>()
                        let cancellable = observation.removeDuplicates()
                            .start(
                                in: writer, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
                        values = try await recorder.waitForValue(commits)
                        cancellable.cancel()
                    }
                    return values
                }
            }
            group.addTask {
                for _ in 0..<commits {
                    try await writer.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
                }
                return []
            }
            for try await values in group where !values.isEmpty {
                #expect(values.last == commits)
                #expect(values == values.sorted(), "\(values)")
            }
        }
    }
}

/// A writer with tables `flag(v)` (one row, 0), `a` and `b`.
private func makeFlagDatabase(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
    let writer = try kind.make(directory)
    try writer.write { db in
        try db.execute(sql: """
            CREATE TABLE flag(v INTEGER NOT NULL); INSERT INTO flag VALUES (0);
            CREATE TABLE a(id INTEGER PRIMARY KEY);
            CREATE TABLE b(id INTEGER PRIMARY KEY);
            """)
    }
    return writer
}

/// `a:count` if the flag is set, else `b:count`.
@Sendable private func fetchFlagged(_ db: Database) throws -> String {
    let table = try Bool.fetchOne(db, sql: "SELECT v FROM flag")! ? "a" : "b"
    return "\(table):\(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!)"
}

private func write(_ writer: any DatabaseWriter, _ sql: String) throws {
    try blocking {
        try writer.write { db in try db.execute(sql: sql) }
    }
}

/// Waits until `condition` holds, checking it again and again; throws
/// after `stepTimeout`. For conditions nothing notifies (a deallocation).
func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(stepTimeout)
    while !condition() {
        if Date() > deadline { throw StepFailure("timed out waiting until \(what)") }
        try await Task.sleep(nanoseconds: 1_000_000)
    }
}
