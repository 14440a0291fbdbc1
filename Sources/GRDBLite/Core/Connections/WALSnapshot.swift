import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A state of a WAL database that connections can read later
/// (`sqlite3_snapshot`), for ``DatabaseSnapshotPool``.
///
/// SQLite provides `sqlite3_snapshot_get`, `_open`, `_cmp` and `_free`
/// only when it is built with `SQLITE_ENABLE_SNAPSHOT`. Debian's
/// libsqlite3 is not, so GRDBLite looks the functions up when it runs:
/// with a SQLite that has them, snapshot pools work; without, creating one
/// throws a ``DatabaseError``.
// @unchecked Sendable: an sqlite3_snapshot has no thread requirements
// (<https://www.sqlite.org/c3ref/snapshot.html>) and is never mutated.
final class WALSnapshot: @unchecked Sendable {
    // unsafe: an sqlite3_snapshot that this object owns and frees.
    private let pointer: UnsafeMutableRawPointer
    private let api: SnapshotAPI

    /// The state that the read transaction of `db` sees.
    ///
    /// - throws: A ``DatabaseError`` if the linked SQLite has no snapshots,
    ///   or if SQLite can't take one (no read transaction, not in WAL
    ///   mode, an empty WAL file).
    init(_ db: Database) throws {
        let api = try SnapshotAPI.required()
        var pointer: UnsafeMutableRawPointer?
        let code = api.get(db.sqliteHandle, "main", &pointer)
        guard code == SQLITE_OK, let pointer else {
            throw Self.explainFailure(code: code, in: db)
        }
        self.pointer = pointer
        self.api = api
    }

    deinit {
        api.free(pointer)
    }

    /// Makes the read transaction that `db` just began see this state.
    func open(in db: Database) throws {
        let code = api.open(db.sqliteHandle, "main", pointer)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: code, message: db.lastErrorMessage)
        }
    }

    /// Whether `db`'s read transaction sees this state.
    func isCurrent(in db: Database) -> Bool {
        guard db.isInsideTransaction, let current = try? WALSnapshot(db) else { return false }
        return api.cmp(pointer, current.pointer) == 0
    }

    /// The reason why `sqlite3_snapshot_get` failed, after
    /// <https://www.sqlite.org/c3ref/snapshot_get.html>.
    private static func explainFailure(code: CInt, in db: Database) -> DatabaseError {
        let message: String
        if !db.isInsideTransaction {
            message = "can't take a snapshot outside of a read transaction"
        } else if let mode = try? String.fetchOne(db, sql: "PRAGMA journal_mode"), mode.lowercased() != "wal" {
            message = "can't take a snapshot of a database that is not in WAL mode (journal mode is \(mode))"
        } else {
            message = "can't take a snapshot inside a write transaction, or of a missing or empty WAL file"
        }
        return DatabaseError(resultCode: code == SQLITE_OK ? SQLITE_ERROR : code, message: message)
    }
}

/// The `sqlite3_snapshot_*` functions of the linked SQLite, when it has them.
struct SnapshotAPI: Sendable {
    typealias Get =
        @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> CInt
    typealias Open = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> CInt
    typealias Compare = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> CInt
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    let get: Get
    let open: Open
    let cmp: Compare
    let free: Free

    /// The functions, or nil if the linked SQLite was built without them.
    static let linked: SnapshotAPI? = {
        func lookup<F>(_ name: String, as type: F.Type) -> F? {
            // RTLD_DEFAULT (a null handle): the process's global symbols,
            // where the libsqlite3 that GRDBLite links is.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            // Unsafe: the symbol is the SQLite function whose C signature `type` spells.
            return unsafeBitCast(symbol, to: type)
        }
        guard let get = lookup("sqlite3_snapshot_get", as: Get.self),
              let open = lookup("sqlite3_snapshot_open", as: Open.self),
              let cmp = lookup("sqlite3_snapshot_cmp", as: Compare.self),
              let free = lookup("sqlite3_snapshot_free", as: Free.self)
        else { return nil }
        return SnapshotAPI(get: get, open: open, cmp: cmp, free: free)
    }()

    /// The functions, or a ``DatabaseError`` that says they are missing.
    static func required() throws -> SnapshotAPI {
        guard let linked else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: """
                    DatabaseSnapshotPool needs sqlite3_snapshot_get, sqlite3_snapshot_open, sqlite3_snapshot_cmp \
                    and sqlite3_snapshot_free, which the linked SQLite \(Database.sqliteLibVersion) does not provide \
                    (it was built without SQLITE_ENABLE_SNAPSHOT): use DatabasePool.makeSnapshot() instead
                    """)
        }
        return linked
    }
}
