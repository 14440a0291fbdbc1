import Dispatch

/// One SQLite connection and the serial dispatch queue that runs its
/// accesses: a ``DatabaseQueue`` is one, a ``DatabasePool`` has one for
/// its writer and one per reader, a ``DatabaseSnapshot`` one.
///
/// The accesses run as accesses of an *owner*, the database the user
/// called (see `AccessContext`). A closed connection gives its accesses
/// nil instead of the `Database`, so that the caller throws; or, for the
/// accesses that can't throw by themselves (`inDatabase`...), the closed
/// `Database`, whose statements throw `SQLITE_MISUSE`.
// @unchecked Sendable: `db` is only used on `queue` (serial); after
// `close()` it touches no SQLite handle; `closed` is behind a mutex.
final class SerializedConnection: @unchecked Sendable {
    let db: Database
    let queue: DispatchQueue
    private let closed = Locked(false)

    /// Opens the connection; ``setUp(owner:)`` then applies the
    /// configuration.
    init(path: String, description: String, configuration: Configuration) throws {
        db = try Database(path: path, description: description, configuration: configuration)
        queue = configuration.makeDispatchQueue(label: description)
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
            defer { checkNoTransactionLeftOpen() }
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

    /// Runs `body` on the queue, within `context`, with the connection
    /// even if it is closed: its statements then throw `SQLITE_MISUSE`, as
    /// in GRDB (for the accesses that only rethrow the errors of their
    /// closure).
    func syncEvenIfClosed<T>(_ context: AccessContext, owner: AnyObject, _ body: (Database) throws -> T) rethrows -> T {
        try queue.sync {
            defer { checkNoTransactionLeftOpen() }
            return try context.run(db, of: owner, body)
        }
    }

    /// Runs `body` right away if `context` is an access of this connection,
    /// on the queue otherwise; with the connection even if it is closed.
    func reentrantSyncEvenIfClosed<T>(_ context: AccessContext, owner: AnyObject, _ body: (Database) throws -> T)
        rethrows -> T
    {
        if context.allows(db) {
            return try context.run(db, of: owner, body)
        }
        return try syncEvenIfClosed(context, owner: owner, body)
    }

    /// Runs `body` on the queue without blocking the caller, in a context
    /// of its own.
    func async(owner: AnyObject, _ body: @escaping @Sendable (Database?) -> Void) {
        async(owner: owner, body, then: { _ in })
    }

    /// Runs `body` on the queue without blocking the caller, in a context
    /// of its own, then `then` with its result once the access has ended
    /// (on the queue): a pool gives a reader back there, and not sooner, so
    /// that nobody closes it while the access ends.
    func async<T>(
        owner: AnyObject,
        _ body: @escaping @Sendable (Database?) -> T,
        then: @escaping @Sendable (T) -> Void)
    {
        // unsafe: the owner only crosses to the queue to identify the access.
        let owner = UncheckedSendable(owner)
        queue.async {
            if self.isClosed { return then(body(nil)) }
            let result = AccessContext.none.run(self.db, of: owner.value, body)
            self.checkNoTransactionLeftOpen()
            then(result)
        }
    }

    /// Runs `body` on the queue without blocking the caller, in a context
    /// of its own, with the connection even if it is closed.
    func asyncEvenIfClosed(owner: AnyObject, _ body: @escaping @Sendable (Database) -> Void) {
        // unsafe: the owner only crosses to the queue to identify the access.
        let owner = UncheckedSendable(owner)
        queue.async {
            AccessContext.none.run(self.db, of: owner.value, body)
            self.checkNoTransactionLeftOpen()
        }
    }

    /// Runs `body` on the queue, in a context of its own, and returns its
    /// result to the awaiting task; throws `SQLITE_MISUSE` if the
    /// connection is closed.
    func execute<T: Sendable>(owner: AnyObject, _ body: @Sendable (Database) throws -> T) async throws -> T {
        // unsafe: the owner only crosses to the queue to identify the access.
        let owner = UncheckedSendable(owner)
        return try await awaitAccess({ [self] callback in
                async(owner: owner.value) { db in
                    callback(db.map { .success($0) } ?? .failure(DatabaseError.connectionIsClosed()))
                }
        }, body)
    }

    /// Traps if an access left a transaction open, unless
    /// ``Configuration/allowsUnsafeTransactions`` (as GRDB: the next access
    /// would run in it, unaware). A transaction whose rollback failed (out
    /// of memory) is not the access's fault: it is rolled back before the
    /// next statement.
    private func checkNoTransactionLeftOpen() {
        if !db.configuration.allowsUnsafeTransactions && !db.needsRollback && db.isInsideTransaction {
            fatalError("""
                A transaction has been left opened at the end of a database access of \(db.description): \
                commit or roll it back before the access returns, or set Configuration.allowsUnsafeTransactions
                """)
        }
    }

    // MARK: - Closing

    /// Closes the connection, on its queue, unless a transaction is open
    /// (`SQLITE_MISUSE`) or statements it prepared are still alive
    /// (`SQLITE_BUSY`): then it stays open. Closing again does nothing.
    func close(_ context: AccessContext, owner: AnyObject) throws {
        // Not `sync`: a transaction left open is an error here, not a trap.
        try queue.sync {
            if isClosed { return }
            try context.run(db, of: owner) { db in
                try db.rollbackIfNeeded()
                if db.isInsideTransaction {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE, message: "can't close a database inside a transaction")
                }
                try closeNow()
            }
        }
    }

    /// Closes the connection with `sqlite3_close`, which fails and leaves
    /// it open while statements it prepared are alive. Call it on the queue,
    /// or when no access can run.
    func closeNow() throws {
        // Under the lock, so that `interrupt()` never sees a closed connection.
        try closed.withLock { (closed: inout Bool) throws(any Error) in
            if closed { return }
            try db.close()
            closed = true
        }
    }

    /// Closes the connection now, even if statements it prepared are alive
    /// (SQLite frees it when they are finalized): on its queue, or when no
    /// access can run.
    func closeIfNeeded() {
        closed.withLock { closed in
            if closed { return }
            closed = true
            db.closeEventually()
        }
    }

    /// Interrupts the running statement, from any thread.
    func interrupt() {
        closed.withLock { closed in
            if !closed { db.interrupt() }
        }
    }

    /// Suspends the connection, from any thread, unless it is closed.
    func suspend() {
        closed.withLock { closed in
            if !closed { db.suspend() }
        }
    }

    /// Resumes the connection, from any thread.
    func resume() {
        db.resume()
    }
}

/// A value that crosses to another thread although its type is not
/// `Sendable`: each use says why that is safe.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
