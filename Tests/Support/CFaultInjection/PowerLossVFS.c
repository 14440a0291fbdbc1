// A VFS that simulates a power cut, after the idea of SQLite's crash
// tests: it forwards every operation to the default VFS (whose files play
// the role of the operating system's page cache), and keeps on the side,
// per file, what a disk would hold: the content as of the file's last
// xSync ("durable"), and the writes and truncates made since. At the cut,
// it writes into a directory the image that a power loss could leave on
// the disk, then fails every later I/O as a dead machine would. The model
// and its simplifications are described in CFaultInjection.h.
#include "CFaultInjection.h"
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: Byte buffers

/// A growable byte array: the content of a file.
typedef struct Buffer {
    unsigned char *bytes;
    size_t size;
    size_t capacity;
} Buffer;

static void buffer_free(Buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}

/// Sets the size of the buffer, zero-filling what it gains (as a file
/// extended past its end reads zeros). Returns 0 when out of memory.
static int buffer_resize(Buffer *buffer, size_t size) {
    if (size > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < size) {
            if (capacity > SIZE_MAX / 2) return 0;
            capacity *= 2;
        }
        unsigned char *bytes = realloc(buffer->bytes, capacity);
        if (!bytes) return 0;
        buffer->bytes = bytes;
        buffer->capacity = capacity;
    }
    if (size > buffer->size) memset(buffer->bytes + buffer->size, 0, size - buffer->size);
    buffer->size = size;
    return 1;
}

/// Copies `amount` bytes at `offset`, extending the buffer if needed.
/// Returns 0 when out of memory.
static int buffer_write(Buffer *buffer, size_t offset, const unsigned char *bytes, size_t amount) {
    if (amount == 0) return 1;
    if (offset + amount > buffer->size && !buffer_resize(buffer, offset + amount)) return 0;
    memcpy(buffer->bytes + offset, bytes, amount);
    return 1;
}

/// Copies `source` into `destination`. Returns 0 when out of memory.
static int buffer_copy(Buffer *destination, const Buffer *source) {
    destination->size = 0;
    if (!buffer_resize(destination, source->size)) return 0;
    if (source->size) memcpy(destination->bytes, source->bytes, source->size);
    return 1;
}

/// A copy of a string (strdup is not standard C before C23), or NULL when
/// out of memory.
static char *copy_string(const char *string) {
    size_t length = strlen(string) + 1;
    char *copy = malloc(length);
    if (copy) memcpy(copy, string, length);
    return copy;
}

// MARK: Files and directories

/// A write or a truncate that no xSync has made durable yet.
typedef struct PendingOperation {
    int isTruncate;
    sqlite3_int64 offset;   // a write: where it starts; a truncate: the new size
    size_t amount;          // a write: its length
    unsigned char *bytes;   // a write: a copy of its bytes
} PendingOperation;

/// The content of one file (an inode): what the disk holds as of its last
/// xSync, and what was written since. A path may name several in turn (a
/// journal deleted, then created again): the disk may still hold the old
/// one after a power cut if the directory was not synced in between.
typedef struct Inode {
    Buffer durable;
    PendingOperation *pending;
    size_t pendingCount;
    size_t pendingCapacity;
    struct Inode *next;   // every inode of the run, to free them
} Inode;

/// What the model knows of one path: several connections (a pool's writer
/// and readers) open the same files, and an fsync makes durable what any
/// of them wrote.
typedef struct TrackedFile {
    char *path;
    /// The file the page cache holds at the path; NULL when deleted.
    Inode *current;
    /// The file the directory holds at the path on the disk, as of the
    /// directory's last sync; NULL when absent there.
    Inode *onDisk;
    struct TrackedFile *next;
} TrackedFile;

/// A change of a directory that no directory sync has made durable yet:
/// `file` was created as `inode`, or deleted (`inode` NULL).
typedef struct DirectoryOperation {
    TrackedFile *file;
    Inode *inode;
} DirectoryOperation;

static void inode_clear_pending(Inode *inode) {
    for (size_t index = 0; index < inode->pendingCount; index++) free(inode->pending[index].bytes);
    inode->pendingCount = 0;
}

static void inode_free(Inode *inode) {
    inode_clear_pending(inode);
    free(inode->pending);
    buffer_free(&inode->durable);
    free(inode);
}

