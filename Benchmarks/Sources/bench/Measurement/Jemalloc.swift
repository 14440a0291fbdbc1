import CJemalloc
import Foundation

/// jemalloc's statistics, read with `mallctl`: the allocation figures of
/// the bench.
///
/// The bench links jemalloc (`-ljemalloc`), so that jemalloc's `malloc`
/// replaces the C library's for the whole process, Swift runtime included.
/// ``probe()`` checks at run time that it really does: a `malloc` through
/// the process's own symbol must move jemalloc's counters. When it doesn't
/// (another allocator won, a tool such as valgrind replaced `malloc`), the
/// bench reports no allocation figures rather than wrong ones.
enum Jemalloc {
    /// Allocation counters, at one point in time.
    struct Counters {
        /// Bytes allocated by the current thread (`thread.allocated`).
        var allocatedBytes: UInt64
        /// Bytes deallocated by the current thread (`thread.deallocated`).
        var deallocatedBytes: UInt64
        /// Allocation requests in all arenas, of all threads
        /// (`stats.arenas.<all>.small.nrequests` + `large.nrequests`).
        var requests: UInt64
    }

    /// Whether jemalloc is the allocator: its version and where `malloc`
    /// resolves, or why figures are unavailable.
    enum Status {
        case active(version: String, malloc: String)
        case inactive(reason: String)
    }

    // Names are `StaticString`s, passed by their address: converting a
    // `String` to a C string copies it into a new array, which would count
    // between two readings. 4096 is `MALLCTL_ARENAS_ALL`, the arena index
    // that selects all arenas.
    private static let smallRequests: StaticString = "stats.arenas.4096.small.nrequests"
    private static let largeRequests: StaticString = "stats.arenas.4096.large.nrequests"

    /// Checks that jemalloc serves the process's allocations.
    static func probe() -> Status {
        var versionPointer: UnsafePointer<CChar>?
        var size = MemoryLayout<UnsafePointer<CChar>?>.size
        guard mallctl("version", &versionPointer, &size, nil, 0) == 0, let versionPointer else {
            return .inactive(reason: "mallctl(\"version\") failed")
        }
        let version = String(cString: versionPointer)
        // The process's `malloc`, as the dynamic linker resolves it for
        // every library (a direct call could be optimized away).
        guard let mallocSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc"),
              let freeSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "free")
        else {
            return .inactive(reason: "malloc not found with dlsym")
        }
        typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
        typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        let processMalloc = unsafeBitCast(mallocSymbol, to: Malloc.self)
        let processFree = unsafeBitCast(freeSymbol, to: Free.self)
        let library = mappedFile(containing: UInt(bitPattern: mallocSymbol)) ?? "unknown"

        guard let before = try? counters() else {
            return .inactive(reason: "jemalloc statistics unavailable (mallctl failed)")
        }
        let probeCount = 16
        let probeSize = 1000
        let pointers = (0..<probeCount).map { _ in processMalloc(probeSize) }
        pointers.forEach(processFree)
        guard let after = try? counters() else {
            return .inactive(reason: "jemalloc statistics unavailable (mallctl failed)")
        }
        if after.allocatedBytes - before.allocatedBytes < UInt64(probeCount * probeSize)
            || after.requests - before.requests < UInt64(probeCount)
        {
            return .inactive(
                reason:
                    "malloc (the symbol of \(library)) doesn't move jemalloc's counters: jemalloc is not the process allocator (a tool such as valgrind may have replaced it)"
            )
        }
        // Reading the counters must not count itself.
        guard let first = try? counters(), let second = try? counters() else {
            return .inactive(reason: "jemalloc statistics unavailable (mallctl failed)")
        }
        if second.requests != first.requests || second.allocatedBytes != first.allocatedBytes {
            return .inactive(
                reason:
                    "reading jemalloc's counters allocates (\(second.requests - first.requests) allocations, \(second.allocatedBytes - first.allocatedBytes) bytes)"
            )
        }
        return .active(version: version, malloc: library)
    }

    /// The counters now. Flushes the thread's cache first: jemalloc counts
    /// the requests a thread cache serves only when it flushes them into
    /// the arena statistics, which the `epoch` refresh then publishes.
    static func counters() throws -> Counters {
        try control("thread.tcache.flush")
        var newEpoch: UInt64 = 1
        var oldEpoch: UInt64 = 0
        var epochSize = MemoryLayout<UInt64>.size
        if mallctl(cString("epoch"), &oldEpoch, &epochSize, &newEpoch, epochSize) != 0 {
            throw BenchError("mallctl(\"epoch\") failed")
        }
        return Counters(
            allocatedBytes: try read("thread.allocated"),
            deallocatedBytes: try read("thread.deallocated"),
            requests: try read(smallRequests) + read(largeRequests))
    }

    /// The file mapped at `address`, from /proc/self/maps.
    private static func mappedFile(containing address: UInt) -> String? {
        guard let maps = readWholeFile("/proc/self/maps") else { return nil }
        for line in maps.split(separator: "\n") {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let bounds = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
            if fields.count >= 6, bounds.count == 2, bounds[0] <= address, address < bounds[1] {
                return String(fields[5])
            }
        }
        return nil
    }

    private static func read(_ name: StaticString) throws -> UInt64 {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        if mallctl(cString(name), &value, &size, nil, 0) != 0 {
            throw BenchError("mallctl(\"\(name)\") failed")
        }
        return value
    }

    private static func control(_ name: StaticString) throws {
        if mallctl(cString(name), nil, nil, nil, 0) != 0 {
            throw BenchError("mallctl(\"\(name)\") failed")
        }
    }

    /// The bytes of a static string, which the compiler ends with a NUL.
    private static func cString(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
