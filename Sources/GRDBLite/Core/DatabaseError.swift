import CSQLite
import Foundation

/// An SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended
/// (`SQLITE_CONSTRAINT_UNIQUE`).
///
/// Related SQLite documentation: <https://www.sqlite.org/rescode.html>
public struct ResultCode: RawRepresentable, Equatable, Sendable {
    public let rawValue: CInt

    public init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The primary result code: the low 8 bits of an extended code.
    public var primaryResultCode: ResultCode {
        ResultCode(rawValue: rawValue & 0xFF)
    }

    var isPrimary: Bool { self == primaryResultCode }

    /// A primary code matches itself and its extended codes; an extended
    /// code matches only itself.
    public static func ~= (pattern: ResultCode, code: ResultCode) -> Bool {
        pattern.isPrimary ? pattern == code.primaryResultCode : pattern == code
    }

    /// Matches a `DatabaseError` thrown with this code:
    /// `catch ResultCode.SQLITE_CONSTRAINT { ... }`.
    public static func ~= (pattern: ResultCode, error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return pattern ~= error.extendedResultCode
    }

    public static let SQLITE_OK = ResultCode(rawValue: 0)
    public static let SQLITE_ERROR = ResultCode(rawValue: 1)
    public static let SQLITE_INTERNAL = ResultCode(rawValue: 2)
    public static let SQLITE_PERM = ResultCode(rawValue: 3)
    public static let SQLITE_ABORT = ResultCode(rawValue: 4)
    public static let SQLITE_BUSY = ResultCode(rawValue: 5)
    public static let SQLITE_LOCKED = ResultCode(rawValue: 6)
    public static let SQLITE_NOMEM = ResultCode(rawValue: 7)
    public static let SQLITE_READONLY = ResultCode(rawValue: 8)
    public static let SQLITE_INTERRUPT = ResultCode(rawValue: 9)
    public static let SQLITE_IOERR = ResultCode(rawValue: 10)
    public static let SQLITE_CORRUPT = ResultCode(rawValue: 11)
    public static let SQLITE_NOTFOUND = ResultCode(rawValue: 12)
    public static let SQLITE_FULL = ResultCode(rawValue: 13)
    public static let SQLITE_CANTOPEN = ResultCode(rawValue: 14)
    public static let SQLITE_PROTOCOL = ResultCode(rawValue: 15)
    public static let SQLITE_EMPTY = ResultCode(rawValue: 16)
    public static let SQLITE_SCHEMA = ResultCode(rawValue: 17)
    public static let SQLITE_TOOBIG = ResultCode(rawValue: 18)
    public static let SQLITE_CONSTRAINT = ResultCode(rawValue: 19)
    public static let SQLITE_MISMATCH = ResultCode(rawValue: 20)
    public static let SQLITE_MISUSE = ResultCode(rawValue: 21)
    public static let SQLITE_NOLFS = ResultCode(rawValue: 22)
    public static let SQLITE_AUTH = ResultCode(rawValue: 23)
    public static let SQLITE_FORMAT = ResultCode(rawValue: 24)
    public static let SQLITE_RANGE = ResultCode(rawValue: 25)
    public static let SQLITE_NOTADB = ResultCode(rawValue: 26)
    public static let SQLITE_NOTICE = ResultCode(rawValue: 27)
    public static let SQLITE_WARNING = ResultCode(rawValue: 28)
    public static let SQLITE_ROW = ResultCode(rawValue: 100)
    public static let SQLITE_DONE = ResultCode(rawValue: 101)

