import Dispatch
import Foundation
import Synchronization

/// A database file in WAL mode with one writer connection and several
/// reader connections: reads run in parallel with each other and with the
/// writes, and never wait for them.
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/db.sqlite")
///
/// try dbPool.write { db in                   // a transaction, on the writer
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// let count = try dbPool.read { db in        // a read transaction, on a reader
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// ```
///
/// Writes run one after the other on the writer. A read runs in a read
/// transaction on one of the readers, opened on demand up to
/// ``Configuration/maximumReaderCount``: it sees the database as the last
/// commit before it started left it, whole, until it ends, whatever the
/// writer does meanwhile. A ``DatabasePool`` offers everything a
/// ``DatabaseQueue`` does through ``DatabaseReader`` and ``DatabaseWriter``.
///
/// Reentrancy follows GRDB: `read` traps inside a read of the same pool,
/// `write` inside a write; a read inside a write runs on a reader (it does
/// not see the uncommitted changes of the write), and a write inside a
/// read runs on the writer.
public final class DatabasePool: Sendable {
    private let writer: SerializedConnection
    private let readers: ReaderPool
    private let snapshotCount = AtomicCounter()
    /// Suspends the writer on ``Database/suspendNotification``, with
    /// ``Configuration/observesSuspensionNotifications`` (readers in WAL
    /// mode take no lock that needs it).
    private let suspensionObserver: SuspensionObserver?

    /// The configuration of the pool.
    public var configuration: Configuration { writer.db.configuration }
    /// The path of the database file.
    public var path: String { writer.db.path }

    /// Opens the database at `path`, creating the file if needed, and
    /// puts it in WAL mode (unless ``Configuration/readonly``: then every
    /// connection is read-only, and the database keeps its journal mode).
    ///
    /// - throws: A ``DatabaseError`` if the file can't be opened or is not a
    ///   database, if `prepareDatabase` throws, or if the database can't be
    ///   put in WAL mode (an in-memory database, a read-only file).
    public init(path: String, configuration: Configuration = Configuration()) throws {
        precondition(configuration.maximumReaderCount > 0, "configuration.maximumReaderCount must be at least 1")
        let label = configuration.label ?? "GRDBLite.DatabasePool"
        let writer = try SerializedConnection(
            path: path, description: "\(label).writer", configuration: configuration)
        self.writer = writer
        suspensionObserver = SuspensionObserver(
            configuration,
            suspend: { [weak writer] in if !configuration.readonly { writer?.suspend() } },
            resume: { [weak writer] in writer?.resume() })
        let readerConfiguration = Self.readerConfiguration(configuration)
        readers = ReaderPool(maximumCount: configuration.maximumReaderCount, label: label) { index, owner in
            let reader = try SerializedConnection(
                path: path, description: "\(label).reader.\(index)", configuration: readerConfiguration)
            try reader.setUp(owner: owner)
            return reader
        }
        try writer.setUp(owner: self)
        if !configuration.readonly {
            do {
                try writer.sync(.current, owner: self) { db in try db!.setUpWALMode() }
            } catch {
                writer.closeIfNeeded()
                throw error
            }
        }
    }

    /// The configuration of the readers: read-only, and waiting out the
    /// locks that can still happen in WAL mode
    /// (<https://www.sqlite.org/wal.html#sometimes_queries_return_sqlite_busy_in_wal_mode>):
    /// a recovery after a crash, the last connection of another process
    /// that closes.
    static func readerConfiguration(_ configuration: Configuration) -> Configuration {
        var configuration = configuration
        configuration.readonly = true
        if configuration.readonlyBusyMode == nil {
            configuration.readonlyBusyMode = .timeout(10)
        }
        return configuration
    }

    deinit {
        // The readers close first: the last connection to close, the
        // writer, checkpoints the WAL and removes it.
        for reader in readers.allReaders { reader.closeIfNeeded() }
        writer.closeIfNeeded()
    }

    private var description: String {
        configuration.label ?? "GRDBLite.DatabasePool"
    }

    // MARK: - Reentrancy

    /// Traps if a reader of this pool is in use on `context`: a read would
    /// wait for itself when the pool has one reader, and can't see what
    /// the enclosing read doesn't.
    private func preconditionNoRead(_ context: AccessContext) {
        if context.isAccessing(self, except: writer.db) {
            AccessContext.reentrancyFailure(description)
        }
    }

    /// Traps if the writer of this pool is in use on `context`.
    private func preconditionNoWrite(_ context: AccessContext) {
        if context.allows(writer.db) {
            AccessContext.reentrancyFailure(description)
        }
    }

    // MARK: - Closing, memory

