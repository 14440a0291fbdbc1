import Foundation
import GRDBLite

/// `grdblite-crash-writer allocations PATH pool`: counts the allocations of
/// one `await dbPool.read`, for Tests/Reliability/AllocationTests.
///
/// The process must run with jemalloc preloaded (`LD_PRELOAD`) and its
/// thread caches off (`MALLOC_CONF=tcache:false`): its statistics then
/// count the allocation requests of every thread as they happen. After a
/// warm-up, each round of `readsPerRound` reads prints
/// "allocations TOTAL READS"; a process where jemalloc is not the
/// allocator prints "unavailable REASON" instead.
enum AllocationCount {
    static let warmUpReads = 50
    static let readsPerRound = 200
    static let rounds = 5

    static func run(path: String) throws -> Never {
        guard let counter = Counter() else {
            report("unavailable: jemalloc is not the allocator (run with LD_PRELOAD=libjemalloc.so.2)")
            exit(0)
        }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
        }
        let outcome = Outcome()
        Task.detached {
            do {
                for _ in 0..<warmUpReads { try await dbPool.read { _ in } }
                var totals: [UInt64] = []
                for _ in 0..<rounds {
                    let before = counter.requests()
                    for _ in 0..<readsPerRound { try await dbPool.read { _ in } }
                    totals.append(counter.requests() - before)
                }
                outcome.result = .success(totals)
            } catch {
                outcome.result = .failure(error)
            }
            outcome.done.signal()
        }
        outcome.done.wait()
        for total in try outcome.result.get() {
            report("allocations \(total) \(readsPerRound)")
        }
        exit(0)
    }
}

// @unchecked Sendable: `result` is written by the task, then read by the
// main thread once `done` is signaled.
private final class Outcome: @unchecked Sendable {
    var result: Result<[UInt64], any Error> = .success([])
    let done = DispatchSemaphore(value: 0)
}

/// jemalloc's count of allocation requests, of every thread, read through
/// `mallctl` found with `dlsym` (the process doesn't link jemalloc).
private struct Counter: @unchecked Sendable {
    typealias Mallctl = @convention(c) (
        UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?, UnsafeMutableRawPointer?, Int
    ) -> Int32
    let mallctl: Mallctl

    /// Nil unless jemalloc serves this process's `malloc`.
    init?() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else { return nil }
        mallctl = unsafeBitCast(symbol, to: Mallctl.self)
        // A sanitizer's malloc, for instance, takes precedence over the
        // preloaded one: then jemalloc counts nothing. (The process's
        // `malloc`, through its symbol: a direct call could be optimized
        // away.)
        guard let mallocSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc"),
              let freeSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "free")
        else { return nil }
        typealias Malloc = @convention(c) (Int) -> UnsafeMutableRawPointer?
        typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void
        let processMalloc = unsafeBitCast(mallocSymbol, to: Malloc.self)
        let processFree = unsafeBitCast(freeSymbol, to: Free.self)
        let before = requests()
        for _ in 0..<16 { processFree(processMalloc(1000)) }
        if requests() - before < 16 { return nil }
    }

    /// Small and large requests in all arenas (4096 is `MALLCTL_ARENAS_ALL`),
    /// after an `epoch` refresh. Allocates nothing.
    func requests() -> UInt64 {
        var epoch: UInt64 = 1
        _ = mallctl("epoch", nil, nil, &epoch, MemoryLayout<UInt64>.size)
        return read("stats.arenas.4096.small.nrequests") + read("stats.arenas.4096.large.nrequests")
    }

    private func read(_ name: StaticString) -> UInt64 {
        var value: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        let code = name.withUTF8Buffer { name in
            name.withMemoryRebound(to: CChar.self) { mallctl($0.baseAddress, &value, &size, nil, 0) }
        }
        if code != 0 { fail("mallctl(\(name)) failed: \(code)") }
        return value
    }
}
