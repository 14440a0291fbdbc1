// A VFS that forwards to the default VFS and fails I/O operations on
// demand: the countdown-th operation after `arm` fails, and the following
// ones too when the fault is persistent. It also counts the files open
// through it, to find connections that leak them.
#include "CFaultInjection.h"
#include <stdatomic.h>
#include <string.h>

static atomic_int countdown = 0;   // 0: disarmed
static atomic_int persistent = 0;
static atomic_int fault_kind = GRDBLiteIOFaultError;
static atomic_int faults = 0;
static atomic_int operations = 0;
static atomic_int tripped = 0;
static atomic_int open_files = 0;  // opened - closed, whatever the arming
static atomic_int first_operation = 0;  // the code of the operation the first fault hit
static atomic_int first_detail = 0;     // GRDBLiteIOFaultInCheckpoint, the lock level of an xLock
/// Whether this thread's connection holds the WAL checkpoint lock (its
/// xShmLock slot 1, exclusive): it runs a checkpoint.
static _Thread_local int in_checkpoint = 0;
/// The lock level of the xLock being counted, on this thread.
static _Thread_local int lock_level = 0;

void grdblite_fault_vfs_arm(int count, int isPersistent, GRDBLiteIOFaultKind kind) {
    atomic_store(&faults, 0);
    atomic_store(&operations, 0);
    atomic_store(&tripped, 0);
    atomic_store(&first_operation, 0);
    atomic_store(&first_detail, 0);
    atomic_store(&persistent, isPersistent);
    atomic_store(&fault_kind, kind);
    atomic_store(&countdown, count);
}

void grdblite_fault_vfs_disarm(void) {
    atomic_store(&countdown, 0);
    atomic_store(&tripped, 0);
}

int grdblite_fault_vfs_fault_count(void) { return atomic_load(&faults); }
int grdblite_fault_vfs_operation_count(void) { return atomic_load(&operations); }
int grdblite_fault_vfs_open_file_count(void) { return atomic_load(&open_files); }
int grdblite_fault_vfs_first_fault_operation(void) { return atomic_load(&first_operation); }
int grdblite_fault_vfs_first_fault_detail(void) { return atomic_load(&first_detail); }

/// Counts an operation of kind `isWrite` (one that needs more room on
/// the disk) and tells whether it must fail. A disk-full run counts only
/// those; a short-read run only reads (`isWrite` < 0). `operation` is the
/// operation's own code, recorded when the first fault hits it.
static int should_fail(int isWrite, int operation) {
    int kind = atomic_load(&fault_kind);
    if (kind == GRDBLiteIOFaultDiskFull && isWrite != 1) return 0;
    if (kind == GRDBLiteIOFaultShortRead && isWrite != -1) return 0;
    if (atomic_load(&countdown) == 0 && !atomic_load(&tripped)) return 0;
    atomic_fetch_add(&operations, 1);
    if (atomic_load(&tripped)) {
        if (!atomic_load(&persistent)) return 0;
        atomic_fetch_add(&faults, 1);
        return 1;
    }
    if (atomic_fetch_sub(&countdown, 1) == 1) {
        atomic_store(&first_operation, operation);
        int detail = operation == SQLITE_IOERR_LOCK ? lock_level : 0;
        if (in_checkpoint) detail |= GRDBLiteIOFaultInCheckpoint;
        atomic_store(&first_detail, detail);
        atomic_store(&tripped, 1);
        atomic_fetch_add(&faults, 1);
        return 1;
    }
    return 0;
}

static int failure(int code) {
    return atomic_load(&fault_kind) == GRDBLiteIOFaultDiskFull ? SQLITE_FULL : code;
}

typedef struct FaultFile {
    sqlite3_file base;
    sqlite3_file *real;   // follows this struct, in the same allocation
    int shmRegions;       // WAL index regions this connection has mapped
} FaultFile;

static sqlite3_vfs *real_vfs(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }
#define REAL(file) (((FaultFile *)(file))->real)