/// Appends a pending operation (`bytes` is copied). Returns 0 when out of
/// memory.
static int inode_append(Inode *inode, int isTruncate, sqlite3_int64 offset, const void *bytes, size_t amount) {
    if (inode->pendingCount == inode->pendingCapacity) {
        size_t capacity = inode->pendingCapacity ? inode->pendingCapacity * 2 : 16;
        PendingOperation *pending = realloc(inode->pending, capacity * sizeof(PendingOperation));
        if (!pending) return 0;
        inode->pending = pending;
        inode->pendingCapacity = capacity;
    }
    PendingOperation operation = { isTruncate, offset, amount, NULL };
    if (!isTruncate && amount > 0) {
        operation.bytes = malloc(amount);
        if (!operation.bytes) return 0;
        memcpy(operation.bytes, bytes, amount);
    }
    inode->pending[inode->pendingCount++] = operation;
    return 1;
}

/// Applies the pending operations to the durable content, as a completed
/// xSync does. Returns 0 when out of memory.
static int inode_sync(Inode *inode) {
    for (size_t index = 0; index < inode->pendingCount; index++) {
        const PendingOperation *operation = &inode->pending[index];
        int ok = operation->isTruncate
            ? buffer_resize(&inode->durable, (size_t)operation->offset)
            : buffer_write(&inode->durable, (size_t)operation->offset, operation->bytes, operation->amount);
        if (!ok) return 0;
    }
    inode_clear_pending(inode);
    return 1;
}

// MARK: Global state

// The state of the simulation is global because the VFS is: one
// simulated disk per process. Every connection opened through the VFS
// may run on its own thread (a pool's writer and readers), so all of it
// is read and written with `state_lock` held.
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static int active = 0;            // arm was called since the last disarm: track and count
static unsigned generation = 1;   // bumped by each arm and disarm: inodes of older runs are gone
static int cut_at_sync = 0;       // 0: no cut at a sync
static int cut_at_write = 0;      // 0: no cut at a write
static unsigned int cut_seed = 0;
static char *image_directory = NULL;
static int sync_count = 0;
static int write_count = 0;
static int directory_sync_count = 0;
static int dead = 0;              // the cut happened: every I/O fails
static int cut_done = 0;          // the image was written
static int model_error = 0;       // an allocation or the image failed: the run proves nothing
static int fail_at_sync = 0;      // 0: no sync fails
static int sync_failed = 0;       // the failing sync happened
static int resurrected = 0;       // files of the image that the page cache had deleted or replaced
static GRDBLitePowerLossDisk disk = { 512, 1, 0, 1, -1, -1 };   // default_disk() until configured
static TrackedFile *tracked_files = NULL;
static Inode *inodes = NULL;
static DirectoryOperation *directory_log = NULL;
static size_t directory_log_count = 0;
static size_t directory_log_capacity = 0;

/// The disk of the runs that don't configure one: 512-byte sectors,
/// powersafe overwrite, every directory change durable at once.
static GRDBLitePowerLossDisk default_disk(void) {
    GRDBLitePowerLossDisk value = { 512, 1, 0, 1, -1, -1 };
    return value;
}

/// A new empty inode, or NULL when out of memory. Requires `state_lock`.
static Inode *inode_new(void) {
    Inode *inode = calloc(1, sizeof(Inode));
    if (!inode) return NULL;
    inode->next = inodes;
    inodes = inode;
    return inode;
}

/// The tracked file of `path`, or NULL. Requires `state_lock`.
static TrackedFile *tracked_find(const char *path) {
    for (TrackedFile *file = tracked_files; file; file = file->next) {
        if (strcmp(file->path, path) == 0) return file;
    }
    return NULL;
}

/// A new tracked file, absent from the disk and the page cache, or NULL
/// when out of memory. Requires `state_lock`.
static TrackedFile *tracked_add(const char *path) {
    TrackedFile *file = calloc(1, sizeof(TrackedFile));
    if (!file) return NULL;
    file->path = copy_string(path);
    if (!file->path) {
        free(file);
        return NULL;
    }
    // Appended, so that files are listed in the order they were first
    // opened: the image's random choices then replay with the seed.
    TrackedFile **last = &tracked_files;
    while (*last) last = &(*last)->next;
    *last = file;
    return file;
}

