import Foundation
import GRDBLite
import PropertyBased
import TestSupport
import Testing

/// Random write scripts (inserts, updates, deletes, savepoints, rollbacks,
/// `notifyChanges(in:)`, writes to a table no request reads) under a random
/// `ValueObservation` (`tracking` or `trackingConstantRegion`, `map`,
/// `removeDuplicates`, `.async` or `.immediate`), on a queue and on a pool.
/// Commits may race the start: on a pool, while the first fetch is held
/// after it read (with `.immediate`, before the writer observes, which must
/// then see that the first value is stale). Steps race the observation,
/// wait for its value, commit while a fetch is held after it read (pools),
/// or while a value is being notified.
///
/// The property: the values are values of committed states, in commit
/// order (never a rolled-back or uncommitted state); they start with the
/// state at start; the commits during start, a paced step and the end of
/// the script see the value of the last commit within a bounded wait; with
/// `removeDuplicates` no value repeats; once cancelled, the observation
/// notifies nothing.
@Suite struct ValueObservationPropertyTests {
    @Test(arguments: [false, true]) func valuesFollowTheCommits(pool: Bool) async {
        await checkProperty(count: 100, input: ValueObservationScript.scripts) { script in
            try await check(script, pool: pool)
        }
    }

    /// How long a value that must come may take (a failure waits that long):
    /// generous, since the suite's long synchronous tests may hold the test
    /// runtime's threads for a while (seen: a run whose shrunk case passed).
    static let patience: TimeInterval = 30

    private func check(_ script: ValueObservationScript, pool: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        let writer: any DatabaseWriter = pool ? try DatabasePool(path: path) : try DatabaseQueue(path: path)
        try await writer.write { db in
            try db.execute(sql: """
                CREATE TABLE a(id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
                CREATE TABLE b(id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
                CREATE TABLE c(id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
                CREATE TABLE marker(n INTEGER NOT NULL); INSERT INTO marker VALUES (0);
                """)
        }
        let fetchGate = Gate()
        let notificationGate = Gate()
        let request = script.request
        let fetch: @Sendable (Database) throws -> String = { db in
            let value = try request.fetch(db)
            let marker = try Int.fetchOne(db, sql: "SELECT n FROM marker")!
            // Held here, a fetch has read: a commit now makes it stale.
            fetchGate.holdIfArmed()
            return "\(value) #\(marker)"
        }
        let log = ValueLog()
        let observation = script.varyingRegion
            ? ValueObservation.tracking(fetch)
            : ValueObservation.trackingConstantRegion(fetch)
        let startObservation: @Sendable () -> ObservedValues = {
            switch (script.mapsValues, script.removeDuplicates) {
            case (false, false):
                start(observation, script, writer, log, notificationGate)
            case (true, false):
                start(observation.map(ValueObservationScript.map), script, writer, log, notificationGate)
            case (false, true):
                start(observation.removeDuplicates(), script, writer, log, notificationGate)
            case (true, true):
                start(
                    observation.map(ValueObservationScript.map).removeDuplicates(), script, writer, log,
                    notificationGate)
            }
        }
        var model = ValueObservationModel()
        var committed = [script.notifiedValue(in: model.committed)]
        let observed: ObservedValues
        var startError: (any Error)?
        if let startRace = script.startRace {
            (observed, startError) = await race(
                startObservation, with: startRace, script, in: writer, model: &model, committed: &committed,
                fetchGate: pool ? fetchGate : nil)
        } else {
            observed = await ThreadOfItsOwn(startObservation).value()
        }
        do {
            if let startError { throw startError }
            try await log.wait("the initial value") { $0.count >= 1 }
            if script.startRace != nil {
                // A stale first value must be followed by the last commit.
                let expected = committed.last!
                try await log.wait("\(expected) after the commits during start") { $0.last == expected }
            }
            for (index, step) in script.steps.enumerated() {
                var timing = step.timing
                if timing == .duringFetch && !pool { timing = .racing }
                switch timing {
                case .racing, .paced:
                    if try await run(step.transaction, in: writer, model: &model) {
                        committed.append(script.notifiedValue(in: model.committed))
                    }
                    if timing == .paced {
                        let expected = committed.last!
                        try await log.wait("\(expected) after step \(index) (paced)") { $0.last == expected }
                    }
                case .duringFetch, .duringNotification:
                    let gate = timing == .duringFetch ? fetchGate : notificationGate
                    gate.arm()
                    try await writer.write { db in
                        for operation in step.lead { try operation.run(db) }
                        try db.execute(sql: "UPDATE marker SET n = n + 1")
                    }
                    model.commitBumpingMarker(step.lead)
                    committed.append(script.notifiedValue(in: model.committed))
                    guard await gate.waitUntilHeld(timeout: Self.patience) else {
                        gate.disarm()
                        throw ObservationTimeout(
                            waitingFor: "a \(timing == .duringFetch ? "fetch" : "notification") after step \(index)"
                                + " bumped the tracked marker",
                            values: log.values)
                    }
                    let commits = try await {
                        defer { gate.release() }
                        return try await run(step.transaction, in: writer, model: &model)
                    }()
                    if commits {
                        committed.append(script.notifiedValue(in: model.committed))
                    }
                    // The commit made the held value stale: the next one
                    // must follow it.
                    let expected = committed.last!
                    try await log.wait("\(expected) after step \(index) (\(timing))") { $0.last == expected }
                }
            }
            let final = committed.last!
            try await log.wait("\(final), the state after the last commit") { $0.last == final }
        } catch {
            fetchGate.disarm()
            notificationGate.disarm()
            await observed.cancel()
            throw error
        }

        // Once cancelled, nothing is notified: not the next commit, which a
        // control observation, notified in the same serial order, sees.
        let countAtCancel = await observed.cancel()
        try await writer.write { db in try db.execute(sql: "UPDATE marker SET n = n + 1") }
        let control = ValueLog()
        let controlCancellable = ValueObservation
            .trackingConstantRegion { db in try Int.fetchOne(db, sql: "SELECT n FROM marker")! }
            .start(in: writer, scheduling: observed.scheduler, onError: control.fail) { control.append("\($0)") }
        defer { controlCancellable.cancel() }
        let marker = model.committed.marker + 1
        try await control.wait("the control observation") { $0.last == "\(marker)" }
        let observedValues = await observed.valuesOnScheduler()
        if let error = log.error { throw error }
        // Violations are thrown, so that `checkProperty` reports them even
        // when the shrunk input passes (see there).
        guard observedValues.count == countAtCancel else {
            throw Violation("notified after cancel: \(observedValues[countAtCancel...])")
        }
        let values = Array(observedValues.prefix(countAtCancel))
        guard values.first == committed[0] else {
            throw Violation("the initial value \(values.first ?? "nil") is not \(committed[0]): \(values)")
        }
        // Every value is a committed state, in commit order.
        var index = 0
        for value in values {
            guard let found = committed[index...].firstIndex(of: value) else {
                throw Violation(
                    "\(value) is not a committed state after \(committed[index]): \(values), committed: \(committed)")
            }
            index = found
        }
        if script.removeDuplicates, zip(values, values.dropFirst()).contains(where: { $0 == $1 }) {
            throw Violation("a value repeats despite removeDuplicates: \(values)")
        }
    }

