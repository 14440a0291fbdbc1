// An SQLite allocator that forwards to the default one and fails
// allocations on demand, like SQLite's own out-of-memory tests.
#include "CFaultInjection.h"
#include <stdatomic.h>

static sqlite3_mem_methods real_methods;
static atomic_int countdown = 0;   // 0: disarmed
static atomic_int persistent = 0;
static atomic_int faults = 0;
static atomic_int tripped = 0;
// Allocations made through this allocator and not yet freed.
static atomic_long outstanding = 0;

static int should_fail(void) {
    if (atomic_load(&tripped)) {
        if (!atomic_load(&persistent)) return 0;
        atomic_fetch_add(&faults, 1);
        return 1;
    }
    if (atomic_load(&countdown) == 0) return 0;
    if (atomic_fetch_sub(&countdown, 1) == 1) {
        atomic_store(&tripped, 1);
        atomic_fetch_add(&faults, 1);
        return 1;
    }
    return 0;
}

static void *fault_malloc(int size) {
    if (should_fail()) return NULL;
    void *pointer = real_methods.xMalloc(size);
    if (pointer) atomic_fetch_add(&outstanding, 1);
    return pointer;
}
static void fault_free(void *pointer) {
    if (pointer) atomic_fetch_sub(&outstanding, 1);
    real_methods.xFree(pointer);
}
static void *fault_realloc(void *pointer, int size) {
    if (should_fail()) return NULL;
    void *result = real_methods.xRealloc(pointer, size);
    // A reallocation of NULL is a new allocation.
    if (result && !pointer) atomic_fetch_add(&outstanding, 1);
    return result;
}
static int fault_size(void *pointer) { return real_methods.xSize(pointer); }
static int fault_roundup(int size) { return real_methods.xRoundup(size); }
static int fault_init(void *data) { return real_methods.xInit(data); }
static void fault_shutdown(void *data) { real_methods.xShutdown(data); }

int grdblite_fault_malloc_install(void) {
    int code = sqlite3_shutdown();
    if (code != SQLITE_OK) return code;
    code = sqlite3_config(SQLITE_CONFIG_GETMALLOC, &real_methods);
    if (code != SQLITE_OK) return code;
    static sqlite3_mem_methods methods;
    methods = real_methods;
    methods.xMalloc = fault_malloc;
    methods.xFree = fault_free;
    methods.xRealloc = fault_realloc;
    methods.xSize = fault_size;
    methods.xRoundup = fault_roundup;
    methods.xInit = fault_init;
    methods.xShutdown = fault_shutdown;
    methods.pAppData = real_methods.pAppData;
    code = sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
    if (code != SQLITE_OK) return code;
    return sqlite3_initialize();
}

void grdblite_fault_malloc_arm(int count, int isPersistent) {
    atomic_store(&faults, 0);
    atomic_store(&tripped, 0);
    atomic_store(&persistent, isPersistent);
    atomic_store(&countdown, count);
}

void grdblite_fault_malloc_disarm(void) {
    atomic_store(&countdown, 0);
    atomic_store(&tripped, 0);
}

int grdblite_fault_malloc_fault_count(void) { return atomic_load(&faults); }

long grdblite_fault_malloc_outstanding(void) { return atomic_load(&outstanding); }