/// Forgets every tracked file, inode and directory change. Requires
/// `state_lock`.
static void tracked_remove_all(void) {
    while (tracked_files) {
        TrackedFile *next = tracked_files->next;
        free(tracked_files->path);
        free(tracked_files);
        tracked_files = next;
    }
    while (inodes) {
        Inode *next = inodes->next;
        inode_free(inodes);
        inodes = next;
    }
    free(directory_log);
    directory_log = NULL;
    directory_log_count = 0;
    directory_log_capacity = 0;
    generation++;
}

/// Whether `path` is in the directory `directory` names (the length of
/// `directory` is that of its path, without the final slash).
static int is_in_directory(const char *path, const char *directory, size_t length) {
    const char *slash = strrchr(path, '/');
    size_t pathLength = slash ? (size_t)(slash - path) : 0;
    return pathLength == length && strncmp(path, directory, length) == 0;
}

/// Syncs the directory of `path`: its pending changes reach the disk.
/// Requires `state_lock`.
static void directory_sync(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t length = slash ? (size_t)(slash - path) : 0;
    size_t kept = 0;
    for (size_t index = 0; index < directory_log_count; index++) {
        DirectoryOperation operation = directory_log[index];
        if (is_in_directory(operation.file->path, path, length)) {
            operation.file->onDisk = operation.inode;
        } else {
            directory_log[kept++] = operation;
        }
    }
    directory_log_count = kept;
    directory_sync_count++;
}

/// Records a change of the directory of `file`; durable at once when the
/// disk does not model directories. Requires `state_lock`.
static void directory_change(TrackedFile *file, Inode *inode) {
    file->current = inode;
    if (!disk.directories) {
        // A delete is durable at once; a creation, with the file's first
        // sync (see p_sync).
        if (!inode) file->onDisk = NULL;
        return;
    }
    if (directory_log_count == directory_log_capacity) {
        size_t capacity = directory_log_capacity ? directory_log_capacity * 2 : 16;
        DirectoryOperation *log = realloc(directory_log, capacity * sizeof(DirectoryOperation));
        if (!log) {
            model_error = 1;
            return;
        }
        directory_log = log;
        directory_log_capacity = capacity;
    }
    DirectoryOperation operation = { file, inode };
    directory_log[directory_log_count++] = operation;
}

// MARK: The power cut

/// A small seeded generator (xorshift32): the image must replay from the
/// seed alone.
static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

enum { KEEP = 0, DROP = 1, GARBAGE = 2 };

/// The fate of a sector or a truncate, drawn with the run's weights.
static int draw_fate(uint32_t *random, const unsigned weights[3]) {
    unsigned total = weights[0] + weights[1] + weights[2];
    unsigned value = next_random(random) % total;
    if (value < weights[KEEP]) return KEEP;
    if (value < weights[KEEP] + weights[DROP]) return DROP;
    return GARBAGE;
}

/// Whether the path names a WAL index (`-shm`), which lives in memory in
/// the model: it is rebuilt from the WAL after a reboot.
static int is_shared_memory_file(const char *path) {
    size_t length = strlen(path);
    return length >= 4 && strcmp(path + length - 4, "-shm") == 0;
}

