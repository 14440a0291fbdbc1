import CFaultInjection
import GRDBLite
import Testing

/// Where the first fault the fault VFS injected hit a workload: the step
/// that was running (a call of GRDBLite's API), the I/O operation, and
/// whether the step returned success all the same. A fault must surface
/// from the step it hit, unless SQLite documents that it recovers from it
/// (see `recovery(step:operation:)`): an error GRDBLite swallows (a
/// checkpoint that returns success on an I/O error) shows up here.
struct FaultTrace {
    /// The step the first fault hit, nil if no fault was injected.
    private(set) var step: String?
    /// Whether that step returned success.
    private(set) var stepSucceeded = false
    /// The operation the first fault hit (see
    /// `grdblite_fault_vfs_first_fault_operation`).
    private(set) var operation: Int32 = 0
    /// Where it hit (see `grdblite_fault_vfs_first_fault_detail`).
    private(set) var detail: Int32 = 0

    /// Runs one step of the workload, and records it if the first fault of
    /// the run hits it. Steps run one at a time; a step may use other
    /// threads, as long as they end before it returns.
    mutating func run<T>(_ step: String, _ body: () throws -> T) throws -> T {
        let before = grdblite_fault_vfs_fault_count()
        func record(succeeded: Bool) {
            if before == 0 && grdblite_fault_vfs_fault_count() > 0 {
                self.step = step
                stepSucceeded = succeeded
                operation = grdblite_fault_vfs_first_fault_operation()
                detail = grdblite_fault_vfs_first_fault_detail()
            }
        }
        do {
            let value = try body()
            record(succeeded: true)
            return value
        } catch {
            record(succeeded: false)
            throw error
        }
    }

    /// Counts the first fault by step, operation and outcome in `hits`,
    /// and the recoveries in `recoveries`; records an issue when the step
    /// it hit returned success and SQLite documents no recovery.
    func expectSurfaced(_ context: String, hits: inout [String: Int], recoveries: inout [String: Int]) {
        guard let step else {
            Issue.record("\(context): a fault was injected outside of any step")
            return
        }
        hits["\(step) \(operationName) \(stepSucceeded ? "ok" : "threw")", default: 0] += 1
        guard stepSucceeded else { return }
        if let recovery {
            recoveries[recovery, default: 0] += 1
        } else {
            Issue.record("\(context): the fault hit \(operationName) in step \(step), which returned success")
        }
    }

    /// The name of the operation that the first fault hit.
    var operationName: String {
        Self.name(of: operation) + (detail & GRDBLiteIOFaultInCheckpoint != 0 ? " (checkpoint)" : "")
    }

    static func name(of operation: Int32) -> String {
        switch operation {
        case GRDBLiteIOFaultShmUnlock: return "xShmLock (unlock)"
        case SQLITE_CANTOPEN: return "xOpen"
        case ResultCode.SQLITE_IOERR_READ.rawValue: return "xRead"
        case ResultCode.SQLITE_IOERR_SHORT_READ.rawValue: return "xRead (short)"
        case ResultCode.SQLITE_IOERR_WRITE.rawValue: return "xWrite"
        case ResultCode.SQLITE_IOERR_FSYNC.rawValue: return "xSync"
        case ResultCode.SQLITE_IOERR_TRUNCATE.rawValue: return "xTruncate"
        case ResultCode.SQLITE_IOERR_FSTAT.rawValue: return "xFileSize"
        case ResultCode.SQLITE_IOERR_LOCK.rawValue: return "xLock"
        case ResultCode.SQLITE_IOERR_UNLOCK.rawValue: return "xUnlock"
        case ResultCode.SQLITE_IOERR_CHECKRESERVEDLOCK.rawValue: return "xCheckReservedLock"
        case ResultCode.SQLITE_IOERR_SHMMAP.rawValue: return "xShmMap"
        case ResultCode.SQLITE_IOERR_SHMLOCK.rawValue: return "xShmLock"
        case ResultCode.SQLITE_IOERR_DELETE.rawValue: return "xDelete"
        case ResultCode.SQLITE_IOERR_ACCESS.rawValue: return "xAccess"
        default: return "operation \(operation)"
        }
    }

    /// Why a step may return success though a fault hit it: SQLite's own
    /// documented recovery, or nil when the fault must surface.
    var recovery: String? {
        guard let step, stepSucceeded else { return nil }
        return Self.recovery(step: step, operation: operation, detail: detail)
    }

    /// The recoveries SQLite documents (in its source, where the C API's
    /// documentation says nothing), by step and operation.
    static func recovery(step: String, operation: Int32, detail: Int32 = 0) -> String? {
        if step == "close" {
            return "sqlite3_close: sqlite3PagerClose returns SQLITE_OK whatever its checkpoint or journal sync did"
                + " (pager.c); the next connection recovers the WAL or rolls back the hot journal"
        }
        if detail & GRDBLiteIOFaultInCheckpoint != 0 && step != "checkpoint" {
            // Only the explicit checkpoint step must report the errors of
            // its checkpoint.
            return "a checkpoint SQLite runs on its own: the automatic one after a commit"
                + " (sqlite3WalDefaultHook returns SQLITE_OK whatever sqlite3_wal_checkpoint returned),"
                + " or the last close's (sqlite3WalClose's result is ignored by sqlite3PagerClose)"
        }
        if step == "snapshot" && operation == ResultCode.SQLITE_IOERR_LOCK.rawValue
            && detail & 0xFF == SQLITE_LOCK_EXCLUSIVE
        {
            // The step closes the snapshot's connection.
            return "the EXCLUSIVE lock by which sqlite3WalClose learns whether it closes the last connection:"
                + " when it fails, the close skips the checkpoint and keeps the WAL (wal.c)"
        }
        switch operation {
        case ResultCode.SQLITE_IOERR_UNLOCK.rawValue, GRDBLiteIOFaultShmUnlock:
            // The fault VFS releases the lock all the same.
            return "a failed unlock: SQLite ignores the result of xUnlock (pager_unlock, pagerUnlockDb callers)"
                + " and of xShmLock when it releases (walUnlockShared and walUnlockExclusive return void)"
        default:
            return nil
        }
    }
}