    /// Closes the connections, once the running accesses are done.
    /// Closing again does nothing.
    ///
    /// Afterwards, `read`, `write` and every access that can throw throw
    /// a ``DatabaseError`` of code `SQLITE_MISUSE` ("Connection is
    /// closed"); `writeWithoutTransaction` and `unsafeReentrantWrite`,
    /// which only rethrow the errors of their closure, run it, and every
    /// statement it runs throws.
    ///
    /// - throws: `SQLITE_MISUSE` if the writer is inside a transaction
    ///   (left open by `writeWithoutTransaction`), `SQLITE_BUSY` if
    ///   statements of the writer are still alive (each is logged through
    ///   ``Database/logError``): then nothing is closed. `SQLITE_BUSY` if
    ///   statements of a reader are still alive: then the pool is closed
    ///   all the same, and that reader's connection is freed when they
    ///   are.
    public func close() throws {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: description)
        try readers.barrier(onWriter: writer, context, owner: self) { db in
            guard let db else { return } // closed already
            try db.rollbackIfNeeded()
            if db.isInsideTransaction {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE, message: "can't close a database inside a transaction")
            }
            // Nothing closes if the writer can't.
            try db.prepareToClose()
            // The readers close first: the last connection to close,
            // the writer, checkpoints the WAL and removes it.
            var readerError: (any Error)?
            for reader in readers.allReaders {
                do {
                    try reader.closeNow()
                } catch {
                    readerError = readerError ?? error
                    reader.closeIfNeeded()
                }
            }
            readers.markClosed()
            try writer.closeNow()
            if let readerError { throw readerError }
        }
    }

    /// Makes the running statements fail with `SQLITE_INTERRUPT`: those of
    /// the writer and of every reader. Safe to call from any thread.
    public func interrupt() {
        writer.interrupt()
        for reader in readers.allReaders { reader.interrupt() }
    }

    /// Frees as much memory as possible: the writer's caches, and the
    /// readers, which close once the running reads are done (new ones open
    /// when needed), unless ``Configuration/persistentReadOnlyConnections``
    /// keeps them (then they free their caches). Blocks until then.
    public func releaseMemory() {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: description)
        writer.sync(context, owner: self) { $0?.releaseMemory() }
        if configuration.persistentReadOnlyConnections {
            for reader in readers.allReaders {
                reader.sync(context, owner: self) { $0?.releaseMemory() }
            }
        } else {
            readers.barrier { readers.removeAvailableReaders() }
        }
    }

    /// Suspends the writer (see ``Database/suspendNotification``).
    func suspend() {
        if !configuration.readonly { writer.suspend() }
    }

    /// Resumes the writer (see ``Database/resumeNotification``).
    func resume() {
        writer.resume()
    }

    /// Frees memory without blocking: the readers close once their
    /// current access ends (or free their caches, with
    /// ``Configuration/persistentReadOnlyConnections``), and the writer
    /// frees its caches after its pending accesses.
    public func releaseMemoryEventually() {
        if configuration.persistentReadOnlyConnections {
            for reader in readers.allReaders {
                reader.async(owner: self) { $0?.releaseMemory() }
            }
        } else {
            readers.invalidateReaders()
        }
        writer.async(owner: self) { $0?.releaseMemory() }
    }

    /// Closes the read-only connections, even with
    /// ``Configuration/persistentReadOnlyConnections``: the next reads
    /// open new ones. Reads in progress are not interrupted; their
    /// connections close when they end.
    public func invalidateReadOnlyConnections() {
        readers.invalidateReaders()
    }

    // MARK: - Reading

    /// Whether a barrier holds new reads back (for the pool's tests).
    var isHoldingBackReads: Bool { readers.isHoldingBackReaders }

    /// Runs `body` on a reader: takes one (waiting if all are in use,
    /// opening one if needed), and gives it back when `body` returns.
    private func withReader<T>(_ context: AccessContext, _ body: (Database) throws -> T) throws -> T {
        preconditionNoRead(context)
        let reader = try readers.get(owner: self, bypassingBarriers: context.allows(writer.db))
        defer { readers.release(reader) }
        return try reader.sync(context, owner: self) { db in
            // Readers are closed by `close()` and `releaseMemory()` only
            // when no access uses them.
            guard let db else { throw DatabaseError.connectionIsClosed() }
            defer { db.endReaderAccess() }
            return try body(db)
        }
    }

    /// Runs `body` on a reader without blocking the caller: `body` gets
    /// the reader's connection, or the error that prevented the access.
    private func asyncWithReader(_ body: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        readers.asyncAccess(owner: self) { result in
            defer { if case .success(let db) = result { db.endReaderAccess() } }
            body(result)
            return false
        }
    }

    /// Runs `body` on a reader, without blocking the task.
    private func executeWithReader<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await awaitAccess(asyncWithReader, body)
    }

    /// Runs `value` in a read transaction, on a reader: it sees the last
    /// commit before it started, and none after. Writes fail with
    /// `SQLITE_READONLY`.
    ///
    /// It may be called from inside a `write` of the pool: it then reads
    /// on a reader, without the uncommitted changes of the write. Calling
    /// it from inside a read of the pool traps.
    ///
    /// - throws: The error of `value`, or the ``DatabaseError`` that
    ///   prevented the read (`SQLITE_MISUSE` after `close()`, a reader
    ///   that could not open, `SQLITE_BUSY` if another process keeps the
    ///   database locked).
    @_disfavoredOverload
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader(.current) { db in try db.readTransaction { try value(db) } }
    }

    /// Runs `value` in a read transaction, on a reader, without blocking
    /// the task.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await executeWithReader { db in try db.readTransaction { try value(db) } }
    }

    /// Schedules `value` in a read transaction, on a reader, and returns at
    /// once.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncWithReader { dbResult in
            guard case .success(let db) = dbResult else { return value(dbResult) }
            db.readInTransaction(readOnly: true, prepare: db.refreshReaderSchemaCache, value)
        }
    }

    /// Runs `value` on a reader, outside of any transaction: each statement
    /// may see a newer state than the one before.
    @_disfavoredOverload
    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader(.current) { db in
            try db.refreshReaderSchemaCache()
            return try value(db)
        }
    }

    /// Runs `value` on a reader, outside of any transaction, without
    /// blocking the task.
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await executeWithReader { db in
            try db.refreshReaderSchemaCache()
            return try value(db)
        }
    }

    /// Schedules `value` on a reader, outside of any transaction, and
    /// returns at once.
    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncWithReader { dbResult in
            value(dbResult.flatMap { db in Result { try db.refreshReaderSchemaCache(); return db } })
        }
    }

    /// Runs `value` as `unsafeRead` does; from inside an access of the
    /// pool, runs it right away with the connection of that access (the
    /// reader of a read, the writer of a write).
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        let context = AccessContext.current
        if let connection = context.innermostConnection(of: self, where: { $0 !== writer.db })
            ?? context.innermostConnection(of: self, where: { _ in true })
        {
            return try context.run(connection, of: self, value)
        }
        return try unsafeRead(value)
    }

    /// Reads the last committed state of the database as it is now, on a
    /// reader, concurrently with the writer.
    ///
    /// Call it from inside a write access of the pool, outside of any
    /// transaction (in `writeWithoutTransaction`); it traps otherwise. It
    /// returns once the reader's transaction is open: `value` then sees
    /// the database as the last commit left it, and none of the changes
    /// the writer makes afterwards.
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.execute(sql: "DELETE FROM player")
    ///     dbPool.asyncConcurrentRead { dbResult in
    ///         // Zero, whatever the writer does next.
    ///         let count = try? Int.fetchOne(dbResult.get(), sql: "SELECT COUNT(*) FROM player")
    ///     }
    ///     try db.execute(sql: "INSERT INTO player ...")
    /// }
    /// ```
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        let context = AccessContext.current
        guard context.allows(writer.db) else {
            fatalError(
                "asyncConcurrentRead must be called from inside a write access of \(description) (writeWithoutTransaction)"
            )
        }
        guard !writer.db.isInsideTransaction else {
            fatalError("""
                asyncConcurrentRead must not be called from inside a transaction. In a \
                DatabasePool.write block, use DatabasePool.writeWithoutTransaction instead, and call it \
                after the transaction ends.
                """)
        }
        let reader: SerializedConnection
        do {
            reader = try readers.get(owner: self, bypassingBarriers: true)
        } catch {
            return value(.failure(error))
        }
        // The writer waits until the read transaction of the reader sees
        // the last commit: no later write can slip in before.
        let isolation = DispatchSemaphore(value: 0)
        readers.startAccess(reader, owner: self) { result in
            guard case .success(let db) = result else {
                isolation.signal()
                value(result)
                return true
            }
            defer { db.endReaderAccess() }
            var isolated = false
            db.readInTransaction(readOnly: true, prepare: {
                // The first read of the transaction establishes its snapshot.
                defer {
                    isolated = true
                    isolation.signal()
                }
                try db.refreshReaderSchemaCache()
            }, { result in
                value(result)
            })
            if !isolated { isolation.signal() }
            return false
        }
        isolation.wait()
    }

    // MARK: - Writing

    /// Runs `updates` in a transaction, on the writer: commits if they
    /// succeed, rolls back and rethrows if they throw.
    ///
    /// - throws: The error of `updates`, of the commit, or `SQLITE_MISUSE`
    ///   after `close()`.
    @_disfavoredOverload
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try throwingWriterSync { db in try db.isolated(readOnly: false) { try updates(db) } }
    }

    /// Runs `updates` in a transaction, on the writer, without blocking the
    /// task.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writerExecute { db in try db.isolated(readOnly: false) { try updates(db) } }
    }

    /// Runs `updates` in a transaction, on the writer, that they commit or
    /// roll back.
    ///
    /// - parameter kind: The kind of transaction; by default
    ///   IMMEDIATE.
    /// - parameter updates: Returns `.commit` or `.rollback`.
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try throwingWriterSync { db in try db.inTransaction(kind) { try updates(db) } }
    }

    /// Runs `updates` on the writer, outside of any transaction.
    @_disfavoredOverload
    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        let context = AccessContext.current
        preconditionNoWrite(context)
        return try writer.syncEvenIfClosed(context, owner: self, updates)
    }

    /// Runs `updates` on the writer, outside of any transaction, without
    /// blocking the task.
    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writerExecute(updates)
    }

    /// Schedules `updates` on the writer, outside of any transaction, and
    /// returns at once.
    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.asyncEvenIfClosed(owner: self, updates)
    }

    /// Runs `updates` on the writer, outside of any transaction, once the
    /// running reads and writes are done, and alone: reads wait until it
    /// returns.
    ///
    /// Calling it from inside an access of the pool traps.
    @_disfavoredOverload
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: description)
        return try readers.barrier(onWriter: writer, context, owner: self) { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            return try updates(db)
        }
    }

    /// Runs `updates` as a barrier, without blocking the task.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws
        -> T
    {
        try await awaitAccess(asyncBarrierWriteWithoutTransaction, updates)
    }

    /// Schedules `updates` as a barrier and returns at once: `updates` gets
    /// the writer's connection, or the error that prevented the access.
    public func asyncBarrierWriteWithoutTransaction(
        _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
    ) {
        readers.asyncBarrier(onWriter: writer, owner: self) { db in
            guard let db else { return updates(.failure(DatabaseError.connectionIsClosed())) }
            updates(.success(db))
        }
    }

    /// Runs `updates` outside of any transaction that it doesn't open; from
    /// inside a write access of the pool, runs it right away in that
    /// access. From anywhere else (a read included), it runs on the writer.
    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSyncEvenIfClosed(.current, owner: self, updates)
    }

    /// The same as ``asyncConcurrentRead(_:)``.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        asyncConcurrentRead(value)
    }

    /// See ``ObservationWriter``.
    func observationWriterSync<T>(_ body: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(.current, owner: self) { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            return try body(db)
        }
    }

    /// See ``ObservationWriter``.
    func observationWriterAsync(_ body: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        writer.async(owner: self) { db in
            body(db.map { .success($0) } ?? .failure(DatabaseError.connectionIsClosed()))
        }
    }

    /// Runs `body` on the writer; throws `SQLITE_MISUSE` after `close()`.
    private func throwingWriterSync<T>(_ body: (Database) throws -> T) throws -> T {
        let context = AccessContext.current
        preconditionNoWrite(context)
        return try writer.sync(context, owner: self) { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            return try body(db)
        }
    }

    /// Runs `body` on the writer without blocking the task; throws
    /// `SQLITE_MISUSE` after `close()`.
    private func writerExecute<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(owner: self, body)
    }

    // MARK: - Snapshots

    /// Opens a ``DatabaseSnapshot``: a reader that sees the database as the
    /// last commit left it, for as long as it lives.
    ///
    /// Called from inside a write access (outside of any transaction), the
    /// snapshot sees the last commit of the writer, and none of the changes
    /// it makes afterwards. Calling it inside a write transaction traps.
    public func makeSnapshot() throws -> DatabaseSnapshot {
        if AccessContext.current.allows(writer.db) && writer.db.isInsideTransaction {
            fatalError("makeSnapshot() must not be called from inside a transaction: use writeWithoutTransaction")
        }
        return try DatabaseSnapshot(
            path: path,
            configuration: Self.readerConfiguration(configuration),
            description: "\(description).snapshot.\(snapshotCount.increment())")
    }

    /// Opens a ``DatabaseSnapshotPool``: readers that see the database as
    /// it is now, for as long as the snapshot pool lives, in parallel.
    ///
    /// - throws: A ``DatabaseError`` if the linked SQLite has no
    ///   `sqlite3_snapshot_*` functions (Debian's libsqlite3 has none), if
    ///   the database is not in WAL mode, or if it is called from inside a
    ///   write transaction.
    public func makeSnapshotPool() throws -> DatabaseSnapshotPool {
        try unsafeReentrantRead { db in try DatabaseSnapshotPool(db) }
    }
}

extension DatabasePool: DatabaseWriter { }

/// A counter shared across threads.
private final class AtomicCounter: Sendable {
    private let value = Atomic(0)
    func increment() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).newValue
    }
}