/// Computes the disk image of `inode` after a power cut into `image`.
/// Returns 0 when out of memory.
static int image_of(const Inode *inode, uint32_t *random, const unsigned weights[3], Buffer *image) {
    if (!buffer_copy(image, &inode->durable)) return 0;
    size_t sectorSize = (size_t)disk.sectorSize;
    for (size_t index = 0; index < inode->pendingCount; index++) {
        const PendingOperation *operation = &inode->pending[index];
        if (operation->isTruncate) {
            // A truncate is metadata: it reached the disk or not (a torn
            // truncate is not modelled).
            if (draw_fate(random, weights) != DROP && !buffer_resize(image, (size_t)operation->offset)) return 0;
            continue;
        }
        // Each sector the write touches reached the disk (KEEP), did not
        // (DROP: the old content stays), or was torn (GARBAGE: random
        // bytes). With powersafe overwrite, a torn sector damages only the
        // bytes the write covered; without, the whole sector (what the
        // write did not cover too, up to the file's end). The file grows up
        // to the end of its last sector that reached the disk, torn or not.
        size_t start = (size_t)operation->offset;
        size_t end = start + operation->amount;
        size_t sector = start / sectorSize * sectorSize;
        for (; sector < end; sector += sectorSize) {
            size_t from = sector > start ? sector : start;
            size_t to = sector + sectorSize < end ? sector + sectorSize : end;
            int fate = draw_fate(random, weights);
            if (fate == DROP) continue;
            if (!buffer_write(image, from, operation->bytes + (from - start), to - from)) return 0;
            if (fate == GARBAGE) {
                size_t first = from, last = to;
                if (!disk.powersafeOverwrite) {
                    first = sector;
                    last = sector + sectorSize < image->size ? sector + sectorSize : image->size;
                }
                for (size_t byte = first; byte < last; byte++) image->bytes[byte] = (unsigned char)next_random(random);
            }
        }
    }
    return 1;
}

/// The last path component.
static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/// Writes `image` as `directory/name`. Returns 0 on failure.
static int write_image_file(const char *directory, const char *name, const Buffer *image) {
    size_t length = strlen(directory) + 1 + strlen(name) + 1;
    char *path = malloc(length);
    if (!path) return 0;
    snprintf(path, length, "%s/%s", directory, name);
    FILE *output = fopen(path, "wb");
    free(path);
    if (!output) return 0;
    int ok = image->size == 0 || fwrite(image->bytes, 1, image->size, output) == image->size;
    if (fclose(output) != 0) ok = 0;
    return ok;
}

/// Cuts the power: writes the image of every tracked file and kills the
/// connections. Requires `state_lock`.
static void power_cut(void) {
    dead = 1;
    uint32_t random = cut_seed * 2654435761u + 0x9E3779B9u;
    if (random == 0) random = 1;   // xorshift's one fixed point
    // The run's weights of the three fates, each 0...3: some runs keep
    // every sector (as a process crash), some drop them all, most mix.
    unsigned weights[3];
    for (int fate = 0; fate < 3; fate++) weights[fate] = next_random(&random) % 4;
    if (weights[KEEP] + weights[DROP] + weights[GARBAGE] == 0) weights[KEEP] = 1;

    // The directory changes not synced reached the disk up to a random
    // point: a journaling file system keeps their order.
    size_t reached = directory_log_count ? next_random(&random) % (directory_log_count + 1) : 0;
    for (size_t index = 0; index < reached; index++) directory_log[index].file->onDisk = directory_log[index].inode;

    Buffer image = { NULL, 0, 0 };
    for (TrackedFile *file = tracked_files; file; file = file->next) {
        if (!file->onDisk || is_shared_memory_file(file->path)) continue;
        if (file->onDisk != file->current) resurrected++;
        if (!image_of(file->onDisk, &random, weights, &image)
            || !write_image_file(image_directory, base_name(file->path), &image)) {
            model_error = 1;
        }
    }
    buffer_free(&image);
    cut_done = 1;
}

// MARK: Control

void grdblite_powerloss_disarm(void) {
    pthread_mutex_lock(&state_lock);
    active = 0;
    dead = 0;
    cut_at_sync = 0;
    cut_at_write = 0;
    disk = default_disk();
    free(image_directory);
    image_directory = NULL;
    tracked_remove_all();
    pthread_mutex_unlock(&state_lock);
}

/// Starts a run. Requires no lock.
static int arm(int atSync, int atWrite, unsigned int seed, const char *directory) {
    grdblite_powerloss_disarm();
    char *copy = NULL;
    if (directory) {
        copy = copy_string(directory);
        if (!copy) return SQLITE_NOMEM;
    }
    pthread_mutex_lock(&state_lock);
    image_directory = copy;
    cut_at_sync = copy && atSync > 0 ? atSync : 0;
    cut_at_write = copy && atWrite > 0 ? atWrite : 0;
    cut_seed = seed;
    sync_count = 0;
    write_count = 0;
    cut_done = 0;
    model_error = 0;
    fail_at_sync = 0;
    sync_failed = 0;
    directory_sync_count = 0;
    resurrected = 0;
    disk = default_disk();
    active = 1;
    pthread_mutex_unlock(&state_lock);
    return SQLITE_OK;
}