    // Extended result codes: <https://www.sqlite.org/rescode.html#extrc>.
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode(rawValue: SQLITE_ERROR.rawValue | (1 << 8))
    public static let SQLITE_ERROR_RETRY = ResultCode(rawValue: SQLITE_ERROR.rawValue | (2 << 8))
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode(rawValue: SQLITE_ERROR.rawValue | (3 << 8))
    public static let SQLITE_IOERR_READ = ResultCode(rawValue: SQLITE_IOERR.rawValue | (1 << 8))
    public static let SQLITE_IOERR_SHORT_READ = ResultCode(rawValue: SQLITE_IOERR.rawValue | (2 << 8))
    public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: SQLITE_IOERR.rawValue | (3 << 8))
    public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: SQLITE_IOERR.rawValue | (4 << 8))
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode(rawValue: SQLITE_IOERR.rawValue | (5 << 8))
    public static let SQLITE_IOERR_TRUNCATE = ResultCode(rawValue: SQLITE_IOERR.rawValue | (6 << 8))
    public static let SQLITE_IOERR_FSTAT = ResultCode(rawValue: SQLITE_IOERR.rawValue | (7 << 8))
    public static let SQLITE_IOERR_UNLOCK = ResultCode(rawValue: SQLITE_IOERR.rawValue | (8 << 8))
    public static let SQLITE_IOERR_RDLOCK = ResultCode(rawValue: SQLITE_IOERR.rawValue | (9 << 8))
    public static let SQLITE_IOERR_DELETE = ResultCode(rawValue: SQLITE_IOERR.rawValue | (10 << 8))
    public static let SQLITE_IOERR_BLOCKED = ResultCode(rawValue: SQLITE_IOERR.rawValue | (11 << 8))
    public static let SQLITE_IOERR_NOMEM = ResultCode(rawValue: SQLITE_IOERR.rawValue | (12 << 8))
    public static let SQLITE_IOERR_ACCESS = ResultCode(rawValue: SQLITE_IOERR.rawValue | (13 << 8))
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode(rawValue: SQLITE_IOERR.rawValue | (14 << 8))
    public static let SQLITE_IOERR_LOCK = ResultCode(rawValue: SQLITE_IOERR.rawValue | (15 << 8))
    public static let SQLITE_IOERR_CLOSE = ResultCode(rawValue: SQLITE_IOERR.rawValue | (16 << 8))
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode(rawValue: SQLITE_IOERR.rawValue | (17 << 8))
    public static let SQLITE_IOERR_SHMOPEN = ResultCode(rawValue: SQLITE_IOERR.rawValue | (18 << 8))
    public static let SQLITE_IOERR_SHMSIZE = ResultCode(rawValue: SQLITE_IOERR.rawValue | (19 << 8))
    public static let SQLITE_IOERR_SHMLOCK = ResultCode(rawValue: SQLITE_IOERR.rawValue | (20 << 8))
    public static let SQLITE_IOERR_SHMMAP = ResultCode(rawValue: SQLITE_IOERR.rawValue | (21 << 8))
    public static let SQLITE_IOERR_SEEK = ResultCode(rawValue: SQLITE_IOERR.rawValue | (22 << 8))
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode(rawValue: SQLITE_IOERR.rawValue | (23 << 8))
    public static let SQLITE_IOERR_MMAP = ResultCode(rawValue: SQLITE_IOERR.rawValue | (24 << 8))
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode(rawValue: SQLITE_IOERR.rawValue | (25 << 8))
    public static let SQLITE_IOERR_CONVPATH = ResultCode(rawValue: SQLITE_IOERR.rawValue | (26 << 8))
    public static let SQLITE_IOERR_VNODE = ResultCode(rawValue: SQLITE_IOERR.rawValue | (27 << 8))
    public static let SQLITE_IOERR_AUTH = ResultCode(rawValue: SQLITE_IOERR.rawValue | (28 << 8))
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode(rawValue: SQLITE_IOERR.rawValue | (29 << 8))
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode(rawValue: SQLITE_IOERR.rawValue | (30 << 8))
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode(rawValue: SQLITE_IOERR.rawValue | (31 << 8))
    public static let SQLITE_IOERR_DATA = ResultCode(rawValue: SQLITE_IOERR.rawValue | (32 << 8))
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode(rawValue: SQLITE_IOERR.rawValue | (33 << 8))
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: SQLITE_LOCKED.rawValue | (1 << 8))
    public static let SQLITE_LOCKED_VTAB = ResultCode(rawValue: SQLITE_LOCKED.rawValue | (2 << 8))
    public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: SQLITE_BUSY.rawValue | (1 << 8))
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode(rawValue: SQLITE_BUSY.rawValue | (2 << 8))
    public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: SQLITE_BUSY.rawValue | (3 << 8))
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode(rawValue: SQLITE_CANTOPEN.rawValue | (1 << 8))
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: SQLITE_CANTOPEN.rawValue | (2 << 8))
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: SQLITE_CANTOPEN.rawValue | (3 << 8))
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode(rawValue: SQLITE_CANTOPEN.rawValue | (4 << 8))
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode(rawValue: SQLITE_CANTOPEN.rawValue | (5 << 8))
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode(rawValue: SQLITE_CANTOPEN.rawValue | (6 << 8))
    public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: SQLITE_CORRUPT.rawValue | (1 << 8))
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode(rawValue: SQLITE_CORRUPT.rawValue | (2 << 8))
    public static let SQLITE_CORRUPT_INDEX = ResultCode(rawValue: SQLITE_CORRUPT.rawValue | (3 << 8))
    public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: SQLITE_READONLY.rawValue | (1 << 8))
    public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: SQLITE_READONLY.rawValue | (2 << 8))
    public static let SQLITE_READONLY_ROLLBACK = ResultCode(rawValue: SQLITE_READONLY.rawValue | (3 << 8))
    public static let SQLITE_READONLY_DBMOVED = ResultCode(rawValue: SQLITE_READONLY.rawValue | (4 << 8))
    public static let SQLITE_READONLY_CANTINIT = ResultCode(rawValue: SQLITE_READONLY.rawValue | (5 << 8))
    public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: SQLITE_READONLY.rawValue | (6 << 8))
    public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: SQLITE_ABORT.rawValue | (2 << 8))
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (1 << 8))
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (2 << 8))
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (3 << 8))
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (4 << 8))
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (5 << 8))
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (6 << 8))
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (7 << 8))
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (8 << 8))
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (9 << 8))
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (10 << 8))
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (11 << 8))
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: SQLITE_CONSTRAINT.rawValue | (12 << 8))
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode(rawValue: SQLITE_NOTICE.rawValue | (1 << 8))
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode(rawValue: SQLITE_NOTICE.rawValue | (2 << 8))
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode(rawValue: SQLITE_WARNING.rawValue | (1 << 8))
    public static let SQLITE_AUTH_USER = ResultCode(rawValue: SQLITE_AUTH.rawValue | (1 << 8))
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode(rawValue: SQLITE_OK.rawValue | (1 << 8))
    public static let SQLITE_OK_SYMLINK = ResultCode(rawValue: SQLITE_OK.rawValue | (2 << 8))
}