static int f_close(sqlite3_file *file) {
    int code = SQLITE_OK;
    if (REAL(file)->pMethods) code = REAL(file)->pMethods->xClose(REAL(file));
    atomic_fetch_sub(&open_files, 1);
    return code;
}
static int f_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    if (atomic_load(&fault_kind) == GRDBLiteIOFaultShortRead) {
        if (!should_fail(-1, SQLITE_IOERR_SHORT_READ)) {
            return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
        }
        // As if the file ended halfway: the VFS contract wants the rest
        // of the buffer zero-filled.
        int half = amount / 2;
        int code = half > 0 ? REAL(file)->pMethods->xRead(REAL(file), buffer, half, offset) : SQLITE_OK;
        if (code != SQLITE_OK && code != SQLITE_IOERR_SHORT_READ) return code;
        memset((char *)buffer + half, 0, (size_t)(amount - half));
        return SQLITE_IOERR_SHORT_READ;
    }
    if (should_fail(0, SQLITE_IOERR_READ)) return SQLITE_IOERR_READ;
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}
static int f_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    if (should_fail(1, SQLITE_IOERR_WRITE)) return failure(SQLITE_IOERR_WRITE);
    return REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
}
static int f_truncate(sqlite3_file *file, sqlite3_int64 size) {
    // A truncate that grows the file needs room: disk full fails it.
    sqlite3_int64 current = 0;
    int grows = REAL(file)->pMethods->xFileSize(REAL(file), &current) == SQLITE_OK && size > current;
    if (should_fail(grows, SQLITE_IOERR_TRUNCATE)) return failure(SQLITE_IOERR_TRUNCATE);
    return REAL(file)->pMethods->xTruncate(REAL(file), size);
}
static int f_sync(sqlite3_file *file, int flags) {
    if (should_fail(0, SQLITE_IOERR_FSYNC)) return SQLITE_IOERR_FSYNC;
    return REAL(file)->pMethods->xSync(REAL(file), flags);
}
static int f_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    if (should_fail(0, SQLITE_IOERR_FSTAT)) return SQLITE_IOERR_FSTAT;
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}
static int f_lock(sqlite3_file *file, int level) {
    lock_level = level;
    if (should_fail(0, SQLITE_IOERR_LOCK)) return SQLITE_IOERR_LOCK;
    return REAL(file)->pMethods->xLock(REAL(file), level);
}
static int f_unlock(sqlite3_file *file, int level) {
    // The lock is released all the same: a lock left behind would block
    // the other connections for good, which no real failure does.
    int code = REAL(file)->pMethods->xUnlock(REAL(file), level);
    if (should_fail(0, SQLITE_IOERR_UNLOCK)) return SQLITE_IOERR_UNLOCK;
    return code;
}
static int f_check_reserved_lock(sqlite3_file *file, int *result) {
    if (should_fail(0, SQLITE_IOERR_CHECKRESERVEDLOCK)) {
        *result = 0;
        return SQLITE_IOERR_CHECKRESERVEDLOCK;
    }
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}
static int f_file_control(sqlite3_file *file, int op, void *arg) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, arg);
}
static int f_sector_size(sqlite3_file *file) {
    return REAL(file)->pMethods->xSectorSize(REAL(file));
}
static int f_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int f_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **pointer) {
    // A region this connection has not mapped yet, that it may create:
    // the WAL index grows, and disk full fails it.
    FaultFile *fault = (FaultFile *)file;
    int grows = extend && page >= fault->shmRegions;
    if (should_fail(grows, SQLITE_IOERR_SHMMAP)) return failure(SQLITE_IOERR_SHMMAP);
    int code = REAL(file)->pMethods->xShmMap(REAL(file), page, size, extend, pointer);
    if (code == SQLITE_OK && *pointer && page >= fault->shmRegions) fault->shmRegions = page + 1;
    return code;
}
static int f_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    // WAL_CKPT_LOCK, the second slot, alone and exclusive: a checkpoint.
    int isCheckpointLock = offset == 1 && n == 1 && (flags & SQLITE_SHM_EXCLUSIVE);
    if (flags & SQLITE_SHM_UNLOCK) {
        if (isCheckpointLock) in_checkpoint = 0;
        // Released all the same, as in f_unlock.
        int code = REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
        if (should_fail(0, GRDBLiteIOFaultShmUnlock)) return SQLITE_IOERR_SHMLOCK;
        return code;
    }
    // Taking the checkpoint lock is part of the checkpoint.
    if (isCheckpointLock) in_checkpoint = 1;
    int code = should_fail(0, SQLITE_IOERR_SHMLOCK)
        ? SQLITE_IOERR_SHMLOCK : REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
    if (code != SQLITE_OK && isCheckpointLock) in_checkpoint = 0;
    return code;
}
static void f_shm_barrier(sqlite3_file *file) {
    REAL(file)->pMethods->xShmBarrier(REAL(file));
}
static int f_shm_unmap(sqlite3_file *file, int deleteFlag) {
    ((FaultFile *)file)->shmRegions = 0;
    return REAL(file)->pMethods->xShmUnmap(REAL(file), deleteFlag);
}
static int f_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, pointer);
}
static int f_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    return REAL(file)->pMethods->xUnfetch(REAL(file), offset, pointer);
}