int grdblite_powerloss_arm(int cutAtSync, unsigned int seed, const char *imageDirectory) {
    return arm(cutAtSync, 0, seed, imageDirectory);
}

int grdblite_powerloss_arm_at_write(int cutAtWrite, unsigned int seed, const char *imageDirectory) {
    return arm(0, cutAtWrite, seed, imageDirectory);
}

/// Reads one integer of the state with the lock held.
static int read_locked(const int *value) {
    pthread_mutex_lock(&state_lock);
    int result = *value;
    pthread_mutex_unlock(&state_lock);
    return result;
}

void grdblite_powerloss_cut_now(void) {
    pthread_mutex_lock(&state_lock);
    if (active && image_directory && !dead) power_cut();
    pthread_mutex_unlock(&state_lock);
}

int grdblite_powerloss_configure(GRDBLitePowerLossDisk value) {
    int size = value.sectorSize;
    if (size < 512 || size > 65536 || (size & (size - 1)) != 0) return SQLITE_MISUSE;
    pthread_mutex_lock(&state_lock);
    disk = value;
    pthread_mutex_unlock(&state_lock);
    return SQLITE_OK;
}

void grdblite_powerloss_fail_sync(int atSync) {
    pthread_mutex_lock(&state_lock);
    fail_at_sync = atSync;
    pthread_mutex_unlock(&state_lock);
}

int grdblite_powerloss_sync_failed(void) { return read_locked(&sync_failed); }
int grdblite_powerloss_sync_count(void) { return read_locked(&sync_count); }
int grdblite_powerloss_write_count(void) { return read_locked(&write_count); }
int grdblite_powerloss_did_cut(void) { return read_locked(&cut_done); }
int grdblite_powerloss_model_error(void) { return read_locked(&model_error); }
int grdblite_powerloss_directory_sync_count(void) { return read_locked(&directory_sync_count); }
int grdblite_powerloss_resurrected_count(void) { return read_locked(&resurrected); }

// MARK: I/O methods

typedef struct PowerLossFile {
    sqlite3_file base;
    char *path;           // NULL for temporary files, which are not tracked
    sqlite3_file *real;   // follows this struct, in the same allocation
    Inode *inode;         // the file it writes, valid while `inodeGeneration` is `generation`
    unsigned inodeGeneration;
    /// Its next sync syncs its directory too: the unix VFS does so for a
    /// journal or a WAL opened with SQLITE_OPEN_CREATE.
    int syncDirectory;
} PowerLossFile;

static sqlite3_vfs *real_vfs(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }
#define FILE_OF(file) ((PowerLossFile *)(file))
#define REAL(file) (FILE_OF(file)->real)

/// The inode an open file writes; for a file opened before `arm`, or
/// created by another process, it is tracked now and its current content
/// counts as durable. NULL for temporary files, when disarmed, or when out
/// of memory (then `model_error` is set). Requires `state_lock`.
static Inode *inode_for(sqlite3_file *file) {
    PowerLossFile *wrapper = FILE_OF(file);
    if (!active || !wrapper->path) return NULL;
    if (wrapper->inode && wrapper->inodeGeneration == generation) return wrapper->inode;
    TrackedFile *tracked = tracked_find(wrapper->path);
    if (!tracked) tracked = tracked_add(wrapper->path);
    if (tracked && !tracked->current) {
        Inode *inode = inode_new();
        sqlite3_int64 size = 0;
        if (!inode || REAL(file)->pMethods->xFileSize(REAL(file), &size) != SQLITE_OK || size < 0 || size > INT_MAX
            || !buffer_resize(&inode->durable, (size_t)size)
            || (size > 0 && REAL(file)->pMethods->xRead(REAL(file), inode->durable.bytes, (int)size, 0) != SQLITE_OK)) {
            model_error = 1;
        }
        tracked->current = inode;
        tracked->onDisk = inode;
    }
    if (!tracked || !tracked->current) {
        model_error = 1;
        return NULL;
    }
    wrapper->inode = tracked->current;
    wrapper->inodeGeneration = generation;
    return wrapper->inode;
}

