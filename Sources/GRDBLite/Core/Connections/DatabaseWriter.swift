/// A type that writes into a database: ``DatabaseQueue``,
/// ``DatabasePool``.
///
/// A writer has one connection for writes, whose accesses run one after
/// the other on its serial *writer queue*. Write generic code against it
/// to accept a queue or a pool:
///
/// ```swift
/// func addPlayer(_ writer: some DatabaseWriter, name: String) throws {
///     try writer.write { db in
///         try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name])
///     }
/// }
/// ```
///
/// Don't declare new conformances: only the built-in types are valid.
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` in a transaction on the writer queue: commits if they
    /// succeed, rolls back and rethrows if they throw. Concurrent reads
    /// never see a part of the transaction.
    ///
    /// Calling it from inside a write access of this database traps
    /// ("Database methods are not reentrant").
    ///
    /// - throws: The error of `updates`, of the commit, or the
    ///   ``DatabaseError`` that prevented the access (`SQLITE_MISUSE` after
    ///   `close()`).
    @_disfavoredOverload
    func write<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` in a transaction, without blocking the task.
    func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` on the writer queue, outside of any transaction: each
    /// statement commits on its own unless `updates` opens a transaction.
    @_disfavoredOverload
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `updates` outside of any transaction, without blocking the task.
    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` outside of any transaction once the running accesses
    /// (reads and writes) are done, and alone: no other access runs until
    /// it returns.
    @_disfavoredOverload
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Runs `updates` as `barrierWriteWithoutTransaction`
    /// does, without blocking the task.
    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Schedules `updates` as a barrier (see
    /// `barrierWriteWithoutTransaction`) and returns at once.
    /// `updates` gets the connection, or the error that prevented the access.
    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, any Error>) -> Void)

    /// Schedules `updates` on the writer queue, outside of any transaction,
    /// and returns at once.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// Runs `updates` outside of any transaction that it doesn't open, and
    /// may be called from inside a write access: `updates` then runs right
    /// away in that access (in its transaction, if any). Reentrant accesses
    /// blur transaction boundaries: prefer passing the `Database` along.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Reads the last committed state of the database as it is now,
    /// without blocking later writes if the writer can.
    ///
    /// Call it from the writer queue (inside `writeWithoutTransaction`),
    /// outside of any transaction: `value` sees the database as the last
    /// transaction left it, and none of the changes made after this call.
    /// A ``DatabasePool`` runs `value` on a reader, concurrently with the
    /// writer, and returns once the reader's transaction is open; a
    /// ``DatabaseQueue`` runs it right away, before returning.
    ///
    /// ```swift
    /// try writer.writeWithoutTransaction { db in
    ///     try db.execute(sql: "DELETE FROM player")
    ///     writer.spawnConcurrentRead { dbResult in
    ///         // Zero, whatever the writer does next.
    ///         let count = try? Int.fetchOne(dbResult.get(), sql: "SELECT COUNT(*) FROM player")
    ///     }
    ///     try db.execute(sql: "INSERT INTO player ...")
    /// }
    /// ```
    func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseWriter {
    /// Schedules `updates` in a transaction and returns at once; then
    /// calls `completion`, on the writer queue, with the connection and
    /// the result of the transaction.
    ///
    /// ```swift
    /// writer.asyncWrite({ db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    /// }, completion: { db, result in
    ///     if case .failure(let error) = result { print(error) }
    /// })
    /// ```
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, any Error>) -> Void)
    {
        asyncWriteWithoutTransaction { db in
            var result: T?
            do {
                try db.inTransaction {
                    result = try updates(db)
                    return .commit
                }
                completion(db, .success(result!))
            } catch {
                completion(db, .failure(error))
            }
        }
    }

    /// Rebuilds the database file into a minimal amount of disk space
    /// (`VACUUM`).
    @_disfavoredOverload
    public func vacuum() throws {
        try writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
    }

    /// Rebuilds the database file, without blocking the task.
    public func vacuum() async throws {
        try await writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
    }

    /// Writes a minimal copy of the database into a new file (`VACUUM
    /// INTO`).
    @_disfavoredOverload
    public func vacuum(into filePath: String) throws {
        try writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }

    /// Writes a minimal copy of the database into a new file, without
    /// blocking the task.
    public func vacuum(into filePath: String) async throws {
        try await writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }
}

/// A type-erased ``DatabaseWriter``: forwards every access to its base.
public final class AnyDatabaseWriter: DatabaseWriter {
    let base: any DatabaseWriter

    /// Wraps `base`.
    public init(_ base: any DatabaseWriter) {
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

    @_disfavoredOverload
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.write(updates)
    }

    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await base.write(updates)
    }

    @_disfavoredOverload
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.writeWithoutTransaction(updates)
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await base.writeWithoutTransaction(updates)
    }

    @_disfavoredOverload
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.barrierWriteWithoutTransaction(updates)
    }

    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws
        -> T
    {
        try await base.barrierWriteWithoutTransaction(updates)
    }

    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
    ) {
        base.asyncBarrierWriteWithoutTransaction(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        base.asyncWriteWithoutTransaction(updates)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.unsafeReentrantWrite(updates)
    }

    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        base.spawnConcurrentRead(value)
    }
}
