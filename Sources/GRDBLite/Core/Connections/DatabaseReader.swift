/// A type that reads from a database: ``DatabaseQueue``, ``DatabasePool``,
/// ``DatabaseSnapshot``, ``DatabaseSnapshotPool``.
///
/// Write generic code against it to accept any of them:
///
/// ```swift
/// func playerCount(_ reader: some DatabaseReader) throws -> Int {
///     try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
/// }
/// ```
///
/// A read runs in a read-only transaction: it sees one state of the
/// database, whole, until it ends, and its writes fail with
/// `SQLITE_READONLY`. Don't declare new conformances: only the built-in
/// types are valid.
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the database.
    var configuration: Configuration { get }

    /// The path of the database (`:memory:` for a private in-memory one).
    var path: String { get }

    /// Closes the database connections. Closing again does nothing.
    ///
    /// Afterwards, the accesses that can throw throw a ``DatabaseError`` of
    /// code `SQLITE_MISUSE`; the others trap.
    ///
    /// - throws: `SQLITE_MISUSE` if a transaction is open; the database
    ///   is then still open.
    func close() throws

    /// Makes the running statements fail with `SQLITE_INTERRUPT`, from any
    /// thread. Statements started later run normally.
    func interrupt()

    /// Runs `value` in a read-only transaction and returns its result.
    ///
    /// Calling it from inside an access of this database that would wait
    /// for itself traps ("Database methods are not reentrant").
    ///
    /// - throws: The error of `value`, or the ``DatabaseError`` that
    ///   prevented the access (`SQLITE_MISUSE` after `close()`).
    @_disfavoredOverload
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` in a read-only transaction, without blocking the task.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Schedules `value` in a read-only transaction and returns at once.
    /// `value` gets the connection, or the error that prevented the access.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Runs `value` with a connection, outside of any transaction and
    /// without the read-only guarantee: two requests may see different
    /// states, and writes may succeed.
    @_disfavoredOverload
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` as `unsafeRead` does, without
    /// blocking the task.
    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Schedules `value` as `unsafeRead` does, and returns
    /// at once.
    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Runs `value` as `unsafeRead` does, and may be
    /// called from inside an access of this database: `value` then runs
    /// right away with the connection of that access (in its transaction,
    /// if any).
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T
}

/// A type-erased ``DatabaseReader``: forwards every access to its base.
public final class AnyDatabaseReader: DatabaseReader {
    let base: any DatabaseReader

    /// Wraps `base`.
    public init(_ base: any DatabaseReader) {
        self.base = base
    }

    public var configuration: Configuration { base.configuration }
    public var path: String { base.path }
    public func close() throws { try base.close() }
    public func interrupt() { base.interrupt() }

    @_disfavoredOverload
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try base.read(value)
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncRead(value)
    }

    @_disfavoredOverload
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeRead(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }
}

/// A ``DatabaseReader`` that always sees the same state of the database:
/// ``DatabaseSnapshot``, ``DatabaseSnapshotPool``. Its unsafe reads are
/// as safe as its reads.
public protocol DatabaseSnapshotReader: DatabaseReader { }

extension DatabaseSnapshotReader {
    /// Runs `value` and returns its result; may be called from inside an
    /// access of this snapshot, whose connection `value` then gets.
    public func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try unsafeReentrantRead(value)
    }

    /// The same as `read`: a snapshot never changes, so no read of it is
    /// unsafe.
    @_disfavoredOverload
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try read(value)
    }

    /// The same as `asyncRead`: a snapshot never changes.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncRead(value)
    }
}