static const sqlite3_io_methods fault_io_methods = {
    3,
    f_close, f_read, f_write, f_truncate, f_sync, f_file_size,
    f_lock, f_unlock, f_check_reserved_lock, f_file_control,
    f_sector_size, f_device_characteristics,
    f_shm_map, f_shm_lock, f_shm_barrier, f_shm_unmap,
    f_fetch, f_unfetch,
};

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    FaultFile *fault = (FaultFile *)file;
    fault->real = (sqlite3_file *)&fault[1];
    fault->real->pMethods = NULL;
    fault->shmRegions = 0;
    file->pMethods = NULL;
    if (should_fail(0, SQLITE_CANTOPEN)) return SQLITE_CANTOPEN;
    int code = real_vfs(vfs)->xOpen(real_vfs(vfs), name, fault->real, flags, outFlags);
    if (fault->real->pMethods) {
        // SQLite calls xClose whenever pMethods is set, even on failure.
        file->pMethods = &fault_io_methods;
        atomic_fetch_add(&open_files, 1);
    }
    return code;
}
static int v_delete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    if (should_fail(0, SQLITE_IOERR_DELETE)) return SQLITE_IOERR_DELETE;
    return real_vfs(vfs)->xDelete(real_vfs(vfs), name, syncDirectory);
}
static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    if (should_fail(0, SQLITE_IOERR_ACCESS)) {
        *result = 0;
        return SQLITE_IOERR_ACCESS;
    }
    return real_vfs(vfs)->xAccess(real_vfs(vfs), name, flags, result);
}
static int v_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return real_vfs(vfs)->xFullPathname(real_vfs(vfs), name, size, out);
}
static void *v_dl_open(sqlite3_vfs *vfs, const char *name) {
    return real_vfs(vfs)->xDlOpen(real_vfs(vfs), name);
}
static void v_dl_error(sqlite3_vfs *vfs, int size, char *out) {
    real_vfs(vfs)->xDlError(real_vfs(vfs), size, out);
}
static void (*v_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    return real_vfs(vfs)->xDlSym(real_vfs(vfs), handle, symbol);
}
static void v_dl_close(sqlite3_vfs *vfs, void *handle) {
    real_vfs(vfs)->xDlClose(real_vfs(vfs), handle);
}
static int v_randomness(sqlite3_vfs *vfs, int size, char *out) {
    return real_vfs(vfs)->xRandomness(real_vfs(vfs), size, out);
}
static int v_sleep(sqlite3_vfs *vfs, int microseconds) {
    return real_vfs(vfs)->xSleep(real_vfs(vfs), microseconds);
}
static int v_current_time(sqlite3_vfs *vfs, double *out) {
    return real_vfs(vfs)->xCurrentTime(real_vfs(vfs), out);
}
static int v_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    return real_vfs(vfs)->xGetLastError(real_vfs(vfs), size, out);
}
static int v_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    return real_vfs(vfs)->xCurrentTimeInt64(real_vfs(vfs), out);
}

static sqlite3_vfs fault_vfs;

int grdblite_fault_vfs_register(void) {
    static atomic_int registered = 0;
    if (atomic_exchange(&registered, 1)) return SQLITE_OK;
    int code = sqlite3_initialize();
    if (code != SQLITE_OK) return code;
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (!real) return SQLITE_ERROR;
    memset(&fault_vfs, 0, sizeof(fault_vfs));
    fault_vfs.iVersion = 2;
    fault_vfs.szOsFile = (int)sizeof(FaultFile) + real->szOsFile;
    fault_vfs.mxPathname = real->mxPathname;
    fault_vfs.zName = "grdblite-fault";
    fault_vfs.pAppData = real;
    fault_vfs.xOpen = v_open;
    fault_vfs.xDelete = v_delete;
    fault_vfs.xAccess = v_access;
    fault_vfs.xFullPathname = v_full_pathname;
    fault_vfs.xDlOpen = v_dl_open;
    fault_vfs.xDlError = v_dl_error;
    fault_vfs.xDlSym = v_dl_sym;
    fault_vfs.xDlClose = v_dl_close;
    fault_vfs.xRandomness = v_randomness;
    fault_vfs.xSleep = v_sleep;
    fault_vfs.xCurrentTime = v_current_time;
    fault_vfs.xGetLastError = v_get_last_error;
    fault_vfs.xCurrentTimeInt64 = v_current_time_int64;
    return sqlite3_vfs_register(&fault_vfs, 0);
}
