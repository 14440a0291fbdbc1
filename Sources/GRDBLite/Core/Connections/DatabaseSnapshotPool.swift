/// Read-only connections that all see one state of a WAL database, for as
/// long as the snapshot pool lives, and read it in parallel. Made with
/// ``DatabasePool/makeSnapshotPool()``, or from a read access.
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshotPool()
/// let count = try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
/// ```
///
/// It needs the `sqlite3_snapshot_*` functions of SQLite, which exist only
/// when SQLite is built with `SQLITE_ENABLE_SNAPSHOT`. GRDBLite looks them
/// up when it runs: Debian's libsqlite3 doesn't have them, and creating a
/// snapshot pool with it throws a ``DatabaseError`` (use
/// ``DatabasePool/makeSnapshot()`` then); with a SQLite that has them, it
/// works.
public final class DatabaseSnapshotPool: DatabaseSnapshotReader {
    /// The configuration of the snapshot pool's connections (read-only).
    public let configuration: Configuration
    /// The path of the database file.
    public let path: String
    private let snapshot: WALSnapshot
    /// A read transaction on the snapshot, for as long as the pool lives:
    /// checkpoints can't copy past it, so the snapshot stays readable.
    private let holder: SerializedConnection
    private let readers: ReaderPool

    /// Opens a snapshot pool that sees the state that `db`'s current read
    /// transaction sees, or, outside of a transaction, the last commit.
    ///
    /// - throws: A ``DatabaseError`` if the linked SQLite has no snapshots,
    ///   if the database is not in WAL mode, or if `db` is inside a write
    ///   transaction.
    public convenience init(_ db: Database, configuration: Configuration? = nil) throws {
        let snapshot = try db.isolated(readOnly: true) { try WALSnapshot(db) }
        try self.init(path: db.path, snapshot: snapshot, configuration: configuration ?? db.configuration)
    }

    /// Opens a snapshot pool that sees the last commit of the WAL database
    /// at `path`.
    ///
    /// - throws: A ``DatabaseError`` if the file can't be opened, if the
    ///   linked SQLite has no snapshots, or if the database is not in WAL
    ///   mode.
    public convenience init(path: String, configuration: Configuration = Configuration()) throws {
        _ = try SnapshotAPI.required()
        try self.init(path: path, snapshot: nil, configuration: configuration)
    }

    private init(path: String, snapshot: WALSnapshot?, configuration: Configuration) throws {
        precondition(configuration.maximumReaderCount > 0, "configuration.maximumReaderCount must be at least 1")
        var configuration = DatabasePool.readerConfiguration(configuration)
        // The snapshot's transactions last as long as the pool does.
        configuration.allowsUnsafeTransactions = true
        let label = configuration.label ?? "GRDBLite.DatabaseSnapshotPool"
        self.path = path
        self.configuration = configuration
        holder = try SerializedConnection(
            path: path, description: "\(label).snapshot.holder", configuration: configuration)
        try holder.setUp(owner: holder)
        self.snapshot = try holder.sync(.current, owner: holder) { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            try db.beginTransaction(.deferred)
            try db.execute(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
            if let snapshot {
                try snapshot.open(in: db)
                return snapshot
            }
            return try WALSnapshot(db)
        }
        let snapshot = self.snapshot
        readers = ReaderPool(maximumCount: configuration.maximumReaderCount, label: label) { index, owner in
            let reader = try SerializedConnection(
                path: path, description: "\(label).snapshot.\(index)", configuration: configuration)
            try reader.setUp(owner: owner)
            try reader.sync(.current, owner: owner) { db in
                guard let db else { throw DatabaseError.connectionIsClosed() }
                try db.beginTransaction(.deferred)
                try db.execute(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
                try snapshot.open(in: db)
            }
            return reader
        }
    }

    deinit {
        for reader in readers.allReaders { reader.closeIfNeeded() }
    }

    private var description: String { configuration.label ?? "GRDBLite.DatabaseSnapshotPool" }

    /// Closes the connections, once the running reads are done. Afterwards,
    /// reads throw `SQLITE_MISUSE`.
    public func close() throws {
        AccessContext.current.preconditionNotAccessing(self, description: description)
        readers.barrier {
            for reader in readers.allReaders { reader.closeIfNeeded() }
            readers.markClosed()
            holder.closeIfNeeded()
        }
    }

    /// Interrupts the running statements, from any thread.
    public func interrupt() {
        for reader in readers.allReaders { reader.interrupt() }
    }

    /// Runs `value` on a reader, then checks that it still sees the
    /// snapshot: a reader whose closure ended its transaction is closed.
    private func withReader<T>(_ context: AccessContext, _ value: (Database) throws -> T) throws -> T {
        if context.isAccessing(self) { AccessContext.reentrancyFailure(description) }
        let reader = try readers.get(owner: self)
        var isLost = true
        defer { readers.release(reader, discard: isLost) }
        return try reader.sync(context, owner: self) { db in
            guard let db else { throw DatabaseError.connectionIsClosed() }
            defer { isLost = !snapshot.isCurrent(in: db) }
            return try value(db)
        }
    }

    /// Runs `value` on the snapshot's state and returns its result.
    @_disfavoredOverload
    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader(.current, value)
    }

    /// Runs `value` on the snapshot's state, without blocking the task.
    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await awaitAccess(asyncRead, value)
    }

    /// Schedules `value` on the snapshot's state and returns at once.
    public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
        readers.asyncAccess(owner: self) { [self] result in
            value(result)
            guard case .success(let db) = result else { return true }
            return !snapshot.isCurrent(in: db)
        }
    }

    /// The same as `read`: a snapshot never changes. (Not a default of
    /// `DatabaseSnapshotReader`: there, Swift picks the synchronous
    /// overload as the witness of this requirement, which then blocks and
    /// ignores task cancellation.)
    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await read(value)
    }

    /// Runs `value` as `read` does; from inside a read of this snapshot
    /// pool, runs it right away with the reader of that read.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        let context = AccessContext.current
        guard let db = context.innermostConnection(of: self, where: { _ in true }) else {
            return try read(value)
        }
        return try context.run(db, of: self) { db in
            let result = try value(db)
            if !snapshot.isCurrent(in: db) { throw DatabaseError.snapshotIsLost() }
            return result
        }
    }
}
