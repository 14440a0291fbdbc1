import CSQLite
import Foundation
import Synchronization

/// A raw SQLite connection, for the SQLite C API.
public typealias SQLiteConnection = OpaquePointer
/// A raw SQLite prepared statement, for the SQLite C API.
public typealias SQLiteStatement = OpaquePointer

/// An SQLite connection.
///
/// You don't create a `Database`: a ``DatabaseQueue`` gives one to the
/// closures of its access methods. It is valid only inside the closure.
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// ```
public final class Database {
    /// The raw SQLite connection, for the SQLite C API. Don't close it,
    /// and don't use it after the database is closed.
    ///
    /// Outside of a read-only access, it accepts writes: a read-only
    /// access leaves SQLite's `query_only` on when it ends, and it goes
    /// off before the next statement, or here.
    public var sqliteConnection: SQLiteConnection {
        if _slowPath(needsQueryOnlyReset) && readOnlyDepth == 0 && !isClosed
            && accessOwner.load(ordering: .relaxed) == currentThreadID()
        {
            // A failure leaves it on: the C API then reports SQLITE_READONLY.
            try? allowWritesAfterReadOnlyAccess()
        }
        return sqliteHandle
    }
    /// The raw SQLite connection, as the library uses it.
    @usableFromInline let sqliteHandle: SQLiteConnection
    /// The configuration of the connection.
    public let configuration: Configuration
    /// The label of the connection.
    public let description: String
    /// The path of the database file, `:memory:` for private in-memory
    /// databases.
    @_spi(GRDBLite) public let path: String
    /// The current schema source: ``Configuration/schemaSource``, nil
    /// during migrations, or the one given to
    /// ``withSchemaSource(_:execute:)``.
    public internal(set) var schemaSource: (any DatabaseSchemaSource)?

    /// The thread that is currently allowed to use the connection (0: none).
    @usableFromInline let accessOwner = Atomic<UInt>(0)
    /// Whether the task of the running asynchronous access is cancelled
    /// (its statements then fail with `CancellationError`), or the
    /// connection is suspended: whether statements need the checks of
    /// `checkCancellation(before:)` and `checkSuspension(before:)`.
    @usableFromInline let accessIsCancelled = Atomic(false)
    let accessCancellation = Locked(AccessCancellation())

    // Transactions
    /// Whether the connection was in autocommit mode after the last statement.
    var wasAutocommit = true
    /// The date of the current transaction (nil iff outside a transaction).
    var transactionDateResult: Result<Date, any Error>?
    /// Inside `inTransaction` or `inSavepoint`: an aborted transaction is
    /// then an error (see `checkForAbortedTransaction`).
    var isInsideTransactionBlock = false
    /// Set when a rollback failed (out of memory) and left its transaction
    /// open: the transaction is rolled back before anything else runs on
    /// the connection, so that later writes can't end up in it.
    var needsRollback = false
    /// Whether `PRAGMA query_only` is on, as far as GRDBLite set it.
    var isQueryOnly = false
    /// Set when a read-only access ends: `PRAGMA query_only = 0` runs
    /// before the next statement outside of a read-only access, not at
    /// once, since the pragma expires every compiled statement of the
    /// connection. Consecutive read-only accesses (the fetches of value
    /// observations after a commit, `DatabaseQueue` reads) then keep their
    /// statements and run no pragma. Also set when a pragma failed (out of
    /// memory).
    var needsQueryOnlyReset = false
    /// Depth of `readOnly` calls.
    var readOnlyDepth = 0
    /// Set during a read-only access whose `PRAGMA query_only` waits for
    /// a statement that is not read-only (see
    /// `enterReadOnlyAccess(checkingStatements:)`).
    var defersQueryOnly = false
    /// The read-only transaction that value observations share when they
    /// fetch after a commit (see `Database+SharedCommitRead.swift`).
    var sharedCommitRead = SharedCommitRead()
    /// The open savepoints, innermost last. Transaction observers hold the
    /// changes made inside savepoints until they are released.
    var savepointNames: [CaseInsensitiveIdentifier] = []

    /// Prepared statements, by SQL.
    var statementCache = StatementCache()
    /// The statements GRDBLite runs on its own (`executeInternalStatement`).
    var internalStatementCache: [String: Statement] = [:]
    /// The number of ``Statement``s of the connection that are alive:
    /// those prevent closing. SQLite's list of statements also holds those
    /// that virtual tables (FTS5) keep while they are connected, which
    /// `sqlite3_close` finalizes.
    let liveStatements = LiveStatementCount()
    /// The caches of the layers above Core (introspection, the record
    /// layer's statements), dropped when the schema changes.
    /// Unchecked exclusivity: read for every inserted record, by the one
    /// thread that uses the connection.
    @exclusivity(unchecked) var schemaDependentCaches: [any SchemaDependentCache] = []
    /// Collects what the statement under compilation does.
    let authorizer = StatementAuthorizer()

