import Dispatch
import Foundation
import Synchronization

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
/// ``close()``.
// @unchecked Sendable: the connection is only used on `queue` (serial), and
// `isClosed` is behind a mutex.
public final class DatabaseQueue: @unchecked Sendable {
    private let db: Database
    private let queue: DispatchQueue
    private let isClosed = Mutex(false)

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
        db = try Database(path: path, description: label, configuration: configuration)
        queue = DispatchQueue(label: label)
        do {
            // `prepareDatabase` runs as an access of this queue, nested in
            // the caller's accesses, if any.
            let context = AccessContext.current
            try queue.sync { try context.run(db, of: self) { try $0.setUp() } }
        } catch {
            db.close()
            throw error
        }
    }

    /// Opens an in-memory database: private when `name` is nil, shared by
    /// the queues that open the same name otherwise.
    public convenience init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        let path = name.map { "file:\($0)?mode=memory&cache=shared" } ?? ":memory:"
        try self.init(path: path, configuration: configuration)
    }

    deinit {
        if !isClosed.withLock({ $0 }) { db.close() }
    }

    /// Closes the connection. Closing again does nothing.
    ///
    /// Accesses that come after `close()`, or wait for the queue while it
    /// closes, don't run: the methods that throw (`read`, `write`,
    /// `inTransaction`, the `async` ones) throw a ``DatabaseError`` of code
    /// `SQLITE_MISUSE`; those that only rethrow the errors of their closure
    /// (`inDatabase`, `writeWithoutTransaction`, `unsafeRead`, the
    /// `unsafeReentrant` ones) trap, as a programmer error.
    public func close() throws {
        try serialized { db in
            guard let db else { return } // closed already
            try db.rollbackIfNeeded()
            if db.isInsideTransaction {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "can't close a database inside a transaction")
            }
            // Under the lock, so that `interrupt()` never sees a closed connection.
            isClosed.withLock { isClosed in
                isClosed = true
                db.close()
            }
        }
    }

    /// Interrupts the running statement, which fails with
    /// `SQLITE_INTERRUPT`. Safe to call from any thread, and after `close()`.
    public func interrupt() {
        isClosed.withLock { isClosed in
            if !isClosed { db.interrupt() }
        }
    }

    /// Frees as much memory as possible (nothing to free after `close()`).
    public func releaseMemory() {
        serialized { $0?.releaseMemory() }
    }

    // MARK: - Access

    /// Runs `body` on the queue, with the connection, or with nil if the
    /// queue is closed. The check is made on the queue, in the same block
    /// as the access, so that a concurrent `close()` runs entirely before
    /// or after it. Traps if the calling thread is inside an access of
    /// this queue, which would deadlock.
    private func serialized<T>(_ body: (Database?) throws -> T) rethrows -> T {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: db.description)
        return try queue.sync {
            if isClosed.withLock({ $0 }) { return try body(nil) }
            return try context.run(db, of: self, body)
        }
    }

    /// Runs `body` on the queue, with the connection; traps if the queue
    /// is closed (for the methods that can't throw).
    private func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
        try serialized { db in
            guard let db else { usedAfterClose() }
            return try body(db)
        }
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
    /// this queue, on the queue otherwise.
    private func reentrantSync<T>(_ body: (Database) throws -> T) rethrows -> T {
        let context = AccessContext.current
        if context.allows(db) {
            return try context.run(db, of: self, body)
        }
        return try queue.sync {
            if isClosed.withLock({ $0 }) { usedAfterClose() }
            return try context.run(db, of: self, body)
        }
    }

    private func usedAfterClose() -> Never {
        fatalError("""
            \(db.description) was used after close(): don't access a database queue once it is \
            closed (`read`, `write` and `inTransaction` throw SQLITE_MISUSE then; `inDatabase`, \
            `writeWithoutTransaction` and `unsafe` accesses can't, and trap).
            """)
    }

    /// Runs `body` on the queue without blocking the caller, in a context
    /// of its own; throws `SQLITE_MISUSE` if the queue is closed when
    /// `body` would start.
    private func async<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            // The closure must be released before the caller resumes.
            let box = ClosureBox(body)
            return try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    let result = { () -> Result<T, any Error> in
                        let body = box.take()
                        if self.isClosed.withLock({ $0 }) { return .failure(DatabaseError.connectionIsClosed()) }
                        return Result { try AccessContext.none.run(self.db, of: self, body) }
                    }()
                    continuation.resume(with: result)
                }
            }
        }
    }

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

    /// Runs `updates` with the connection, outside of any transaction
    /// (same as ``writeWithoutTransaction(_:)-8jvdn``).
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
    ///   ``Configuration/defaultTransactionKind``.
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try throwingSync { db in try db.inTransaction(kind) { try updates(db) } }
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

/// Moves a closure into a `@Sendable` dispatch block, and out of it.
// @unchecked Sendable: the value is set before the block is enqueued and
// taken once inside it; the dispatch queue orders the two.
private final class ClosureBox<T>: @unchecked Sendable {
    private var value: T?
    init(_ value: T) { self.value = value }
    func take() -> T {
        defer { value = nil }
        return value!
    }
}
