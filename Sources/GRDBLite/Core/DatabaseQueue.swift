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
/// method from inside another one (`write` in `write`) is a programmer
/// error that traps with a message, instead of deadlocking. The connection
/// closes when the queue is deallocated.
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
        queue.setSpecific(key: DatabaseQueue.accessKey, value: ObjectIdentifier(db))
        do {
            try queue.sync { try db.withAccess { try $0.setUp() } }
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

    /// Closes the connection. Later accesses are programmer errors; closing
    /// again does nothing.
    public func close() throws {
        preconditionNotReentrant()
        try queue.sync {
            if isClosed.withLock({ $0 }) { return }
            try db.withAccess { db in
                try db.rollbackIfNeeded()
                if db.isInsideTransaction {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "can't close a database inside a transaction")
                }
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

    /// Frees as much memory as possible.
    public func releaseMemory() {
        inDatabase { $0.releaseMemory() }
    }

    // MARK: - Access

    private static let accessKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Traps when called from one of the queue's own access blocks, which
    /// would deadlock.
    private func preconditionNotReentrant() {
        if DispatchQueue.getSpecific(key: DatabaseQueue.accessKey) == ObjectIdentifier(db) {
            fatalError("""
                Database methods are not reentrant: \(db.description) was accessed from inside \
                one of its own access blocks (a `write` inside a `write`, for example). Use the \
                `Database` you already have, or `db.inSavepoint` for a nested transaction.
                """)
        }
    }

    /// Runs `body` on the queue, with the connection.
    private func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
        preconditionNotReentrant()
        precondition(!isClosed.withLock { $0 }, "\(db.description) was used after close()")
        return try queue.sync {
            try db.withAccess(body)
        }
    }

    /// Runs `body` on the queue without blocking the caller.
    private func async<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        precondition(!isClosed.withLock { $0 }, "\(db.description) was used after close()")
        return try await withoutActuallyEscaping(body) { body in
            // The closure must be released before the caller resumes.
            let box = ClosureBox(body)
            return try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    let result = { () -> Result<T, any Error> in
                        let body = box.take()
                        return Result { try self.db.withAccess(body) }
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
        try sync { db in try db.isolated(readOnly: true) { try value(db) } }
    }

    /// Runs `value` in a read-only transaction, without blocking.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await async { db in try db.isolated(readOnly: true) { try value(db) } }
    }

    /// Runs `updates` in a transaction: commits if they succeed, rolls
    /// back and rethrows if they throw.
    @_disfavoredOverload
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try sync { db in try db.isolated(readOnly: false) { try updates(db) } }
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
        try sync { db in try db.inTransaction(kind) { try updates(db) } }
    }
}

/// Moves a closure into a `@Sendable` dispatch block, and out of it.
private final class ClosureBox<T>: @unchecked Sendable {
    private var value: T?
    init(_ value: T) { self.value = value }
    func take() -> T {
        defer { value = nil }
        return value!
    }
}
