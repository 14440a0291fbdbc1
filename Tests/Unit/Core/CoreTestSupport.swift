import Foundation
import Synchronization

/// Collects values from any thread, in order.
final class CoreRecorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    init() { }

    func append(_ value: Value) {
        storage.withLock { $0.append(value) }
    }

    var values: [Value] {
        storage.withLock { $0 }
    }

    var count: Int {
        storage.withLock { $0.count }
    }
}

/// An error thrown by test code.
struct CoreTestError: Error, Equatable, CustomStringConvertible {
    var message = "test error"
    var description: String { message }
}

/// The error thrown by `body`, if any: for checks inside the closure of an
/// `#expect(throws:)`, which can't contain another one.
func coreThrownError(_ body: () throws -> Void) -> (any Error)? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}
