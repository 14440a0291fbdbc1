import Foundation
import GRDBLite
import Testing

// Shared by the reliability tests of this target (the rest is in
// Tests/TestSupport, shared with Tests/Reliability).

/// Catches the error of `body`, which must be a `DatabaseError`.
func databaseError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> DatabaseError? {
    do {
        try body()
        Issue.record("expected a DatabaseError, got no error", sourceLocation: sourceLocation)
        return nil
    } catch let error as DatabaseError {
        return error
    } catch {
        Issue.record("expected a DatabaseError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A value shared between threads and tasks. (An NSLock rather than a
/// `Mutex`: Thread Sanitizer does not see the synchronization of
/// `Synchronization.Mutex` on Linux, and reports false races.)
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value

    init(_ value: Value) {
        _value = value
    }

    var value: Value {
        lock.withLock { _value }
    }

    func update<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&_value) }
    }
}
