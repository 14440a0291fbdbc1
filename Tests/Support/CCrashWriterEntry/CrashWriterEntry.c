// Lets the test binary run as the crash and multi-process tests' child
// process, so that the tests need no `grdblite-crash-writer` executable.
//
// The test binary links the `grdblite-crash-writer` module, whose top-level
// code SwiftPM compiles into the function `grdblite_crash_writer_main`.
// When the environment has GRDBLITE_CRASH_WRITER_CHILD=1, this constructor
// runs that code with the process's arguments before the test runner
// starts, and exits with its status: `GRDBLitePackageTests.xctest write
// PATH wal` then behaves as `grdblite-crash-writer write PATH wal`.
//
// Why: the executable needs GRDBLite built for the target platform, while
// the tests, since a test target depends on the macro plugin, are built
// for the host: without the executable, CI builds GRDBLite once, not
// twice (see Scripts/test.sh).
//
// The constructor runs after the libraries' constructors (the Swift
// runtime's among them) and after the registration of this binary's Swift
// metadata (`swift_image_constructor`, from swiftrt.o, which the driver
// links first: it precedes this one in `readelf -x .init_array`).
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Weak: a binary that doesn't link the module can't be the child.
extern int grdblite_crash_writer_main(int argc, char **argv) __attribute__((weak));

__attribute__((constructor))
static void grdblite_run_as_crash_writer(int argc, char **argv, char **envp) {
    (void)envp;
    const char *flag = getenv("GRDBLITE_CRASH_WRITER_CHILD");
    if (flag == NULL || strcmp(flag, "1") != 0) return;
    if (grdblite_crash_writer_main == NULL) {
        const char message[] = "GRDBLITE_CRASH_WRITER_CHILD=1, but this binary has no crash writer\n";
        (void)!write(2, message, sizeof message - 1);
        _exit(1);
    }
    exit(grdblite_crash_writer_main(argc, argv));
}