    /// Registrations that failed in a method that can't throw (an FTS5
    /// tokenizer's, when SQLite is out of memory), retried before the next
    /// statement compiles: a failure again is that statement's error.
    var pendingRegistrations: [(Database) throws -> Void] = []

    var functions: [DatabaseFunction.ID: DatabaseFunction] = [:]
    var collations: [CaseInsensitiveIdentifier: DatabaseCollation] = [:]
    var busyCallback: Database.BusyCallback?
    var traceFunction: ((TraceEvent) -> Void)?

    /// Hooks of the observation layer, when something observes the database.
    var executionObserver: (any StatementExecutionObserver)?
    /// The observation layer's recorder of what a fetch reads, while a
    /// value observation fetches (see `StatementSelectionRecorder`).
    var selectionRecorder: (any StatementSelectionRecorder)?

    /// Whether the connection is closed: its statements then throw
    /// `SQLITE_MISUSE`, and nothing touches the freed handle. Only changed
    /// on the connection's queue, or when no access can run.
    var isClosed = false

    /// On a reader of a pool: the schema version its caches were filled
    /// at (see `refreshReaderSchemaCache`).
    var readerSchemaVersion: Int32?

    init(path: String, description: String, configuration: Configuration) throws {
        var flags = configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // One connection per serial queue: SQLite's mutexes are not needed.
        flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        var connection: SQLiteConnection?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            sqlite3_close_v2(connection)
            throw DatabaseError(resultCode: code, message: "\(message ?? "cannot open database"): \(path)")
        }
        self.sqliteHandle = connection
        self.path = path
        self.description = description
        self.configuration = configuration
        self.schemaSource = configuration.schemaSource
        sqlite3_extended_result_codes(connection, 1)
        authorizer.install(on: self)
    }

    /// Applies the configuration; runs on the queue of the connection.
    func setUp() throws {
        if !configuration.acceptsDoubleQuotedStringLiterals {
            grdblite_disable_dqs(sqliteHandle)
        }
        // GRDB's functions and collations, which schemas may use.
        for function in DatabaseFunction.builtIn {
            functions[function.id] = function
            try function.install(in: self)
        }
        for collation in DatabaseCollation.builtIn {
            collations[CaseInsensitiveIdentifier(collation.name)] = collation
            try collation.install(in: self)
        }
        let busyMode =
            configuration.readonly ? configuration.readonlyBusyMode ?? configuration.busyMode : configuration.busyMode
        switch busyMode {
        case .immediateError:
            break
        case .timeout(let seconds):
            sqlite3_busy_timeout(sqliteHandle, CInt(max(0, min(seconds * 1000, Double(CInt.max)))))
        case .callback(let callback):
            busyCallback = callback
            // Unmanaged, unretained: the handler belongs to the connection, which this object closes.
            sqlite3_busy_handler(sqliteHandle, { dbPointer, tries in
                // Unmanaged, unretained: the connection removes this handler before it goes away.
                let db = Unmanaged<Database>.fromOpaque(dbPointer!).takeUnretainedValue()
                return db.busyCallback!(Int(tries)) ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque()) // Unmanaged, unretained: the connection outlives its handler
        }
        if let trace = configuration.trace {
            self.trace { trace($0.description) }
        }
        // Reading the schema fails early for a file that is not a database
        // (SQLITE_NOTADB) or is corrupted.
        try execute(sql: "SELECT COUNT(*) FROM sqlite_master")
        try execute(sql: configuration.foreignKeysEnabled ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF")
        if !configuration.readonly, case .wal = configuration.journalMode {
            let mode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
            if mode?.lowercased() != "wal" && path != ":memory:" && !path.contains("mode=memory") {
                throw DatabaseError(message: "could not activate WAL mode (journal mode is \(mode ?? "unknown"))")
            }
        }
        for setup in configuration.setups {
            try setup(self)
        }
    }

    /// Closes the connection with `sqlite3_close`: when statements that it
    /// prepared are still alive (retained by the user, or a cursor), it
    /// throws `SQLITE_BUSY`, logs each of them through
    /// ``Database/logError``, and the connection stays open and usable.
    /// After a successful close, the `Database` remains usable for the
    /// rest of the access that closed it: its statements throw
    /// `SQLITE_MISUSE`. Closing again does nothing.
    func close() throws {
        if isClosed { return }
        try prepareToClose()
        authorizer.uninstall(from: self)
        let code = sqlite3_close(sqliteHandle)
        guard code == SQLITE_OK else {
            // An unfinished backup: the connection stays open.
            let message = lastErrorMessage
            authorizer.install(on: self)
            throw DatabaseError(resultCode: code, message: message)
        }
        didClose()
    }

    /// Empties the statement caches, then throws `SQLITE_BUSY` if
    /// statements of the connection are still alive, after it logs each of
    /// them through ``Database/logError``: then ``close()`` would fail.
    func prepareToClose() throws {
        if isClosed { return }
        // Cached statements would prevent closing.
        statementCache.removeAll()
        internalStatementCache.removeAll()
        dropSchemaDependentCaches()
        if liveStatements.value.load(ordering: .relaxed) > 0 {
            let code = ResultCode.SQLITE_BUSY
            if Database.logError != nil {
                var statement = sqlite3_next_stmt(sqliteHandle, nil)
                while let current = statement {
                    let sql = sqlite3_sql(current).map { String(cString: $0) } ?? ""
                    Database.log(code, "unfinalized statement: \(sql)")
                    statement = sqlite3_next_stmt(sqliteHandle, current)
                }
            }
            throw DatabaseError(
                resultCode: code, message: "unable to close due to unfinalized statements or unfinished backups")
        }
    }

    /// Closes the connection with `sqlite3_close_v2`, even when statements
    /// are still alive: SQLite then frees the connection when the last of
    /// them is finalized. For a connection that goes away, or whose set up
    /// failed.
    func closeEventually() {
        if isClosed { return }
        statementCache.removeAll()
        internalStatementCache.removeAll()
        dropSchemaDependentCaches()
        // Before SQLite rolls back an open transaction, which observers
        // must not hear of.
        endObservations()
        authorizer.uninstall(from: self)
        let code = sqlite3_close_v2(sqliteHandle)
        if code != SQLITE_OK {
            Database.log(ResultCode(rawValue: code), "could not close database: \(lastErrorMessage ?? "")")
        }
        isClosed = true
    }

    private func didClose() {
        isClosed = true
        endObservations()
    }

    private func endObservations() {
        executionObserver?.databaseWillClose()
        executionObserver = nil
    }

    /// Throws `SQLITE_MISUSE` ("Connection is closed") after ``close()``:
    /// the handle must not be touched then.
    @inline(__always)
    func checkNotClosed(sql: @autoclosure () -> String? = nil) throws {
        if _slowPath(isClosed) {
            throw DatabaseError.connectionIsClosed(sql: sql())
        }
    }

    // MARK: - Access

    /// Traps unless the connection is used from its current access block.
    @inlinable
    @inline(__always)
    func preconditionValidAccess(_ what: @autoclosure () -> String = "A database connection") {
        if _slowPath(accessOwner.load(ordering: .relaxed) != currentThreadID()) {
            invalidAccess(what())
        }
    }

    @usableFromInline
    func invalidAccess(_ what: String) -> Never {
        fatalError("""
            \(what) was used outside of its database access: it is only valid inside the \
            closure of `read`, `write`, `inDatabase` or `inTransaction` that provided it, \
            on that closure's thread. Copy rows with `copy()` or fetch arrays with `fetchAll` \
            to use results later.
            """)
    }

    /// Runs `body` with this thread allowed to use the connection.
    func withAccess<T>(_ body: (Database) throws -> T) rethrows -> T {
        let previous = accessOwner.exchange(currentThreadID(), ordering: .relaxed)
        defer { accessOwner.store(previous, ordering: .relaxed) }
        return try body(self)
    }

    // MARK: - Connection state

    /// The rowid of the last row inserted by this connection.
    public var lastInsertedRowID: Int64 {
        isClosed ? 0 : sqlite3_last_insert_rowid(sqliteHandle)
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    public var changesCount: Int {
        isClosed ? 0 : Int(sqlite3_changes64(sqliteHandle))
    }

    /// The number of rows changed since the connection was opened.
    public var totalChangesCount: Int {
        isClosed ? 0 : Int(sqlite3_total_changes64(sqliteHandle))
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    public var isInsideTransaction: Bool {
        !isClosed && sqlite3_get_autocommit(sqliteHandle) == 0
    }

    /// The last SQLite error code of the connection.
    public var lastErrorCode: ResultCode {
        isClosed ? .SQLITE_MISUSE : ResultCode(rawValue: sqlite3_extended_errcode(sqliteHandle))
    }

    /// The last SQLite error message of the connection.
    public var lastErrorMessage: String? {
        isClosed
            ? DatabaseError.connectionIsClosed().message : sqlite3_errmsg(sqliteHandle).map { String(cString: $0) }
    }

    /// The version of the SQLite library, e.g. 3040001.
    public static var sqliteLibVersionNumber: CInt { sqlite3_libversion_number() }

    /// The version of the SQLite library, e.g. "3.40.1".
    @_spi(GRDBLite) public static var sqliteLibVersion: String { String(cString: sqlite3_libversion()) }

    /// Frees as much memory as possible: the statement cache and SQLite's
    /// page cache.
    public func releaseMemory() {
        statementCache.removeAll()
        internalStatementCache.removeAll()
        if isClosed { return }
        sqlite3_db_release_memory(sqliteHandle)
    }

    /// Interrupts the running statement, which fails with `SQLITE_INTERRUPT`.
    /// Safe to call from any thread.
    @_spi(GRDBLite) public func interrupt() {
        if isClosed { return }
        sqlite3_interrupt(sqliteHandle)
    }

    // MARK: - Task cancellation

    /// The cancellation of the running access; `accessIsCancelled` mirrors
    /// `isCancelled` for the check of every statement.
    struct AccessCancellation {
        var isCancelled = false
        /// Nesting of ``ignoringCancellation(_:)``.
        var ignoringDepth = 0
        /// Whether the connection is suspended (see `suspend()`).
        var isSuspended = false
        /// The journal mode read by the first suspension check ("wal"...).
        var journalMode: String?
    }

    /// Cancels the running access, from any thread: the running statement
    /// is interrupted, and the next ones fail with `CancellationError`
    /// (see ``statementWillExecute(_:)``), unless they run inside
    /// ``ignoringCancellation(_:)``.
    func cancelAccess() {
        accessCancellation.withLock { state in
            state.isCancelled = true
            accessIsCancelled.store(true, ordering: .relaxed)
            if state.ignoringDepth == 0 { sqlite3_interrupt(sqliteHandle) }
        }
    }

    /// Ends the cancellation of an access, when it ends.
    func uncancelAccess() {
        accessCancellation.withLock { state in
            state.isCancelled = false
            accessIsCancelled.store(state.isSuspended, ordering: .relaxed)
        }
    }

    /// Runs `body` with the cancellation of the access ignored: what
    /// follows a commit (the transaction observers) is not cancelled.
    func ignoringCancellation<T>(_ body: () throws -> T) rethrows -> T {
        accessCancellation.withLock { $0.ignoringDepth += 1 }
        defer { accessCancellation.withLock { $0.ignoringDepth -= 1 } }
        return try body()
    }

    /// Whether the statements of the access must throw `CancellationError`.
    private var cancellationApplies: Bool {
        accessIsCancelled.load(ordering: .relaxed)
            && accessCancellation.withLock { $0.isCancelled && $0.ignoringDepth == 0 }
    }

    /// Throws `CancellationError` if the access is cancelled and
    /// `statement` is not one that must run anyway: a rollback, which ends
    /// what the cancellation interrupted, the commit of a read-only
    /// transaction, and the pragma that ends a read-only access.
    func checkCancellation(before statement: Statement) throws {
        guard cancellationApplies else { return }
        if statement.info.transactionEffect?.rollsBack == true { return }
        if statement.info.transactionEffect == .commitTransaction && isReadOnly { return }
        if statement.sql.starts(with: "PRAGMA query_only") { return }
        throw CancellationError()
    }

    /// Throws `CancellationError` instead of the interruption of a
    /// cancelled access.
    func checkCancellation(afterFailure code: CInt) throws {
        let primaryCode = code & 0xFF
        if (primaryCode == SQLITE_INTERRUPT || primaryCode == SQLITE_ABORT) && cancellationApplies {
            throw CancellationError()
        }
    }
}

extension Database: CustomDebugStringConvertible {
    public var debugDescription: String { "<Database: \(description)>" }
}

/// An identifier of the current thread, cheap enough for hot paths.
@inlinable
@inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}

/// The hooks that the observation layer installs on a connection.
protocol StatementExecutionObserver: AnyObject {
    /// Before a statement runs.
    func statementWillExecute(_ statement: Statement)
    /// After a statement ran to completion.
    func statementDidExecute(_ statement: Statement) throws
    /// After a statement failed; may throw an observer's error instead.
    func statementDidFail(_ statement: Statement) throws
    /// Whether row deletions in `table` are observed (this disables
    /// SQLite's truncate optimization, which would not report them).
    func observesDeletions(on table: String) -> Bool
    /// The connection closes: observations of it end.
    func databaseWillClose()
}

/// Records what the statements of a fetch read, for the observation layer
/// (the region a `ValueObservation` tracks).
protocol StatementSelectionRecorder: AnyObject {
    /// Before a statement runs (a write may read too: `INSERT ... SELECT`).
    func statementWillRead(_ statement: Statement)
}

/// What a statement reads, as the request that made it knows it, when the
/// authorizer can't tell (the rows of a filter by rowid, the associations
/// that other statements prefetch): the observation layer asks it, the
/// query interface provides it (``Statement/selectionRefinement``).
protocol StatementSelectionRefinement: AnyObject { }


/// The number of live statements of a connection (see
/// `Database.liveStatements`). Atomic: a statement may be released on
/// another thread than the connection's.
final class LiveStatementCount: Sendable {
    let value = Atomic<Int>(0)
}
