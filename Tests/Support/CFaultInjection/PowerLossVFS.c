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

// MARK: Tracked files

/// A write or a truncate that no xSync has made durable yet.
typedef struct PendingOperation {
    int isTruncate;
    sqlite3_int64 offset;   // a write: where it starts; a truncate: the new size
    size_t amount;          // a write: its length
    unsigned char *bytes;   // a write: a copy of its bytes
} PendingOperation;

/// What the model knows of one file, by path: several connections (a
/// pool's writer and readers) open the same files, and an fsync makes
/// durable what any of them wrote.
typedef struct TrackedFile {
    char *path;
    /// Whether the file exists on the disk: it existed when it was first
    /// opened, or it was synced since it was created (not since deleted).
    int durableExists;
    Buffer durable;
    PendingOperation *pending;
    size_t pendingCount;
    size_t pendingCapacity;
    struct TrackedFile *next;
} TrackedFile;

static void tracked_clear_pending(TrackedFile *file) {
    for (size_t index = 0; index < file->pendingCount; index++) free(file->pending[index].bytes);
    file->pendingCount = 0;
}

static void tracked_free(TrackedFile *file) {
    tracked_clear_pending(file);
    free(file->pending);
    buffer_free(&file->durable);
    free(file->path);
    free(file);
}

/// Appends a pending operation (`bytes` is copied). Returns 0 when out of
/// memory.
static int tracked_append(TrackedFile *file, int isTruncate, sqlite3_int64 offset, const void *bytes, size_t amount) {
    if (file->pendingCount == file->pendingCapacity) {
        size_t capacity = file->pendingCapacity ? file->pendingCapacity * 2 : 16;
        PendingOperation *pending = realloc(file->pending, capacity * sizeof(PendingOperation));
        if (!pending) return 0;
        file->pending = pending;
        file->pendingCapacity = capacity;
    }
    PendingOperation operation = { isTruncate, offset, amount, NULL };
    if (!isTruncate && amount > 0) {
        operation.bytes = malloc(amount);
        if (!operation.bytes) return 0;
        memcpy(operation.bytes, bytes, amount);
    }
    file->pending[file->pendingCount++] = operation;
    return 1;
}

/// Applies the pending operations to the durable content, as a completed
/// xSync does. Returns 0 when out of memory.
static int tracked_sync(TrackedFile *file) {
    for (size_t index = 0; index < file->pendingCount; index++) {
        const PendingOperation *operation = &file->pending[index];
        int ok = operation->isTruncate
            ? buffer_resize(&file->durable, (size_t)operation->offset)
            : buffer_write(&file->durable, (size_t)operation->offset, operation->bytes, operation->amount);
        if (!ok) return 0;
    }
    tracked_clear_pending(file);
    file->durableExists = 1;
    return 1;
}

// MARK: Global state

// The state of the simulation is global because the VFS is: one
// simulated disk per process. Every connection opened through the VFS
// may run on its own thread (a pool's writer and readers), so all of it
// is read and written with `state_lock` held.
static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static int active = 0;            // arm was called since the last disarm: track and count
static int cut_at_sync = 0;       // 0: no cut at a sync
static int cut_at_write = 0;      // 0: no cut at a write
static unsigned int cut_seed = 0;
static char *image_directory = NULL;
static int sync_count = 0;
static int write_count = 0;
static int dead = 0;              // the cut happened: every I/O fails
static int cut_done = 0;          // the image was written
static int model_error = 0;       // an allocation or the image failed: the run proves nothing
static int fail_at_sync = 0;      // 0: no sync fails
static int sync_failed = 0;       // the failing sync happened
static TrackedFile *tracked_files = NULL;

/// The tracked file of `path`, or NULL. Requires `state_lock`.
static TrackedFile *tracked_find(const char *path) {
    for (TrackedFile *file = tracked_files; file; file = file->next) {
        if (strcmp(file->path, path) == 0) return file;
    }
    return NULL;
}

/// A new tracked file, empty and absent, or NULL when out of memory.
/// Requires `state_lock`.
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

