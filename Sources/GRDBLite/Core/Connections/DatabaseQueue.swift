import Dispatch
import Foundation

/// A serial access to one SQLite connection: a file, or an in-memory
/// database.
///
/// ```swift
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite") // created when missing
/// let memory = try DatabaseQueue()                              // private, in memory
///
/// try dbQueue.write { db in                  // a transaction
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try dbQueue.read { db in       // read-only
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// let names = try await dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
/// ```
///
/// All accesses run one after the other, from any thread or task. The
/// `Database` given to a closure is valid only inside it. Calling an access
/// method from inside another one (`write` in `write`, also through the
/// access of another database: `a.write { b.write { a.read { } } }`) is a
/// programmer error that traps with a message, instead of deadlocking;
/// ``unsafeReentrantWrite(_:)`` and ``unsafeReentrantRead(_:)`` allow it.
/// The connection closes when the queue is deallocated, or with
/// ``close()``. For reads that run in parallel with each other and with
/// writes, use a ``DatabasePool``.
public final class DatabaseQueue: Sendable {
    private let connection: SerializedConnection
    private var db: Database { connection.db }
    /// Suspends the connection on ``Database/suspendNotification``, with
    /// ``Configuration/observesSuspensionNotifications``.
    private let suspensionObserver: SuspensionObserver?

    /// The configuration of the connection.
    public var configuration: Configuration { db.configuration }
    /// The path of the database (`:memory:` for a private in-memory database).
    public var path: String { db.path }

    /// Opens the database at `path`, creating the file if needed.
    ///
    /// - throws: A ``DatabaseError`` if the file can't be opened or is not a
    ///   database, or if `prepareDatabase` throws.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        let label = configuration.label ?? "GRDBLite.DatabaseQueue"
        let connection = try SerializedConnection(path: path, description: label, configuration: configuration)
        self.connection = connection
        suspensionObserver = SuspensionObserver(
            configuration,
            suspend: { [weak connection] in connection?.suspend() },
            resume: { [weak connection] in connection?.resume() })
        // `prepareDatabase` runs as an access of this queue, nested in the
        // caller's accesses, if any.
        try connection.setUp(owner: self)
    }

    /// Opens an in-memory database: private when `name` is nil, shared by
    /// the queues that open the same name otherwise.
    public convenience init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        let path = name.map { "file:\($0)?mode=memory&cache=shared" } ?? ":memory:"
        try self.init(path: path, configuration: configuration)
    }

    /// Closes the connection. Closing again does nothing.
    ///
    /// Accesses that come after `close()`, or wait for the queue while it
    /// closes, fail with a ``DatabaseError`` of code `SQLITE_MISUSE`
    /// ("Connection is closed"): the methods that throw (`read`, `write`,
    /// `inTransaction`, the `async` and `Result` ones) throw it or give it
    /// without running their closure; those that only rethrow the errors
    /// of their closure (`inDatabase`, `writeWithoutTransaction`,
    /// `unsafeRead`, the `unsafeReentrant` ones,
    /// `asyncWriteWithoutTransaction`) run it, and every statement it runs
    /// throws.
    ///
    /// - throws: `SQLITE_BUSY` if statements of the connection are still
    ///   alive (each is logged through ``Database/logError``), and
    ///   `SQLITE_MISUSE` inside a transaction: the queue then stays open.
    public func close() throws {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: db.description)
        try connection.close(context, owner: self)
    }

    /// Interrupts the running statement, which fails with
    /// `SQLITE_INTERRUPT`. Safe to call from any thread, and after `close()`.
    public func interrupt() {
        connection.interrupt()
    }

    /// Suspends the connection (see ``Database/suspendNotification``).
    func suspend() {
        connection.suspend()
    }

    /// Resumes the connection (see ``Database/resumeNotification``).
    func resume() {
        connection.resume()
    }

    /// Frees as much memory as possible (nothing to free after `close()`).
    public func releaseMemory() {
        serialized { $0?.releaseMemory() }
    }

    // MARK: - Access

    /// Runs `body` on the queue, with the connection, or with nil if the
    /// queue is closed. Traps if the calling thread is inside an access of
    /// this queue, which would deadlock.
    private func serialized<T>(_ body: (Database?) throws -> T) rethrows -> T {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: db.description)
        return try connection.sync(context, owner: self, body)
    }

    /// Runs `body` on the queue, with the connection, even if the queue is
    /// closed: its statements then throw `SQLITE_MISUSE` (for the methods
    /// that only rethrow the errors of `body`). Traps if the calling thread
    /// is inside an access of this queue, which would deadlock.
    private func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: db.description)
        return try connection.syncEvenIfClosed(context, owner: self, body)
    }

    /// Runs `body` on the queue, with the connection; throws
    /// `SQLITE_MISUSE` if the queue is closed.
    private func throwingSync<T>(_ body: (Database) throws -> T) throws -> T {
        try serialized { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            return try body(db)
        }
    }

    /// Runs `body` directly if the calling thread is inside an access of
    /// this queue, on the queue otherwise; with the connection even if the
    /// queue is closed.
    private func reentrantSync<T>(_ body: (Database) throws -> T) rethrows -> T {
        try connection.reentrantSyncEvenIfClosed(AccessContext.current, owner: self, body)
    }

    /// Runs `body` on the queue without blocking the caller, in a context
    /// of its own; throws `SQLITE_MISUSE` if the queue is closed when
    /// `body` would start.
    private func async<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await connection.execute(owner: self, body)
    }

    /// Schedules `body` on the queue, with the connection or the error
    /// that prevents the access.
    private func asyncResult(_ body: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        connection.async(owner: self) { db in
            body(db.map { .success($0) } ?? .failure(DatabaseError.connectionIsClosed()))
        }
    }

    // MARK: - Reading

    /// Runs `value` in a read-only transaction: writes fail with
    /// `SQLITE_READONLY`.
    @_disfavoredOverload
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try throwingSync { db in try db.isolated(readOnly: true) { try value(db) } }
    }

    /// Runs `value` in a read-only transaction, without blocking.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await async { db in try db.isolated(readOnly: true) { try value(db) } }
    }

    /// Schedules `value` in a read-only transaction, on the queue, and
    /// returns at once.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncResult { dbResult in
            guard case .success(let db) = dbResult else { return value(dbResult) }
            db.readInTransaction(readOnly: true, value)
        }
    }

    // MARK: - Writing

    /// Runs `updates` in a transaction: commits if they succeed, rolls
    /// back and rethrows if they throw.
    @_disfavoredOverload
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try throwingSync { db in try db.isolated(readOnly: false) { try updates(db) } }
    }

    /// Runs `updates` in a transaction, without blocking.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await async { db in try db.isolated(readOnly: false) { try updates(db) } }
    }

    /// Runs `updates` outside of any transaction: each statement commits on
    /// its own unless `updates` opens a transaction.
    @_disfavoredOverload
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try sync(updates)
    }

    /// Runs `updates` outside of any transaction, without blocking.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await async(updates)
    }

    /// Schedules `updates` outside of any transaction, on the queue, and
    /// returns at once.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        connection.asyncEvenIfClosed(owner: self, updates)
    }

    /// Runs `updates` outside of any transaction: the same as
    /// `writeWithoutTransaction(_:)`, since all the accesses of
    /// a queue run one after the other; but it throws `SQLITE_MISUSE` after
    /// `close()`.
    @_disfavoredOverload
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try throwingSync(updates)
    }

    /// Runs `updates` outside of any transaction, without blocking.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws
        -> T
    {
        try await async(updates)
    }

    /// Schedules `updates` outside of any transaction, on the queue, and
    /// returns at once.
    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
    ) {
        asyncResult(updates)
    }

    /// Runs `updates` with the connection, outside of any transaction
    /// (same as `writeWithoutTransaction`).
    public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try sync(updates)
    }

    /// Runs `updates` in a transaction that they commit or roll back.
    ///
    /// ```swift
    /// try dbQueue.inTransaction { db in
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    ///
    /// - parameter kind: The kind of transaction; by default
    ///   IMMEDIATE.
    /// - parameter updates: Returns `.commit` or `.rollback`.
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try throwingSync { db in try db.inTransaction(kind) { try updates(db) } }
    }

    /// Calls `value` right away, in a read-only transaction that sees the
    /// last commit. Call it from inside a `writeWithoutTransaction` access
    /// of this queue, outside of any transaction; it traps otherwise.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let context = AccessContext.current
        guard context.allows(db) else {
            fatalError(
                "spawnConcurrentRead must be called from inside a write access of \(db.description) (writeWithoutTransaction)"
            )
        }
        guard !db.isInsideTransaction else {
            fatalError("""
                spawnConcurrentRead must not be called from inside a transaction: \
                use writeWithoutTransaction, and call it after the transaction ends
                """)
        }
        context.run(db, of: self) { db in db.readInTransaction(readOnly: true, value) }
    }

    // MARK: - Observation

    /// See ``ObservationWriter``.
    func observationWriterSync<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.reentrantSync(AccessContext.current, owner: self) { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            return try body(db)
        }
    }

    /// See ``ObservationWriter``.
    func observationWriterAsync(_ body: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncResult(body)
    }

    // MARK: - Unsafe accesses

    /// Runs `value` with the connection, outside of any transaction and
    /// without the read-only guarantee of `read`: GRDB's
    /// `unsafeRead`.
    @_disfavoredOverload
    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try sync(value)
    }

    /// Runs `value` outside of any transaction, without blocking.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await async(value)
    }

    /// Schedules `value` outside of any transaction, on the queue, and
    /// returns at once.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncResult(value)
    }

    /// Runs `value` as `unsafeRead` does, and may be called
    /// from inside an access of this queue: `value` then runs right away
    /// in that access (in its transaction, if any).
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try dbQueue.unsafeReentrantRead { db in ... } // the same `db`
    /// }
    /// ```
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try reentrantSync(value)
    }

    /// Runs `updates` outside of any transaction that it doesn't open, and
    /// may be called from inside an access of this queue: `updates` then
    /// runs right away in that access (in its transaction, if any).
    ///
    /// Reentrant accesses blur transaction boundaries: prefer passing the
    /// `Database` along.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try reentrantSync(updates)
    }
}

extension DatabaseQueue: DatabaseWriter { }
