import Foundation
import Testing
import TestSupport

/// The allocations of one `await dbPool.read`, counted by jemalloc in a
/// child process of their own (`grdblite-crash-writer allocations`), where
/// no other test allocates: every thread's allocations count, those of the
/// pool's queues and of the concurrency runtime included.
@Suite struct AllocationTests {
    /// The most allocations one `await dbPool.read { _ in }` may make, in
    /// a debug build: 14 when `Locked` was a class and its `NSLock` (three
    /// allocations per access), 12 since it is one `ManagedBuffer`.
    static let asyncReadBudget = 12

    /// Sanitizers replace `malloc`: jemalloc can't count under them.
    static let isSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
        || dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

    @Test(.enabled(if: !isSanitized, "sanitizers replace malloc"))
    func asyncPoolReadAllocations() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(
            ["allocations", directory.path("allocations.sqlite"), "pool"],
            // Without thread caches, jemalloc counts every thread's
            // requests at once.
            environment: ["LD_PRELOAD": "libjemalloc.so.2", "MALLOC_CONF": "tcache:false"])
        var perRead: [Int] = []
        while let line = child.readLine() {
            let words = line.split(separator: " ")
            guard words.first == "allocations", words.count == 3, let total = Int(words[1]), let reads = Int(words[2])
            else {
                Issue.record("unexpected output of the child: \(line)")
                continue
            }
            // Per read, rounded: the rare allocations of another thread
            // (a new worker thread) add less than half a one per read.
            perRead.append((total + reads / 2) / reads)
        }
        let status = child.waitForExit()
        try #require(status == 0, "the child failed: \(child.errorOutput())")
        let fewest = try #require(perRead.min(), "the child counted nothing")
        print("AllocationTests: one await dbPool.read makes \(fewest) allocations (rounds: \(perRead))")
        #expect(fewest <= Self.asyncReadBudget)
    }
}
