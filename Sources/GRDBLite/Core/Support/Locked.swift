#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value shared between threads, behind a lock: GRDBLite's one lock
/// type. Counters use `Atomic`; `ReaderPool` waits on an `NSCondition`
/// (a pthread condition variable, which it needs to wait for a reader).
///
/// It costs one allocation: the value and its mutex live together in one
/// `ManagedBuffer` (see `LockedStorage`). The mutex is a pthread mutex
/// rather than a `Synchronization.Mutex`: on Linux, a contended `Mutex`
/// waits in the toolchain's uninstrumented futex code, so Thread Sanitizer
/// misses its synchronization and reports races that aren't, while it
/// intercepts pthread mutexes. Copies share the value and its lock.
// @unchecked Sendable: the value is only used under the lock.
struct Locked<Value>: @unchecked Sendable {
    private let storage: LockedStorage<Value>

    init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    /// Runs `body` with the value, under the lock. `body` must not call
    /// out to code that could take the lock again.
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try storage.withLock(body)
    }
}

/// The storage of a ``Locked``: the value in the header of the buffer, and
/// the mutex in its one element. The buffer is a heap object that never
/// moves, so the mutex keeps the address it was initialized at, as POSIX
/// requires (a stored property of a class has no such guarantee).
private final class LockedStorage<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value) -> LockedStorage {
        // unsafe: `create` returns an instance of the class it is called on.
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in value }, to: LockedStorage.self)
        // unsafe: the one element, allocated by `create`, initialized here.
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let code = pthread_mutex_init(mutex, nil)
            precondition(code == 0, "pthread_mutex_init failed: \(code)")
        }
        return storage
    }

    deinit {
        // unsafe: the mutex, initialized by `make`, destroyed once.
        withUnsafeMutablePointerToElements { mutex in
            let code = pthread_mutex_destroy(mutex)
            precondition(code == 0, "pthread_mutex_destroy failed: \(code)")
            mutex.deinitialize(count: 1)
        }
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        // unsafe: the pointers don't escape; the buffer is alive (self).
        try withUnsafeMutablePointers { value, mutex in
            let code = pthread_mutex_lock(mutex)
            precondition(code == 0, "pthread_mutex_lock failed: \(code)")
            defer {
                let code = pthread_mutex_unlock(mutex)
                precondition(code == 0, "pthread_mutex_unlock failed: \(code)")
            }
            return try body(&value.pointee)
        }
    }
}