static int p_close(sqlite3_file *file) {
    int code = SQLITE_OK;
    if (REAL(file)->pMethods) code = REAL(file)->pMethods->xClose(REAL(file));
    free(FILE_OF(file)->path);
    FILE_OF(file)->path = NULL;
    return code;
}
static int p_read(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    if (read_locked(&dead)) return SQLITE_IOERR_READ;
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}
static int p_write(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    pthread_mutex_lock(&state_lock);
    int code = SQLITE_IOERR_WRITE;
    if (!dead) {
        if (active) write_count++;
        if (cut_at_write && write_count == cut_at_write) {
            power_cut();   // the write does not happen
        } else {
            Inode *inode = inode_for(file);
            code = REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
            if (code == SQLITE_OK && inode && !inode_append(inode, 0, offset, buffer, (size_t)amount)) {
                model_error = 1;
            }
        }
    }
    pthread_mutex_unlock(&state_lock);
    return code;
}
static int p_truncate(sqlite3_file *file, sqlite3_int64 size) {
    pthread_mutex_lock(&state_lock);
    int code = SQLITE_IOERR_TRUNCATE;
    if (!dead) {
        Inode *inode = inode_for(file);
        code = REAL(file)->pMethods->xTruncate(REAL(file), size);
        if (code == SQLITE_OK && inode && !inode_append(inode, 1, size, NULL, 0)) model_error = 1;
    }
    pthread_mutex_unlock(&state_lock);
    return code;
}
static int p_sync(sqlite3_file *file, int flags) {
    pthread_mutex_lock(&state_lock);
    int code = SQLITE_IOERR_FSYNC;
    if (!dead) {
        if (active) sync_count++;
        if (cut_at_sync && sync_count == cut_at_sync) {
            power_cut();   // the sync does not complete
        } else if (active && fail_at_sync && sync_count == fail_at_sync) {
            // Linux after an fsync error: the dirty pages are marked clean
            // without reaching the disk. The page cache (the real file)
            // keeps them, the disk never gets them, later syncs succeed.
            Inode *inode = inode_for(file);
            if (inode) inode_clear_pending(inode);
            sync_failed = 1;
        } else if (active) {
            // The model, not the real disk, decides what is durable: a
            // real fsync would only slow the runs down.
            Inode *inode = inode_for(file);
            if (inode && !inode_sync(inode)) model_error = 1;
            TrackedFile *tracked = tracked_find(FILE_OF(file)->path);
            if (!disk.directories) {
                // Without a model of directories, a new file reaches the
                // disk with its first sync.
                if (tracked && inode && tracked->current == inode) tracked->onDisk = inode;
            } else if (FILE_OF(file)->syncDirectory && disk.directorySyncs) {
                directory_sync(FILE_OF(file)->path);
            }
            FILE_OF(file)->syncDirectory = 0;
            code = SQLITE_OK;
        } else {
            code = REAL(file)->pMethods->xSync(REAL(file), flags);
        }
    }
    pthread_mutex_unlock(&state_lock);
    return code;
}
static int p_file_size(sqlite3_file *file, sqlite3_int64 *size) {
    if (read_locked(&dead)) return SQLITE_IOERR_FSTAT;
    return REAL(file)->pMethods->xFileSize(REAL(file), size);
}
static int p_lock(sqlite3_file *file, int level) {
    if (read_locked(&dead)) return SQLITE_IOERR_LOCK;
    return REAL(file)->pMethods->xLock(REAL(file), level);
}
static int p_unlock(sqlite3_file *file, int level) {
    // Unlocking changes nothing on the disk: a dead connection may close.
    return REAL(file)->pMethods->xUnlock(REAL(file), level);
}
static int p_check_reserved_lock(sqlite3_file *file, int *result) {
    if (read_locked(&dead)) return SQLITE_IOERR_CHECKRESERVEDLOCK;
    return REAL(file)->pMethods->xCheckReservedLock(REAL(file), result);
}
/// Reads the configured disk with the lock held.
static GRDBLitePowerLossDisk configured_disk(void) {
    pthread_mutex_lock(&state_lock);
    GRDBLitePowerLossDisk value = disk;
    pthread_mutex_unlock(&state_lock);
    return value;
}
static int p_file_control(sqlite3_file *file, int op, void *arg) {
    if (op == SQLITE_FCNTL_SIZE_HINT) {
        // The unix VFS may grow the file to the hinted size (with a chunk
        // size): a change of the file the disk may not hold, as a truncate.
        pthread_mutex_lock(&state_lock);
        int code = SQLITE_IOERR_TRUNCATE;
        if (!dead) {
            Inode *inode = inode_for(file);
            sqlite3_int64 before = 0, after = 0;
            if (REAL(file)->pMethods->xFileSize(REAL(file), &before) != SQLITE_OK) before = -1;
            code = REAL(file)->pMethods->xFileControl(REAL(file), op, arg);
            if (inode && before >= 0 && REAL(file)->pMethods->xFileSize(REAL(file), &after) == SQLITE_OK
                && after > before && !inode_append(inode, 1, after, NULL, 0)) {
                model_error = 1;
            }
        }
        pthread_mutex_unlock(&state_lock);
        return code;
    }
    if (op == SQLITE_FCNTL_POWERSAFE_OVERWRITE) {
        // The answer must agree with xDeviceCharacteristics.
        pthread_mutex_lock(&state_lock);
        int code = SQLITE_NOTFOUND;
        if (disk.reportedCharacteristics >= 0) {
            int *value = arg;
            if (*value < 0) {
                *value = (disk.reportedCharacteristics & SQLITE_IOCAP_POWERSAFE_OVERWRITE) != 0;
            } else if (*value) {
                disk.reportedCharacteristics |= SQLITE_IOCAP_POWERSAFE_OVERWRITE;
            } else {
                disk.reportedCharacteristics &= ~SQLITE_IOCAP_POWERSAFE_OVERWRITE;
            }
            code = SQLITE_OK;
        }
        pthread_mutex_unlock(&state_lock);
        if (code == SQLITE_OK) return code;
    }
    // The others (SQLITE_FCNTL_SYNC, the hint before a commit's sync, which
    // the unix VFS ignores; locks, WAL persistence...) change no data.
    return REAL(file)->pMethods->xFileControl(REAL(file), op, arg);
}
static int p_sector_size(sqlite3_file *file) {
    int reported = configured_disk().reportedSectorSize;
    return reported > 0 ? reported : REAL(file)->pMethods->xSectorSize(REAL(file));
}
static int p_device_characteristics(sqlite3_file *file) {
    int reported = configured_disk().reportedCharacteristics;
    return reported >= 0 ? reported : REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
}
static int p_shm_map(sqlite3_file *file, int page, int size, int extend, void volatile **pointer) {
    if (read_locked(&dead)) return SQLITE_IOERR_SHMMAP;
    return REAL(file)->pMethods->xShmMap(REAL(file), page, size, extend, pointer);
}
static int p_shm_lock(sqlite3_file *file, int offset, int n, int flags) {
    if ((flags & SQLITE_SHM_LOCK) && read_locked(&dead)) return SQLITE_IOERR_SHMLOCK;
    return REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags);
}
static void p_shm_barrier(sqlite3_file *file) {
    REAL(file)->pMethods->xShmBarrier(REAL(file));
}
static int p_shm_unmap(sqlite3_file *file, int deleteFlag) {
    return REAL(file)->pMethods->xShmUnmap(REAL(file), deleteFlag);
}
static int p_fetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **pointer) {
    // Memory-mapped reads see the page cache, as xRead does; SQLite
    // writes through xWrite only.
    return REAL(file)->pMethods->xFetch(REAL(file), offset, amount, pointer);
}
static int p_unfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    return REAL(file)->pMethods->xUnfetch(REAL(file), offset, pointer);
}

