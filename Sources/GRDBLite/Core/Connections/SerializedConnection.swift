import Dispatch
import Synchronization

/// One SQLite connection and the serial dispatch queue that runs its
/// accesses: a ``DatabaseQueue`` is one, a ``DatabasePool`` has one for
/// its writer and one per reader, a ``DatabaseSnapshot`` one.
///
/// The accesses run as accesses of an *owner*, the database the user
/// called (see `AccessContext`). A closed connection gives its accesses
/// nil instead of the `Database`: each caller decides whether that throws
/// or traps.
// @unchecked Sendable: `db` is only used on `queue` (serial), or after
// `close()` never; `closed` is behind a mutex.
final class SerializedConnection: @unchecked Sendable {
    let db: Database
    let queue: DispatchQueue
    private let closed = Mutex(false)

    /// Opens the connection; ``setUp(owner:)`` then applies the
    /// configuration.
    init(path: String, description: String, configuration: Configuration) throws {
        db = try Database(path: path, description: description, configuration: configuration)
        queue = DispatchQueue(label: description)
    }

    deinit {
        closeIfNeeded()
    }

    /// Applies the configuration (`prepareDatabase` included) as an access
    /// of `owner`, nested in the caller's accesses; closes the connection
    /// if it fails.
    func setUp(owner: AnyObject) throws {
        do {
            try sync(AccessContext.current, owner: owner) { db in try db!.setUp() }
        } catch {
            closeIfNeeded()
            throw error
        }
    }

    var isClosed: Bool { closed.withLock { $0 } }

    // MARK: - Accesses

    /// Runs `body` on the queue, within `context`: with the connection, or
    /// nil if it is closed. The closed check runs in the same block as the
    /// access, so that a concurrent `close()` runs entirely before or
    /// after it.
    func sync<T>(_ context: AccessContext, owner: AnyObject, _ body: (Database?) throws -> T) rethrows -> T {
        try queue.sync {
            if isClosed { return try body(nil) }
            return try context.run(db, of: owner, body)
        }
    }

    /// Runs `body` right away if `context` is an access of this connection,
    /// on the queue otherwise.
    func reentrantSync<T>(_ context: AccessContext, owner: AnyObject, _ body: (Database?) throws -> T) rethrows -> T {
        if context.allows(db) {
            return try context.run(db, of: owner, body)
        }
        return try sync(context, owner: owner, body)
    }

    /// Runs `body` on the queue without blocking the caller, in a context
    /// of its own.
    func async(owner: AnyObject, _ body: @escaping @Sendable (Database?) -> Void) {
        // unsafe: the owner only crosses to the queue to identify the access.
        let owner = UncheckedSendable(owner)
        queue.async {
            if self.isClosed { return body(nil) }
            AccessContext.none.run(self.db, of: owner.value, body)
        }
    }

    /// Runs `body` on the queue, in a context of its own, and returns its
    /// result to the awaiting task; throws `SQLITE_MISUSE` if the
    /// connection is closed.
    func execute<T: Sendable>(owner: AnyObject, _ body: @Sendable (Database) throws -> T) async throws -> T {
        // unsafe: the owner only crosses to the queue to identify the access.
        let owner = UncheckedSendable(owner)
        return try await awaitAccess({ [self] callback in
            async(owner: owner.value) { db in callback(db.map { .success($0) } ?? .failure(DatabaseError.connectionIsClosed())) }
        }, body)
    }

    // MARK: - Closing

    /// Closes the connection, on its queue, unless a transaction is open.
    /// Closing again does nothing.
    func close(_ context: AccessContext, owner: AnyObject) throws {
        try sync(context, owner: owner) { db in
            guard let db else { return }
            try db.rollbackIfNeeded()
            if db.isInsideTransaction {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "can't close a database inside a transaction")
            }
            closeIfNeeded()
        }
    }

    /// Closes the connection now: on its queue, or when no access can run.
    func closeIfNeeded() {
        // Under the lock, so that `interrupt()` never sees a closed connection.
        closed.withLock { closed in
            if closed { return }
            closed = true
            db.close()
        }
    }

    /// Interrupts the running statement, from any thread.
    func interrupt() {
        closed.withLock { closed in
            if !closed { db.interrupt() }
        }
    }
}

/// A value that crosses to another thread although its type is not
/// `Sendable`: each use says why that is safe.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