/// Forgets every tracked file. Requires `state_lock`.
static void tracked_remove_all(void) {
    while (tracked_files) {
        TrackedFile *next = tracked_files->next;
        tracked_free(tracked_files);
        tracked_files = next;
    }
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

enum { SECTOR_SIZE = 512 };
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

/// Computes the disk image of `file` after a power cut into `image`.
/// Returns 0 when out of memory.
static int image_of(const TrackedFile *file, uint32_t *random, const unsigned weights[3], Buffer *image) {
    if (!buffer_copy(image, &file->durable)) return 0;
    for (size_t index = 0; index < file->pendingCount; index++) {
        const PendingOperation *operation = &file->pending[index];
        if (operation->isTruncate) {
            // A truncate is metadata: it reached the disk or not (a torn
            // truncate is not modelled).
            if (draw_fate(random, weights) != DROP && !buffer_resize(image, (size_t)operation->offset)) return 0;
            continue;
        }
        // Each 512-byte sector the write touches reached the disk (KEEP),
        // did not (DROP: the old content stays), or was torn (GARBAGE:
        // the bytes the write covered in the sector are random). Bytes the
        // write did not cover are never damaged: the default VFS reports
        // SQLITE_IOCAP_POWERSAFE_OVERWRITE. The file grows up to the end
        // of its last sector that reached the disk, torn or not.
        size_t start = (size_t)operation->offset;
        size_t end = start + operation->amount;
        size_t sector = start / SECTOR_SIZE * SECTOR_SIZE;
        for (; sector < end; sector += SECTOR_SIZE) {
            size_t from = sector > start ? sector : start;
            size_t to = sector + SECTOR_SIZE < end ? sector + SECTOR_SIZE : end;
            int fate = draw_fate(random, weights);
            if (fate == DROP) continue;
            if (!buffer_write(image, from, operation->bytes + (from - start), to - from)) return 0;
            if (fate == GARBAGE) {
                for (size_t byte = from; byte < to; byte++) image->bytes[byte] = (unsigned char)next_random(random);
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

    Buffer image = { NULL, 0, 0 };
    for (TrackedFile *file = tracked_files; file; file = file->next) {
        // A file that was never durable (created, never synced) is absent.
        if (!file->durableExists || is_shared_memory_file(file->path)) continue;
        if (!image_of(file, &random, weights, &image)
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

// MARK: I/O methods

typedef struct PowerLossFile {
    sqlite3_file base;
    char *path;           // NULL for temporary files, which are not tracked
    sqlite3_file *real;   // follows this struct, in the same allocation
} PowerLossFile;

static sqlite3_vfs *real_vfs(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }
#define FILE_OF(file) ((PowerLossFile *)(file))
#define REAL(file) (FILE_OF(file)->real)

/// The tracked file of an open file, added when the file was opened before
/// `arm` (its current content then counts as durable). NULL for
/// temporary files, when disarmed, or when out of memory (then
/// `model_error` is set). Requires `state_lock`.
static TrackedFile *tracked_for(sqlite3_file *file) {
    const char *path = FILE_OF(file)->path;
    if (!active || !path) return NULL;
    TrackedFile *tracked = tracked_find(path);
    if (tracked) return tracked;
    tracked = tracked_add(path);
    if (!tracked) {
        model_error = 1;
        return NULL;
    }
    sqlite3_int64 size = 0;
    if (REAL(file)->pMethods->xFileSize(REAL(file), &size) != SQLITE_OK || size < 0 || size > INT_MAX
        || !buffer_resize(&tracked->durable, (size_t)size)
        || (size > 0 && REAL(file)->pMethods->xRead(REAL(file), tracked->durable.bytes, (int)size, 0) != SQLITE_OK)) {
        model_error = 1;
    }
    tracked->durableExists = 1;
    return tracked;
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
            TrackedFile *tracked = tracked_for(file);
            code = REAL(file)->pMethods->xWrite(REAL(file), buffer, amount, offset);
            if (code == SQLITE_OK && tracked && !tracked_append(tracked, 0, offset, buffer, (size_t)amount)) {
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
        TrackedFile *tracked = tracked_for(file);
        code = REAL(file)->pMethods->xTruncate(REAL(file), size);
        if (code == SQLITE_OK && tracked && !tracked_append(tracked, 1, size, NULL, 0)) model_error = 1;
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
            TrackedFile *tracked = tracked_for(file);
            if (tracked) tracked_clear_pending(tracked);
            sync_failed = 1;
        } else if (active) {
            // The model, not the real disk, decides what is durable: a
            // real fsync would only slow the runs down.
            TrackedFile *tracked = tracked_for(file);
            if (tracked && !tracked_sync(tracked)) model_error = 1;
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
static int p_file_control(sqlite3_file *file, int op, void *arg) {
    return REAL(file)->pMethods->xFileControl(REAL(file), op, arg);
}
static int p_sector_size(sqlite3_file *file) {
    return REAL(file)->pMethods->xSectorSize(REAL(file));
}
static int p_device_characteristics(sqlite3_file *file) {
    return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file));
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
    file->pMethods = NULL;
    if (name) {
        wrapper->path = copy_string(name);
        if (!wrapper->path) return SQLITE_NOMEM;
    }
    pthread_mutex_lock(&state_lock);
    int code = SQLITE_CANTOPEN;
    if (!dead) {
        // A file created by this open is absent from the disk until its
        // first sync; one that existed counts as durable as it is.
        int existed = 0;
        int tracked = active && name && tracked_find(name);
        if (active && name && !tracked
            && real_vfs(vfs)->xAccess(real_vfs(vfs), name, SQLITE_ACCESS_EXISTS, &existed) != SQLITE_OK) {
            existed = 0;
        }
        code = real_vfs(vfs)->xOpen(real_vfs(vfs), name, wrapper->real, flags, outFlags);
        if (wrapper->real->pMethods) file->pMethods = &powerloss_io_methods;
        if (code == SQLITE_OK && active && name && !tracked) {
            TrackedFile *added = tracked_for(file);
            if (added && !existed) {
                added->durableExists = 0;
                buffer_free(&added->durable);
            }
        }
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
        if (active) {
            // A delete is durable at once (a simplification: see the header).
            TrackedFile *tracked = tracked_find(name);
            if (!tracked) {
                tracked = tracked_add(name);
                if (!tracked) model_error = 1;
            }
            if (tracked) {
                tracked_clear_pending(tracked);
                buffer_free(&tracked->durable);
                tracked->durableExists = 0;
            }
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
