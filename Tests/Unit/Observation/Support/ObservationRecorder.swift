import Dispatch
import Foundation
import GRDBLite
import TestSupport

/// Records what a started observation notifies (values, error, end), and
/// lets a test wait for a condition on them, with a timeout that fails
/// the test instead of hanging it.
final class ObservationRecorder<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: every stored property is used under `lock`.

    /// What was notified so far.
    struct Events {
        var values: [Value] = []
        var error: (any Error)?
        /// The observation ended without error (the database closed).
        var isFinished = false
    }

    private struct Waiter {
        var id: Int
        var condition: (Events) -> Bool
        var continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var events = Events()
    private var waiters: [Waiter] = []
    private var nextWaiterID = 0

    var values: [Value] { lock.withLock { events.values } }
    var error: (any Error)? { lock.withLock { events.error } }
    var isFinished: Bool { lock.withLock { events.isFinished } }

    func onChange(_ value: Value) {
        update { $0.values.append(value) }
    }

    func onError(_ error: any Error) {
        update { $0.error = error }
    }

    func onFinish() {
        update { $0.isFinished = true }
    }

    private func update(_ body: (inout Events) -> Void) {
        let ready: [Waiter] = lock.withLock {
            body(&events)
            let ready = waiters.filter { $0.condition(events) }
            waiters.removeAll { $0.condition(events) }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Waits until `condition` holds; throws after `stepTimeout`.
    func wait(for what: String, until condition: @escaping (Events) -> Bool) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let id: Int? = lock.withLock {
                if condition(events) { return nil }
                nextWaiterID += 1
                waiters.append(Waiter(id: nextWaiterID, condition: condition, continuation: continuation))
                return nextWaiterID
            }
            guard let id else {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + stepTimeout) {
                let expired: Waiter? = self.lock.withLock {
                    guard let index = self.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return self.waiters.remove(at: index)
                }
                let values = self.values
                expired?.continuation.resume(throwing: StepFailure("timed out waiting for \(what); values: \(values)"))
            }
        }
    }

    /// Waits until `count` values were notified, and returns them all.
    @discardableResult
    func waitForValues(count: Int) async throws -> [Value] {
        try await wait(for: "\(count) values") { $0.values.count >= count }
        return values
    }

    /// Waits until the error that ends the observation was notified.
    func waitForError() async throws -> any Error {
        try await wait(for: "an error") { $0.error != nil }
        return error!
    }
}

extension ObservationRecorder where Value: Equatable {
    /// Waits until `value` was notified, and returns all values.
    @discardableResult
    func waitForValue(_ value: Value) async throws -> [Value] {
        try await wait(for: "value \(value)") { $0.values.contains(value) }
        return values
    }
}

extension ValueObservation {
    /// Starts the observation, recorded by `recorder`.
    func start(
        in reader: any DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler,
        recorder: ObservationRecorder<Reducer.Value>) -> AnyDatabaseCancellable
    {
        start(in: reader, scheduling: scheduler, onError: recorder.onError, onChange: recorder.onChange)
    }
}

/// A serial queue for the `.async(onQueue:)` scheduler, and a way to know
/// whether the caller runs on it.
final class ObservationQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Void>()

    init(_ label: String = "ObservationTests") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: ())
    }

    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }
}

/// An error that a test fetch throws.
struct TestFetchError: Error, Equatable { }

/// A writer with table `t(id INTEGER PRIMARY KEY, name TEXT)` and table
/// `other(id INTEGER PRIMARY KEY)`.
func makeObservedDatabase(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
    let writer = try kind.make(directory)
    try writer.write { db in
        try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT)")
        try db.execute(sql: "CREATE TABLE other(id INTEGER PRIMARY KEY)")
    }
    return writer
}

/// Inserts a row in `t`, in a transaction of its own.
func insertT(_ writer: any DatabaseWriter, count: Int = 1) throws {
    try blocking {
        try writer.write { db in
            for _ in 0..<count { try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        }
    }
}

/// The number of rows in `t`.
@Sendable func countT(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
}

/// A scheduler that runs its actions on a serial queue, and counts those
/// that ran: a test knows when a value was handed to its consumer.
struct CountingScheduler: ValueObservationScheduler {
    let queue = ObservationQueue("CountingScheduler")
    /// One `true` per action that ran.
    let ran = ObservationRecorder<Bool>()

    func immediateInitialValue() -> Bool { false }

    func schedule(_ action: @escaping @Sendable () -> Void) {
        queue.queue.async {
            action()
            ran.onChange(true)
        }
    }
}
