// jemalloc (Debian: `apt-get install libjemalloc-dev`), the benchmark's
// process allocator. `link "jemalloc"` in the module map puts -ljemalloc on
// the bench's link line, as the Vapor template does, so that jemalloc's
// malloc and free replace the C library's for the whole process.
//
// The bench only needs `mallctl`, to read jemalloc's statistics. Debian
// builds jemalloc without a symbol prefix, so its header names it `mallctl`.
#include <jemalloc/jemalloc.h>