extension ResultCode: CustomStringConvertible {
    /// `"19 (constraint failed)"`: the code and SQLite's text for it.
    public var description: String {
        "\(rawValue) (\(String(cString: sqlite3_errstr(rawValue))))"
    }
}

/// An SQLite error, with the SQL and the arguments that caused it.
///
/// ```swift
/// do {
///     try db.execute(sql: "INSERT INTO player (id) VALUES (?)", arguments: [1])
/// } catch let error as DatabaseError {
///     error.resultCode         // SQLITE_CONSTRAINT
///     error.extendedResultCode // SQLITE_CONSTRAINT_PRIMARYKEY
///     error.message            // "UNIQUE constraint failed: player.id"
///     error.sql                // "INSERT INTO player (id) VALUES (?)"
///     error.arguments          // [1]
/// }
/// ```
public struct DatabaseError: Error, Sendable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`).
    public let extendedResultCode: ResultCode
    /// SQLite's message, or the meaning of the code.
    public let message: String?
    /// The SQL of the statement that failed, if any.
    public let sql: String?
    /// The arguments of the statement that failed, if any.
    public let arguments: StatementArguments?
    /// Whether `description` shows the arguments (see
    /// `Configuration.publicStatementArguments`).
    let publicStatementArguments: Bool

    /// Whether this is the error of a statement run on a closed
    /// connection (closed by `close()`): a typed identity, where the
    /// message would only be text.
    let isConnectionClosed: Bool

    /// The primary result code (`SQLITE_CONSTRAINT`).
    public var resultCode: ResultCode { extendedResultCode.primaryResultCode }

    /// An error. `description` shows the arguments only when
    /// `publicStatementArguments` is true: they may hold private data.
    public init(
        resultCode: ResultCode = .SQLITE_ERROR,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false)
    {
        self.extendedResultCode = resultCode
        self.message = message ?? String(cString: sqlite3_errstr(resultCode.rawValue))
        self.sql = sql
        self.arguments = arguments
        self.publicStatementArguments = publicStatementArguments
        self.isConnectionClosed = false
    }

    /// The error of an access to a closed connection.
    private init(connectionClosedWithSQL sql: String?) {
        self.extendedResultCode = .SQLITE_MISUSE
        self.message = "Connection is closed"
        self.sql = sql
        self.arguments = nil
        self.publicStatementArguments = false
        self.isConnectionClosed = true
    }

    init(
        resultCode: CInt,
        message: String? = nil,
        sql: String? = nil,
        arguments: StatementArguments? = nil,
        publicStatementArguments: Bool = false)
    {
        self.init(
            resultCode: ResultCode(rawValue: resultCode), message: message, sql: sql, arguments: arguments,
            publicStatementArguments: publicStatementArguments)
    }

    /// The same error, with other arguments.
    @usableFromInline
    func with(arguments: StatementArguments) -> DatabaseError {
        // The closed-connection error keeps its identity.
        if isConnectionClosed { return self }
        return DatabaseError(
            resultCode: extendedResultCode, message: message, sql: sql, arguments: arguments,
            publicStatementArguments: publicStatementArguments)
    }
}

extension DatabaseError {
    /// The error of an access to a closed database (GRDB's message).
    static func connectionIsClosed(sql: String? = nil) -> DatabaseError {
        DatabaseError(connectionClosedWithSQL: sql)
    }

    /// The error of an access to a snapshot whose transaction was ended
    /// (GRDB's message).
    static func snapshotIsLost() -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_ABORT, message: "Snapshot is lost.")
    }
}

extension DatabaseError {
    /// `catch DatabaseError.SQLITE_CONSTRAINT { ... }` spellings: all the
    /// codes of ``ResultCode``.
    public static let SQLITE_OK = ResultCode.SQLITE_OK
    public static let SQLITE_ERROR = ResultCode.SQLITE_ERROR
    public static let SQLITE_INTERNAL = ResultCode.SQLITE_INTERNAL
    public static let SQLITE_PERM = ResultCode.SQLITE_PERM
    public static let SQLITE_ABORT = ResultCode.SQLITE_ABORT
    public static let SQLITE_BUSY = ResultCode.SQLITE_BUSY
    public static let SQLITE_LOCKED = ResultCode.SQLITE_LOCKED
    public static let SQLITE_NOMEM = ResultCode.SQLITE_NOMEM
    public static let SQLITE_READONLY = ResultCode.SQLITE_READONLY
    public static let SQLITE_INTERRUPT = ResultCode.SQLITE_INTERRUPT
    public static let SQLITE_IOERR = ResultCode.SQLITE_IOERR
    public static let SQLITE_CORRUPT = ResultCode.SQLITE_CORRUPT
    public static let SQLITE_NOTFOUND = ResultCode.SQLITE_NOTFOUND
    public static let SQLITE_FULL = ResultCode.SQLITE_FULL
    public static let SQLITE_CANTOPEN = ResultCode.SQLITE_CANTOPEN
    public static let SQLITE_PROTOCOL = ResultCode.SQLITE_PROTOCOL
    public static let SQLITE_EMPTY = ResultCode.SQLITE_EMPTY
    public static let SQLITE_SCHEMA = ResultCode.SQLITE_SCHEMA
    public static let SQLITE_TOOBIG = ResultCode.SQLITE_TOOBIG
    public static let SQLITE_CONSTRAINT = ResultCode.SQLITE_CONSTRAINT
    public static let SQLITE_MISMATCH = ResultCode.SQLITE_MISMATCH
    public static let SQLITE_MISUSE = ResultCode.SQLITE_MISUSE
    public static let SQLITE_NOLFS = ResultCode.SQLITE_NOLFS
    public static let SQLITE_AUTH = ResultCode.SQLITE_AUTH
    public static let SQLITE_FORMAT = ResultCode.SQLITE_FORMAT
    public static let SQLITE_RANGE = ResultCode.SQLITE_RANGE
    public static let SQLITE_NOTADB = ResultCode.SQLITE_NOTADB
    public static let SQLITE_NOTICE = ResultCode.SQLITE_NOTICE
    public static let SQLITE_WARNING = ResultCode.SQLITE_WARNING
    public static let SQLITE_ROW = ResultCode.SQLITE_ROW
    public static let SQLITE_DONE = ResultCode.SQLITE_DONE
    public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode.SQLITE_ERROR_MISSING_COLLSEQ
    public static let SQLITE_ERROR_RETRY = ResultCode.SQLITE_ERROR_RETRY
    public static let SQLITE_ERROR_SNAPSHOT = ResultCode.SQLITE_ERROR_SNAPSHOT
    public static let SQLITE_IOERR_READ = ResultCode.SQLITE_IOERR_READ
    public static let SQLITE_IOERR_SHORT_READ = ResultCode.SQLITE_IOERR_SHORT_READ
    public static let SQLITE_IOERR_WRITE = ResultCode.SQLITE_IOERR_WRITE
    public static let SQLITE_IOERR_FSYNC = ResultCode.SQLITE_IOERR_FSYNC
    public static let SQLITE_IOERR_DIR_FSYNC = ResultCode.SQLITE_IOERR_DIR_FSYNC
    public static let SQLITE_IOERR_TRUNCATE = ResultCode.SQLITE_IOERR_TRUNCATE
    public static let SQLITE_IOERR_FSTAT = ResultCode.SQLITE_IOERR_FSTAT
    public static let SQLITE_IOERR_UNLOCK = ResultCode.SQLITE_IOERR_UNLOCK
    public static let SQLITE_IOERR_RDLOCK = ResultCode.SQLITE_IOERR_RDLOCK
    public static let SQLITE_IOERR_DELETE = ResultCode.SQLITE_IOERR_DELETE
    public static let SQLITE_IOERR_BLOCKED = ResultCode.SQLITE_IOERR_BLOCKED
    public static let SQLITE_IOERR_NOMEM = ResultCode.SQLITE_IOERR_NOMEM
    public static let SQLITE_IOERR_ACCESS = ResultCode.SQLITE_IOERR_ACCESS
    public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode.SQLITE_IOERR_CHECKRESERVEDLOCK
    public static let SQLITE_IOERR_LOCK = ResultCode.SQLITE_IOERR_LOCK
    public static let SQLITE_IOERR_CLOSE = ResultCode.SQLITE_IOERR_CLOSE
    public static let SQLITE_IOERR_DIR_CLOSE = ResultCode.SQLITE_IOERR_DIR_CLOSE
    public static let SQLITE_IOERR_SHMOPEN = ResultCode.SQLITE_IOERR_SHMOPEN
    public static let SQLITE_IOERR_SHMSIZE = ResultCode.SQLITE_IOERR_SHMSIZE
    public static let SQLITE_IOERR_SHMLOCK = ResultCode.SQLITE_IOERR_SHMLOCK
    public static let SQLITE_IOERR_SHMMAP = ResultCode.SQLITE_IOERR_SHMMAP
    public static let SQLITE_IOERR_SEEK = ResultCode.SQLITE_IOERR_SEEK
    public static let SQLITE_IOERR_DELETE_NOENT = ResultCode.SQLITE_IOERR_DELETE_NOENT
    public static let SQLITE_IOERR_MMAP = ResultCode.SQLITE_IOERR_MMAP
    public static let SQLITE_IOERR_GETTEMPPATH = ResultCode.SQLITE_IOERR_GETTEMPPATH
    public static let SQLITE_IOERR_CONVPATH = ResultCode.SQLITE_IOERR_CONVPATH
    public static let SQLITE_IOERR_VNODE = ResultCode.SQLITE_IOERR_VNODE
    public static let SQLITE_IOERR_AUTH = ResultCode.SQLITE_IOERR_AUTH
    public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode.SQLITE_IOERR_BEGIN_ATOMIC
    public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode.SQLITE_IOERR_COMMIT_ATOMIC
    public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode.SQLITE_IOERR_ROLLBACK_ATOMIC
    public static let SQLITE_IOERR_DATA = ResultCode.SQLITE_IOERR_DATA
    public static let SQLITE_IOERR_CORRUPTFS = ResultCode.SQLITE_IOERR_CORRUPTFS
    public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode.SQLITE_LOCKED_SHAREDCACHE
    public static let SQLITE_LOCKED_VTAB = ResultCode.SQLITE_LOCKED_VTAB
    public static let SQLITE_BUSY_RECOVERY = ResultCode.SQLITE_BUSY_RECOVERY
    public static let SQLITE_BUSY_SNAPSHOT = ResultCode.SQLITE_BUSY_SNAPSHOT
    public static let SQLITE_BUSY_TIMEOUT = ResultCode.SQLITE_BUSY_TIMEOUT
    public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode.SQLITE_CANTOPEN_NOTEMPDIR
    public static let SQLITE_CANTOPEN_ISDIR = ResultCode.SQLITE_CANTOPEN_ISDIR
    public static let SQLITE_CANTOPEN_FULLPATH = ResultCode.SQLITE_CANTOPEN_FULLPATH
    public static let SQLITE_CANTOPEN_CONVPATH = ResultCode.SQLITE_CANTOPEN_CONVPATH
    public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode.SQLITE_CANTOPEN_DIRTYWAL
    public static let SQLITE_CANTOPEN_SYMLINK = ResultCode.SQLITE_CANTOPEN_SYMLINK
    public static let SQLITE_CORRUPT_VTAB = ResultCode.SQLITE_CORRUPT_VTAB
    public static let SQLITE_CORRUPT_SEQUENCE = ResultCode.SQLITE_CORRUPT_SEQUENCE
    public static let SQLITE_CORRUPT_INDEX = ResultCode.SQLITE_CORRUPT_INDEX
    public static let SQLITE_READONLY_RECOVERY = ResultCode.SQLITE_READONLY_RECOVERY
    public static let SQLITE_READONLY_CANTLOCK = ResultCode.SQLITE_READONLY_CANTLOCK
    public static let SQLITE_READONLY_ROLLBACK = ResultCode.SQLITE_READONLY_ROLLBACK
    public static let SQLITE_READONLY_DBMOVED = ResultCode.SQLITE_READONLY_DBMOVED
    public static let SQLITE_READONLY_CANTINIT = ResultCode.SQLITE_READONLY_CANTINIT
    public static let SQLITE_READONLY_DIRECTORY = ResultCode.SQLITE_READONLY_DIRECTORY
    public static let SQLITE_ABORT_ROLLBACK = ResultCode.SQLITE_ABORT_ROLLBACK
    public static let SQLITE_CONSTRAINT_CHECK = ResultCode.SQLITE_CONSTRAINT_CHECK
    public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode.SQLITE_CONSTRAINT_COMMITHOOK
    public static let SQLITE_CONSTRAINT_FOREIGNKEY = ResultCode.SQLITE_CONSTRAINT_FOREIGNKEY
    public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode.SQLITE_CONSTRAINT_FUNCTION
    public static let SQLITE_CONSTRAINT_NOTNULL = ResultCode.SQLITE_CONSTRAINT_NOTNULL
    public static let SQLITE_CONSTRAINT_PRIMARYKEY = ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY
    public static let SQLITE_CONSTRAINT_TRIGGER = ResultCode.SQLITE_CONSTRAINT_TRIGGER
    public static let SQLITE_CONSTRAINT_UNIQUE = ResultCode.SQLITE_CONSTRAINT_UNIQUE
    public static let SQLITE_CONSTRAINT_VTAB = ResultCode.SQLITE_CONSTRAINT_VTAB
    public static let SQLITE_CONSTRAINT_ROWID = ResultCode.SQLITE_CONSTRAINT_ROWID
    public static let SQLITE_CONSTRAINT_PINNED = ResultCode.SQLITE_CONSTRAINT_PINNED
    public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode.SQLITE_CONSTRAINT_DATATYPE
    public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode.SQLITE_NOTICE_RECOVER_WAL
    public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode.SQLITE_NOTICE_RECOVER_ROLLBACK
    public static let SQLITE_WARNING_AUTOINDEX = ResultCode.SQLITE_WARNING_AUTOINDEX
    public static let SQLITE_AUTH_USER = ResultCode.SQLITE_AUTH_USER
    public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode.SQLITE_OK_LOAD_PERMANENTLY
    public static let SQLITE_OK_SYMLINK = ResultCode.SQLITE_OK_SYMLINK
}

extension DatabaseError: CustomStringConvertible {
    /// `SQLite error 19: UNIQUE constraint failed: player.id - while executing
    /// `INSERT INTO player (id) VALUES (?)``; the arguments follow (`with
    /// arguments [1]`) when the connection's configuration has
    /// `publicStatementArguments`.
    public var description: String {
        description(showingArguments: publicStatementArguments)
    }

    private func description(showingArguments: Bool) -> String {
        // The primary code, as GRDB: extended codes are in extendedResultCode.
        var text = "SQLite error \(resultCode.rawValue)"
        if let message { text += ": \(message)" }
        if let sql { text += " - while executing `\(sql.trimmedSQLStatement)`" }
        if showingArguments, let arguments, !arguments.isEmpty { text += " with arguments \(arguments)" }
        return text
    }
}

extension DatabaseError {
    /// The description, with the statement's arguments whatever
    /// `publicStatementArguments` says. Mind the private data it may show.
    public var expandedDescription: String { description(showingArguments: true) }
}

extension DatabaseError {
    /// Whether the error comes from an interrupted statement
    /// (`SQLITE_INTERRUPT`, after ``DatabaseReader/interrupt()`` or a
    /// suspension) or an aborted one (`SQLITE_ABORT`).
    public var isInterruptionError: Bool {
        let code = resultCode
        return code == .SQLITE_INTERRUPT || code == .SQLITE_ABORT
    }
}

/// As an `NSError`: the domain `GRDB.DatabaseError` (GRDB's), the extended
/// result code, and the description.
extension DatabaseError: CustomNSError {
    /// `"GRDB.DatabaseError"`, as in GRDB, so that code matching the
    /// domain of bridged errors keeps working.
    public static var errorDomain: String { "GRDB.DatabaseError" }

    /// The extended result code.
    public var errorCode: Int { Int(extendedResultCode.rawValue) }

    /// The description, and SQLite's message as the failure reason.
    public var errorUserInfo: [String: Any] {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
        if let message { userInfo[NSLocalizedFailureReasonErrorKey] = message }
        return userInfo
    }
}
