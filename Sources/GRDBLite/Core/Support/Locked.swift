import Foundation

/// A value shared between threads, behind a lock: GRDBLite's lock type,
/// but for `TableAliasBase`, whose lock must not allocate (see there).
/// (NSLock, a pthread mutex, rather than `Synchronization.Mutex`: on Linux,
/// a contended `Mutex` waits in the toolchain's uninstrumented futex code,
/// so Thread Sanitizer misses its synchronization and reports races that
/// aren't; it intercepts pthread mutexes.) Counters use `Atomic`.
// @unchecked Sendable: `value` is only used under `lock`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock. `body` must not call
    /// out to code that could take the lock again.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