    /// Starts the observation with the script's scheduler, notifying `log`;
    /// with `.immediate`, on the main actor, which the caller must not be.
    private func start<Reducer: ValueReducer>(
        _ observation: ValueObservation<Reducer>,
        _ script: ValueObservationScript,
        _ writer: any DatabaseWriter,
        _ log: ValueLog,
        _ notificationGate: Gate) -> ObservedValues
    where Reducer.Value == String
    {
        let onChange: @Sendable (String) -> Void = { value in
            notificationGate.holdIfArmed()
            log.append(value)
        }
        if script.immediate {
            let cancellable = DispatchQueue.main.sync {
                MainActor.assumeIsolated {
                    observation.start(in: writer, scheduling: .immediate, onError: log.fail, onChange: onChange)
                }
            }
            return ObservedValues(log: log, cancellable: cancellable, queue: nil)
        }
        let queue = DispatchQueue(label: "values")
        let cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: queue), onError: log.fail, onChange: onChange)
        return ObservedValues(log: log, cancellable: cancellable, queue: queue)
    }

    /// Starts the observation while `transactions` run, then a commit that
    /// bumps the marker: on a pool (`fetchGate`), while the first fetch is
    /// held after it read; on a queue, right after `start`, without waiting
    /// for the first value. Returns the observation, and the error that
    /// stopped the commits, if any.
    private func race(
        _ startObservation: @escaping @Sendable () -> ObservedValues,
        with transactions: [ScriptTransaction],
        _ script: ValueObservationScript,
        in writer: any DatabaseWriter,
        model: inout ValueObservationModel,
        committed: inout [String],
        fetchGate: Gate?) async -> (ObservedValues, (any Error)?)
    {
        func commit() async throws {
            for transaction in transactions {
                if try await run(transaction, in: writer, model: &model) {
                    committed.append(script.notifiedValue(in: model.committed))
                }
            }
            try await writer.write { db in try db.execute(sql: "UPDATE marker SET n = n + 1") }
            model.commitBumpingMarker([])
            committed.append(script.notifiedValue(in: model.committed))
        }
        guard let fetchGate else {
            let observed = await ThreadOfItsOwn(startObservation).value()
            do {
                try await commit()
                return (observed, nil)
            } catch {
                return (observed, error)
            }
        }
        fetchGate.arm()
        // With `.immediate`, `start` returns once the held fetch goes on.
        // On a thread of its own, so that the wait below times out only if
        // the first fetch doesn't come (see `ThreadOfItsOwn`).
        let starting = ThreadOfItsOwn(startObservation)
        var error: (any Error)?
        if await fetchGate.waitUntilHeld(timeout: Self.patience) {
            do {
                defer { fetchGate.release() }
                try await commit()
            } catch let commitError {
                error = commitError
            }
        } else {
            fetchGate.disarm()
            error = ObservationTimeout(waitingFor: "the first fetch, to hold it", values: [])
        }
        return (await starting.value(), error)
    }

    /// Runs a transaction of the script, and the model; true if it committed.
    private func run(
        _ transaction: ScriptTransaction,
        in writer: any DatabaseWriter,
        model: inout ValueObservationModel) async throws -> Bool
    {
        try await writer.writeWithoutTransaction { db in
            do {
                try db.inTransaction {
                    for operation in transaction.operations {
                        try operation.run(db)
                    }
                    if transaction.rollsBack { throw ScriptRollback() }
                    return .commit
                }
            } catch is ScriptRollback { }
        }
        return model.run(transaction)
    }
}

