// The test binary as the crash writer's child process: see
// CrashWriterEntry.c. Nothing to call from Swift: linking the target is
// enough.
#ifndef CCRASHWRITERENTRY_H
#define CCRASHWRITERENTRY_H
#endif
