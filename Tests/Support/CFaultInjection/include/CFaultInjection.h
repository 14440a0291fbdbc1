// Fault injection for GRDBLite's reliability tests, after SQLite's own
// test harness: I/O errors through a VFS, allocation failures through the
// allocator. Test support only: not part of GRDBLite.
#ifndef CFAULTINJECTION_H
#define CFAULTINJECTION_H

#include <sqlite3.h>

// MARK: I/O faults

/// The kinds of I/O failure the fault VFS injects.
typedef enum {
    /// Each operation fails with its own SQLITE_IOERR_* code (READ,
    /// WRITE, FSYNC, TRUNCATE, FSTAT, DELETE, SHMMAP), or SQLITE_CANTOPEN.
    GRDBLiteIOFaultError = 0,
    /// Writes fail with SQLITE_FULL, as on a full disk; other operations
    /// are not failed.
    GRDBLiteIOFaultDiskFull = 1,
} GRDBLiteIOFaultKind;

/// Registers the VFS named "grdblite-fault" (once; not the default VFS),
/// a wrapper of the default VFS. Open a database with it through the URI
/// `file:/path?vfs=grdblite-fault`. Returns an SQLite code.
int grdblite_fault_vfs_register(void);

/// Makes the `countdown`-th I/O operation from now fail (1: the next
/// one), and every later one too if `persistent` is non-zero, until
/// `grdblite_fault_vfs_disarm`.
void grdblite_fault_vfs_arm(int countdown, int persistent, GRDBLiteIOFaultKind kind);

/// Stops injecting faults.
void grdblite_fault_vfs_disarm(void);

/// The number of faults injected since the last `arm`.
int grdblite_fault_vfs_fault_count(void);

/// The number of I/O operations counted since the last `arm`.
int grdblite_fault_vfs_operation_count(void);

// MARK: Allocation faults

/// Replaces SQLite's allocator with one that can fail. Must run before
/// SQLite is used in the process (it calls sqlite3_shutdown, then
/// sqlite3_config, then sqlite3_initialize). Returns an SQLite code.
int grdblite_fault_malloc_install(void);

/// Makes the `countdown`-th SQLite allocation from now fail (1: the next
/// one), and every later one too if `persistent` is non-zero.
void grdblite_fault_malloc_arm(int countdown, int persistent);

/// Stops failing allocations.
void grdblite_fault_malloc_disarm(void);

/// The number of allocations failed since the last `arm`.
int grdblite_fault_malloc_fault_count(void);

#endif
