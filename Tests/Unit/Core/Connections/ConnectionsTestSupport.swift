import Dispatch
import Foundation
import GRDBLite
import Testing
import TestSupport

/// The database writers that the parameterized tests run on.
enum WriterKind: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
    case queue, pool

    var testDescription: String { rawValue }

    /// A writer on a new file of `directory`.
    func make(_ directory: TemporaryDirectory, configuration: Configuration = Configuration()) throws
        -> any DatabaseWriter
    {
        let path = directory.path("\(rawValue)-\(UUID().uuidString).sqlite")
        switch self {
        case .queue: return try DatabaseQueue(path: path, configuration: configuration)
        case .pool: return try DatabasePool(path: path, configuration: configuration)
        }
    }
}

/// A failure of a test step that runs away from the test's task (on a
/// thread of its own, in a database access): the test rethrows it.
struct StepFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// How long a test waits for a semaphore before it fails instead of
/// hanging: long, since it only expires when something is wrong. Under the
/// sanitizers, the property suites can hold both cooperative threads of a
/// 2-core machine for more than a minute, and tasks wait for them.
let stepTimeout: TimeInterval = 300

extension DispatchSemaphore {
    /// Waits for a signal; throws if none comes within `stepTimeout`.
    func waitOrThrow(_ what: String = "a signal") throws {
        if wait(timeout: .now() + stepTimeout) == .timedOut {
            throw StepFailure("timed out waiting for \(what)")
        }
    }
}

/// Blocks until `condition` holds, checking it every millisecond; throws
/// after `stepTimeout`. For states nothing signals (a barrier waiting).
func blockUntil(_ what: String, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(stepTimeout)
    while !condition() {
        if Date() > deadline { throw StepFailure("timed out waiting until \(what)") }
        usleep(1_000)
    }
}

/// Runs each block on a thread of its own, all at once, and waits for
/// them all: the first error any of them throws is rethrown. Blocks
/// synchronize with semaphores (and `waitOrThrow`): each must be able to
/// run while the others wait, which threads guarantee and dispatch
/// queues on 2 cores don't.
func runOnThreads(_ blocks: [@Sendable () throws -> Void]) throws {
    let errors = LockedValue<[any Error]>([])
    let done = DispatchSemaphore(value: 0)
    for block in blocks {
        let thread = Thread {
            do {
                try block()
            } catch {
                errors.update { $0.append(error) }
            }
            done.signal()
        }
        thread.start()
    }
    for index in blocks.indices {
        try done.waitOrThrow("block \(index) to finish")
    }
    if let error = errors.value.first { throw error }
}

/// Runs `body` on a thread of its own, for the tests whose choreography
/// blocks on semaphores (which must not block the tasks' cooperative
/// threads).
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// A value shared between threads. (An NSLock rather than a `Mutex`:
/// Thread Sanitizer does not see the synchronization of
/// `Synchronization.Mutex` on Linux.)
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    var value: Value {
        lock.withLock { storage }
    }

    func update<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }
}

/// Throws a `StepFailure` unless `condition` holds: for checks away from
/// the test's task.
func check(_ condition: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    if !condition { throw StepFailure("\(message()) (\(sourceLocation))") }
}

/// Runs `body`, a synchronous closure: inside it, the synchronous
/// overloads of `read` and `write` are chosen, even in an `async` test.
func blocking<T>(_ body: () throws -> T) rethrows -> T {
    try body()
}
