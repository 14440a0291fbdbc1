// Fault injection for GRDBLite's reliability tests, after SQLite's own
// test harness: I/O errors and power cuts through VFSes, allocation
// failures through the allocator. Test support only: not part of GRDBLite.
#ifndef CFAULTINJECTION_H
#define CFAULTINJECTION_H

#include <sqlite3.h>

// MARK: I/O faults

/// The kinds of I/O failure the fault VFS injects.
typedef enum {
    /// Each operation fails with its own code: SQLITE_IOERR_READ, WRITE,
    /// FSYNC, TRUNCATE, FSTAT (xFileSize), DELETE, ACCESS, LOCK (xLock),
    /// UNLOCK (xUnlock), CHECKRESERVEDLOCK, SHMMAP, SHMLOCK (xShmLock), or
    /// SQLITE_CANTOPEN (xOpen). A failed unlock (xUnlock, or xShmLock
    /// releasing) still releases the lock: a lock left behind would block
    /// the other connections for good. xClose never fails.
    GRDBLiteIOFaultError = 0,
    /// Only operations that need more room on the disk fail, with
    /// SQLITE_FULL: writes, truncates that grow a file, and maps of a WAL
    /// index region the connection has not mapped yet with `extend` set.
    /// Only those are counted.
    GRDBLiteIOFaultDiskFull = 1,
    /// Only reads are counted, and a failed read is short: the first half
    /// of the buffer is read, the rest zero-filled, and it returns
    /// SQLITE_IOERR_SHORT_READ, as if the file ended halfway. SQLite takes
    /// that for the end of the file, not for an error: it may read zeros
    /// as data (a WAL that seems shorter, SQLITE_CORRUPT).
    GRDBLiteIOFaultShortRead = 2,
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

/// What `grdblite_fault_vfs_first_fault_operation` returns for a failed
/// xShmLock that releases a lock (which fails with SQLITE_IOERR_SHMLOCK,
/// as one that takes a lock does).
#define GRDBLiteIOFaultShmUnlock (-2)

/// The operation the first fault since the last `arm` hit, by its own
/// code whatever the kind of fault: SQLITE_IOERR_READ, WRITE, FSYNC,
/// TRUNCATE, FSTAT, LOCK, UNLOCK, CHECKRESERVEDLOCK, SHMMAP, SHMLOCK (a
/// lock taken), GRDBLiteIOFaultShmUnlock (a lock released), DELETE, ACCESS,
/// SQLITE_CANTOPEN (xOpen), SQLITE_IOERR_SHORT_READ (a short read); 0 when
/// no fault was injected.
int grdblite_fault_vfs_first_fault_operation(void);

/// The bit of `grdblite_fault_vfs_first_fault_detail` set when the first
/// fault hit a thread whose connection held the WAL checkpoint lock
/// (xShmLock slot 1, exclusive): inside a checkpoint, an explicit one, the
/// automatic one after a commit, or the one of the last close.
#define GRDBLiteIOFaultInCheckpoint 0x100

/// Where the first fault since the last `arm` hit: the lock level asked
/// (SQLITE_LOCK_SHARED...EXCLUSIVE) when it hit xLock, ORed with
/// GRDBLiteIOFaultInCheckpoint inside a checkpoint; 0 when none.
int grdblite_fault_vfs_first_fault_detail(void);

/// The number of files open through the VFS: opened (xOpen set the file's
/// methods) minus closed (xClose), since the process started, whatever the
/// arming. Zero once every connection of the VFS is closed.
int grdblite_fault_vfs_open_file_count(void);

// MARK: Power loss

// The power-loss VFS ("grdblite-powerloss") forwards every operation to
// the default VFS, whose files play the page cache of the operating
// system, and models on the side what the disk holds:
//
// - Per file (by path, whichever connection writes it), the durable
//   content, as of the file's last xSync, and the writes and truncates
//   made since. A file that existed when it was first opened after `arm`
//   is durable as it was; a file created since is absent from the disk
//   until its first xSync (or its directory's sync, see below).
// - At the cut, the disk image is each file's durable content plus each
//   unsynced write, one sector at a time (512 bytes unless configured):
//   the sector reached the disk (kept), did not (dropped: the old content
//   stays), or was torn (garbage: random bytes). The file
//   grows up to the last sector that reached the disk. An unsynced
//   truncate is kept or dropped. The seed draws the run's odds of the
//   three fates (each 0 to 3 in 4: some runs keep everything, as a
//   process crash, some drop everything) and then each sector's fate.
// - The image is written into the directory given to `arm` (one file per
//   tracked file, same base name), then every later I/O of the VFS's
//   connections fails with an SQLITE_IOERR code (or SQLITE_CANTOPEN), as
//   a machine that lost power. Closing still works (it releases locks and
//   file descriptors, which a reboot does too).
// - Directories, when the run models them (`grdblite_powerloss_configure`
//   with `directories` set): a file is an inode named by a directory
//   entry. Creating or deleting a file changes the directory, and the
//   change reaches the disk only when the directory is synced, as the
//   unix VFS does: xDelete with its sync flag (`synchronous = EXTRA`
//   deletes a rollback journal so), and the first xSync of a journal or
//   WAL opened with SQLITE_OPEN_CREATE. At the cut, the changes not synced
//   reached the disk up to a random point, in order (a journaling file
//   system keeps their order): a deleted journal may come back with its
//   durable content, a new file may be absent. Without, a delete is
//   durable at once and a new file from its first xSync.
// - The device: the sector the model tears (512 or 4096 bytes) and
//   whether it has powersafe overwrite (a torn sector damages only the
//   bytes the write covered; without, the whole sector), and what xSectorSize
//   and xDeviceCharacteristics report (the real VFS's by default, 4096
//   and SQLITE_IOCAP_POWERSAFE_OVERWRITE; SQLITE_FCNTL_POWERSAFE_OVERWRITE
//   answers as xDeviceCharacteristics). SQLITE_FCNTL_SIZE_HINT, which may
//   grow the file, is an unsynced change of its size; the other file
//   controls (SQLITE_FCNTL_SYNC, the hint before a commit's sync that the
//   unix VFS ignores) pass through.
//
// Simplifications (the model is SQLite's crash VFS idea, not a file
// system):
// - Directories are modelled only when configured (see above); the
//   directory that holds a path is its text up to the last slash.
// - A deleted file that comes back holds its durable content and, sector
//   by sector, the writes not synced when it was deleted, as a live file.
// - The `-shm` WAL index is memory: never part of the image (SQLite
//   rebuilds it from the WAL).
// - Operations are ordered as the VFS sees them; reordering among unsynced
//   writes is covered only in that each sector's fate is independent.
// - While armed, xSync does not call the real fsync: the model decides
//   what is durable, and real syncs would only slow the runs down.
// - Only files opened through the VFS after `arm` are in the image: each
//   run should use its own directory and open everything through the VFS.

/// The disk the power-loss model simulates, and what the VFS reports of
/// it (`grdblite_powerloss_configure`).
typedef struct GRDBLitePowerLossDisk {
    /// The unit of a torn write, in bytes: a power of two, 512...65536.
    int sectorSize;
    /// 1: a torn sector damages only the bytes the write covered; 0: the
    /// whole sector.
    int powersafeOverwrite;
    /// 1: creations and deletes reach the disk when their directory is
    /// synced; 0: a delete at once, a creation with the file's first sync.
    int directories;
    /// 1: the directory syncs SQLite asks for happen; 0: they are skipped
    /// (a self-check: the model must then lose data).
    int directorySyncs;
    /// What xSectorSize returns; 0 or less: the real VFS's answer.
    int reportedSectorSize;
    /// What xDeviceCharacteristics returns (SQLITE_IOCAP_ flags); -1: the
    /// real VFS's answer.
    int reportedCharacteristics;
} GRDBLitePowerLossDisk;

/// Registers the VFS named "grdblite-powerloss" (once; not the default
/// VFS), a wrapper of the default VFS. Open a database with it through the
/// URI `file:/path?vfs=grdblite-powerloss`. Until `arm`, it only forwards.
/// Returns an SQLite code.
int grdblite_powerloss_vfs_register(void);

/// Starts a run: forgets every tracked file, zeroes the counters, and
/// tracks every file opened from now on. When `cutAtSync` > 0 and
/// `imageDirectory` is not NULL, the `cutAtSync`-th xSync from now (1:
/// the next one) does not complete: the power is cut, the disk image
/// (drawn with `seed`) is written into `imageDirectory`, and every later
/// I/O fails. With `cutAtSync` = 0, the run only counts syncs and writes.
/// Returns an SQLite code (SQLITE_NOMEM).
int grdblite_powerloss_arm(int cutAtSync, unsigned int seed, const char *imageDirectory);

/// Starts a run as `grdblite_powerloss_arm`, but cuts the power at the
/// `cutAtWrite`-th xWrite from now (which does not happen): for
/// workloads that never sync (`PRAGMA synchronous = OFF`).
int grdblite_powerloss_arm_at_write(int cutAtWrite, unsigned int seed, const char *imageDirectory);

/// Cuts the power now, if the run was armed with an image directory and
/// the power is still on: after a workload, to check the state it left
/// (its last deletes included, which no later sync follows).
void grdblite_powerloss_cut_now(void);

/// Ends the run: forgets the tracked files, revives the VFS (it forwards
/// again). Close the connections of the run first. The counters stay
/// readable until the next `arm`.
void grdblite_powerloss_disarm(void);

/// After `arm` (which sets the default disk: 512-byte sectors, powersafe
/// overwrite, no directories, the real VFS's answers) and before opening
/// files: the disk of the run. Returns SQLITE_MISUSE for a sector size
/// out of range.
int grdblite_powerloss_configure(GRDBLitePowerLossDisk disk);

/// The number of directory syncs since the last `arm`.
int grdblite_powerloss_directory_sync_count(void);

/// The number of files of the cut's image that the page cache had deleted
/// or replaced by a new file (a journal that came back): 0 before the cut.
int grdblite_powerloss_resurrected_count(void);

/// After `arm`: the `atSync`-th xSync from now fails with
/// SQLITE_IOERR_FSYNC, as Linux fails an fsync after a write-back error
/// ("fsyncgate"): the writes made to the file since its last sync are
/// dropped from the disk (the model forgets them), while the page cache
/// (the real file) keeps them, so reads still see them; later syncs
/// succeed, and make durable only what is written after. A power cut
/// later shows what the disk lost.
void grdblite_powerloss_fail_sync(int atSync);

/// 1 if the sync that `grdblite_powerloss_fail_sync` chose failed since
/// the last `arm`, 0 if not.
int grdblite_powerloss_sync_failed(void);

/// The number of xSync calls since the last `arm`, the one cut included.
int grdblite_powerloss_sync_count(void);

/// The number of xWrite calls since the last `arm`, the one cut included.
int grdblite_powerloss_write_count(void);

/// 1 if the power was cut since the last `arm` (the image is written), 0
/// if not.
int grdblite_powerloss_did_cut(void);

/// 1 if the model failed since the last `arm` (out of memory, or the image
/// could not be written): the run proves nothing. 0 if not.
int grdblite_powerloss_model_error(void);

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

/// The number of allocations made through the allocator since it was
/// installed and not yet freed: back to its former value once everything
/// that allocated is closed, unless something leaked.
long grdblite_fault_malloc_outstanding(void);

#endif