/// A value computed on a thread of its own, started at once: not on the
/// test runtime's threads, which the suite's long synchronous tests may
/// all hold for longer than the patience. A start that waited for one of
/// them could begin after the deadline of the wait for its first fetch
/// (seen: "timed out waiting for the first fetch, to hold it", under
/// load, with a seed that then passed).
private final class ThreadOfItsOwn<T: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `result` is written once, before `done` is
    // signaled, and read after.
    private var result: T?
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> T) {
        Thread {
            self.result = body()
            self.done.signal()
        }.start()
    }

    /// The result, waited for on another thread, without blocking the task's.
    func value() async -> T {
        await withCheckedContinuation { continuation in
            Thread {
                self.done.wait()
                continuation.resume(returning: self.result!)
            }.start()
        }
    }
}

/// A started observation, and where it notifies: a serial queue, or the
/// main actor (`queue` nil, the `.immediate` scheduler).
private struct ObservedValues: Sendable {
    var log: ValueLog
    var cancellable: AnyDatabaseCancellable
    var queue: DispatchQueue?

    /// A scheduler that notifies in the same serial order.
    var scheduler: AsyncValueObservationScheduler {
        .async(onQueue: queue ?? .main)
    }

    /// Cancels on the notifying queue, so that no notification runs at the
    /// same time; returns the number of values notified until then.
    @discardableResult
    func cancel() async -> Int {
        if let queue {
            return queue.sync {
                cancellable.cancel()
                return log.values.count
            }
        }
        return await MainActor.run {
            cancellable.cancel()
            return log.values.count
        }
    }

    /// The values, read after the notifications scheduled so far.
    func valuesOnScheduler() async -> [String] {
        if let queue {
            return queue.sync { log.values }
        }
        return await MainActor.run { log.values }
    }
}

/// Thrown to roll a script's transaction back.
private struct ScriptRollback: Error { }

/// Holds one thread (a fetch, a notification) once armed, until released.
private final class Gate: @unchecked Sendable {
    // @unchecked Sendable: the stored properties are only used under `lock`.
    private let lock = NSLock()
    private var isArmed = false
    private var isHeld = false
    private let released = DispatchSemaphore(value: 0)

    /// The next thread that calls `holdIfArmed` will be held.
    func arm() {
        lock.withLock {
            isArmed = true
            isHeld = false
        }
    }

    /// No thread will be held.
    func disarm() {
        lock.withLock { isArmed = false }
    }

    /// Holds the calling thread if armed, until `release()` (or a minute:
    /// a failing test must not hang the suite).
    func holdIfArmed() {
        let holds = lock.withLock {
            guard isArmed else { return false }
            isArmed = false
            isHeld = true
            return true
        }
        if holds {
            _ = released.wait(timeout: .now() + 60)
        }
    }

    func release() {
        released.signal()
    }

    /// Waits until a thread is held; false after `timeout` seconds.
    ///
    /// Checks once more after the deadline: the waiting task may resume
    /// late (the suite's synchronous tests can hold the test runtime's
    /// threads for long), when the thread has been held for a while.
    func waitUntilHeld(timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if lock.withLock({ isHeld }) { return true }
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// The values of an observation, from any thread.
private final class ValueLog: @unchecked Sendable {
    // @unchecked Sendable: the stored properties are only used under `lock`.
    private let lock = NSLock()
    private var storage: [String] = []
    private var storedError: (any Error)?

    var values: [String] { lock.withLock { storage } }
    var error: (any Error)? { lock.withLock { storedError } }

    func append(_ value: String) {
        lock.withLock { storage.append(value) }
    }

    @Sendable func fail(_ error: any Error) {
        lock.withLock { storedError = error }
    }

    /// Waits until `condition` holds or the observation fails; throws after
    /// a while (checking every millisecond: nothing to notify a waiter).
    func wait(_ what: String, until condition: ([String]) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(ValueObservationPropertyTests.patience)
        while true {
            let (values, error) = lock.withLock { (storage, storedError) }
            if let error { throw error }
            if condition(values) { return }
            if Date() > deadline { throw ObservationTimeout(waitingFor: what, values: values) }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

/// A value sequence that breaks the property.
private struct Violation: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

private struct ObservationTimeout: Error, CustomStringConvertible {
    var waitingFor: String
    var values: [String]
    var description: String { "timed out waiting for \(waitingFor); values: \(values)" }
}