static const sqlite3_io_methods powerloss_io_methods = {
    3,
    p_close, p_read, p_write, p_truncate, p_sync, p_file_size,
    p_lock, p_unlock, p_check_reserved_lock, p_file_control,
    p_sector_size, p_device_characteristics,
    p_shm_map, p_shm_lock, p_shm_barrier, p_shm_unmap,
    p_fetch, p_unfetch,
};

// MARK: VFS methods

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    PowerLossFile *wrapper = (PowerLossFile *)file;
    wrapper->real = (sqlite3_file *)&wrapper[1];
    wrapper->real->pMethods = NULL;
    wrapper->path = NULL;
    wrapper->inode = NULL;
    wrapper->inodeGeneration = 0;
    wrapper->syncDirectory = (flags & SQLITE_OPEN_CREATE)
        && (flags & (SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL | SQLITE_OPEN_WAL));
    file->pMethods = NULL;
    if (name) {
        wrapper->path = copy_string(name);
        if (!wrapper->path) return SQLITE_NOMEM;
    }
    pthread_mutex_lock(&state_lock);
    int code = SQLITE_CANTOPEN;
    if (!dead) {
        // A file created by this open is a change of its directory; one
        // that existed counts as durable as it is.
        TrackedFile *tracked = active && name ? tracked_find(name) : NULL;
        int existed = 1;
        if (active && name && !(tracked && tracked->current)
            && real_vfs(vfs)->xAccess(real_vfs(vfs), name, SQLITE_ACCESS_EXISTS, &existed) != SQLITE_OK) {
            existed = 1;
        }
        code = real_vfs(vfs)->xOpen(real_vfs(vfs), name, wrapper->real, flags, outFlags);
        if (wrapper->real->pMethods) file->pMethods = &powerloss_io_methods;
        if (code == SQLITE_OK && active && name && !existed) {
            if (!tracked) tracked = tracked_add(name);
            Inode *inode = inode_new();
            if (tracked && inode) {
                directory_change(tracked, inode);
            } else {
                model_error = 1;
            }
        }
        if (code == SQLITE_OK && active && name) inode_for(file);
    }
    pthread_mutex_unlock(&state_lock);
    if (!file->pMethods) {
        free(wrapper->path);
        wrapper->path = NULL;
    }
    return code;
}
static int v_delete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    pthread_mutex_lock(&state_lock);
    int code = SQLITE_IOERR_DELETE;
    if (!dead) {
        code = real_vfs(vfs)->xDelete(real_vfs(vfs), name, syncDirectory);
        TrackedFile *tracked = active && code == SQLITE_OK ? tracked_find(name) : NULL;
        if (tracked && tracked->current) {
            directory_change(tracked, NULL);
            if (disk.directories && (syncDirectory & 1) && disk.directorySyncs) directory_sync(name);
        }
    }
    pthread_mutex_unlock(&state_lock);
    return code;
}
static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
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

