/// A read-only connection that sees the database as it was when the
/// snapshot was made, for as long as it lives. Made with
/// ``DatabasePool/makeSnapshot()``.
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshot()
/// let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
/// ```
///
/// The snapshot keeps a read transaction open: on a WAL database, writers
/// go on (the snapshot doesn't see their changes), and checkpoints can't
/// copy past it into the database file, so the WAL grows until the
/// snapshot is released. Its accesses run one after the other; for
/// parallel reads of one state, see ``DatabaseSnapshotPool``.
public final class DatabaseSnapshot: DatabaseSnapshotReader {
    private let connection: SerializedConnection

    /// The configuration of the snapshot's connection (read-only).
    public var configuration: Configuration { connection.db.configuration }
    /// The path of the database file.
    public var path: String { connection.db.path }

    init(path: String, configuration: Configuration, description: String) throws {
        var configuration = configuration
        configuration.readonly = true
        // The snapshot's transaction lasts as long as it does.
        configuration.allowsUnsafeTransactions = true
        configuration.maximumReaderCount = 1
        connection = try SerializedConnection(path: path, description: description, configuration: configuration)
        try connection.setUp(owner: self)
        try connection.sync(.current, owner: self) { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            try db.beginTransaction(.deferred)
            // The first read fixes the state that the transaction sees.
            try db.execute(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        }
    }

    private var description: String { connection.db.description }

    /// Closes the connection. Afterwards, `read` and the accesses that
    /// throw by themselves throw `SQLITE_MISUSE`; in `unsafeRead`, which
    /// only rethrows, statements throw it. Closing again does nothing.
    ///
    /// - throws: `SQLITE_BUSY` if statements of the connection are still
    ///   alive (each is logged through ``Database/logError``): the snapshot
    ///   then stays open, on the same state.
    public func close() throws {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: description)
        try connection.sync(context, owner: self) { db in
            guard let db else { return }
            // Fails before the snapshot's transaction ends, if it must.
            try db.prepareToClose()
            try? db.rollback()
            try connection.closeNow()
        }
    }

    /// Interrupts the running statement, from any thread.
    public func interrupt() {
        connection.interrupt()
    }

    /// Runs `body` on the connection, inside the snapshot's transaction.
    private static func access<T>(_ db: Database?, _ body: (Database) throws -> T) throws -> T {
        guard let db else { throw DatabaseError.connectionIsClosed() }
        guard db.isInsideTransaction else {
            // A closure ended the snapshot's transaction.
            throw DatabaseError.snapshotIsLost()
        }
        return try body(db)
    }

    /// Runs `value` on the snapshot's state and returns its result; writes
    /// fail with `SQLITE_READONLY`.
    @_disfavoredOverload
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: description)
        return try connection.sync(context, owner: self) { db in try Self.access(db, value) }
    }

    /// Runs `value` on the snapshot's state, without blocking the task.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await connection.execute(owner: self) { db in try Self.access(db, value) }
    }

    /// Schedules `value` on the snapshot's state and returns at once.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        connection.async(owner: self) { db in
            value(Result { try Self.access(db) { $0 } })
        }
    }

    /// Runs `value` with the snapshot's connection, as `read` does, but
    /// without checking that `value` doesn't end the snapshot's
    /// transaction. After `close()`, its statements throw `SQLITE_MISUSE`.
    @_disfavoredOverload
    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        let context = AccessContext.current
        context.preconditionNotAccessing(self, description: description)
        return try connection.syncEvenIfClosed(context, owner: self, value)
    }

    /// The same as `read`: a snapshot never changes. (Not a default of
    /// `DatabaseSnapshotReader`: there, Swift picks the synchronous
    /// overload as the witness of this requirement, which then blocks and
    /// ignores task cancellation.)
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await read(value)
    }

    /// Runs `value` as `read` does; from inside an access of this
    /// snapshot, runs it right away with its connection.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try connection.reentrantSync(.current, owner: self) { db in try Self.access(db, value) }
    }
}