// Registered once and never changed after: SQLite keeps a pointer to it.
static sqlite3_vfs powerloss_vfs;

int grdblite_powerloss_vfs_register(void) {
    static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;
    static int registered = 0;   // guarded by register_lock
    pthread_mutex_lock(&register_lock);
    int code = SQLITE_OK;
    if (!registered) {
        code = sqlite3_initialize();
        sqlite3_vfs *real = code == SQLITE_OK ? sqlite3_vfs_find(NULL) : NULL;
        if (code == SQLITE_OK && !real) code = SQLITE_ERROR;
        if (code == SQLITE_OK) {
            memset(&powerloss_vfs, 0, sizeof(powerloss_vfs));
            powerloss_vfs.iVersion = 2;
            powerloss_vfs.szOsFile = (int)sizeof(PowerLossFile) + real->szOsFile;
            powerloss_vfs.mxPathname = real->mxPathname;
            powerloss_vfs.zName = "grdblite-powerloss";
            powerloss_vfs.pAppData = real;
            powerloss_vfs.xOpen = v_open;
            powerloss_vfs.xDelete = v_delete;
            powerloss_vfs.xAccess = v_access;
            powerloss_vfs.xFullPathname = v_full_pathname;
            powerloss_vfs.xDlOpen = v_dl_open;
            powerloss_vfs.xDlError = v_dl_error;
            powerloss_vfs.xDlSym = v_dl_sym;
            powerloss_vfs.xDlClose = v_dl_close;
            powerloss_vfs.xRandomness = v_randomness;
            powerloss_vfs.xSleep = v_sleep;
            powerloss_vfs.xCurrentTime = v_current_time;
            powerloss_vfs.xGetLastError = v_get_last_error;
            powerloss_vfs.xCurrentTimeInt64 = v_current_time_int64;
            code = sqlite3_vfs_register(&powerloss_vfs, 0);
        }
        if (code == SQLITE_OK) registered = 1;
    }
    pthread_mutex_unlock(&register_lock);
    return code;
}
