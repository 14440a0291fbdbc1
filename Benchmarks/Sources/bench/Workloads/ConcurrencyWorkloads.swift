import Foundation
import Synchronization

/// The workloads of concurrent accesses, on the fetch file's rows in WAL
/// mode (`Fixture.concurrentPath()`): GRDBLite's and GRDB's
/// `DatabasePool`, and raw C with one connection per thread. Vapor has no
/// side: SQLiteNIO's connections are not a pool of readers and a writer.
///
/// Every side writes with `synchronous = NORMAL`, GRDB's setting for its
/// pools (GRDBLite keeps SQLite's FULL unless told otherwise): the figures
/// compare the libraries, not the fsyncs of commits. The threads are as
/// many as the readers (and a writer), on a machine of a few cores: the
/// figures say how each side uses them.
extension Workload {
    static let concurrentReads1 = concurrentReads(1)
    static let concurrentReads2 = concurrentReads(2)
    static let concurrentReads4 = concurrentReads(4)

    /// `readers` threads read the whole table at once, each in its own read
    /// transaction (raw C: a plain `SELECT` on its own connection).
    static func concurrentReads(_ readers: Int) -> Workload {
        Workload(
            name: "concurrent-reads-\(readers)",
            title: "Concurrent reads, \(readers) reader\(readers == 1 ? "" : "s")",
            rowCount: { readers * $0.fetchRowCount },
            prepare: { _ in },
            result: { job, _ in try job.fetched!() },
            expected: { Digest.expected(rowCount: $0.fetchRowCount) },
            allocationRule: nil,
            jobs: [
                .raw: { try RawSide.concurrentReads($0, readers: readers) },
                .lite: { try LiteSide.concurrentReads($0, readers: readers) },
                .grdb: { try GRDBSide.concurrentReads($0, readers: readers) },
            ],
            measuresInstructions: false)
    }

    /// 2 readers read the whole table twice each while a writer inserts rows
    /// in transactions of 10, as fast as it can: the readers' time.
    static let readsWhileWriting = Workload(
        name: "reads-while-writing",
        title: "Reads while a writer inserts (2 readers × 2 reads)",
        rowCount: { ConcurrencyPlan.readsWhileWriting.rowCount($0) },
        prepare: { try $0.resetWrittenTable() },
        result: { job, fixture in
            // The writer wrote whole transactions of rows 0, 1, 2...
            let written = try fixture.writtenDigest()
            guard written.count > 0, written == Digest.expected(rowCount: written.count) else {
                throw BenchError("reads-while-writing: the writer wrote \(written)")
            }
            return try job.fetched!()
        },
        expected: { Digest.expected(rowCount: $0.fetchRowCount) },
        allocationRule: nil,
        jobs: [.raw: RawSide.readsWhileWriting, .lite: LiteSide.readsWhileWriting, .grdb: GRDBSide.readsWhileWriting],
        measuresInstructions: false)

    /// A writer inserts `concurrentInsertRowCount` rows in transactions of
    /// 100 while 2 readers read the whole table in a loop: the writer's
    /// time.
    static let writeWhileReading = Workload(
        name: "write-while-reading",
        title: "Inserts in transactions of 100 while 2 readers read",
        rowCount: { $0.concurrentInsertRowCount },
        prepare: { try $0.resetWrittenTable() },
        // The readers check each complete read themselves (they stop
        // halfway through the last one).
        result: { _, fixture in try fixture.writtenDigest() },
        expected: { Digest.expected(rowCount: $0.concurrentInsertRowCount) },
        allocationRule: nil,
        jobs: [.raw: RawSide.writeWhileReading, .lite: LiteSide.writeWhileReading, .grdb: GRDBSide.writeWhileReading],
        measuresInstructions: false)
}

/// The shapes of the concurrency workloads, shared by the sides.
enum ConcurrencyPlan {
    case readsWhileWriting

    static let readerCount = 2
    static let readsPerReader = 2
    static let rowsPerWriteTransaction = 10
    static let rowsPerInsertTransaction = 100

    func rowCount(_ fixture: Fixture) -> Int {
        Self.readerCount * Self.readsPerReader * fixture.fetchRowCount
    }
}

/// The SQL of the writers: `written` has the schema of `item`.
extension BenchSQL {
    static let insertWritten =
        "INSERT INTO written (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
}

/// Runs `body(index)` for each index on a thread of its own, all at once,
/// and waits for them; rethrows the first error.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let errors = Mutex<[any Error]>([])
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        Thread {
            do {
                try body(index)
            } catch {
                errors.withLock { $0.append(error) }
            }
            done.signal()
        }.start()
    }
    for _ in 0..<count { done.wait() }
    if let error = errors.withLock({ $0.first }) { throw error }
}

/// Starts `body` on a thread of its own; `join()` waits for it and
/// rethrows its error.
final class BackgroundThread: Sendable {
    private let error = Mutex<(any Error)?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () throws -> Void) {
        Thread { [self] in
            do {
                try body()
            } catch let thrown {
                error.withLock { $0 = thrown }
            }
            done.signal()
        }.start()
    }

    func join() throws {
        done.wait()
        if let error = error.withLock({ $0 }) { throw error }
    }
}

/// A flag that one thread raises and others poll.
final class StopFlag: Sendable {
    private let raised = Atomic(false)
    var isRaised: Bool { raised.load(ordering: .acquiring) }
    func raise() { raised.store(true, ordering: .releasing) }
}

/// The digests of the reads of a run: all must be the table's.
final class ReadDigests: Sendable {
    private let digests = Mutex<[Digest]>([])

    func record(_ digest: Digest) {
        digests.withLock { $0.append(digest) }
    }

    func reset() {
        digests.withLock { $0.removeAll() }
    }

    /// The digest all reads got, or one of count -1 if they differ or none
    /// completed.
    var common: Digest {
        digests.withLock { digests in
            guard let first = digests.first, digests.allSatisfy({ $0 == first }) else { return Digest(count: -1) }
            return first
        }
    }
}

/// A value that crosses to the threads of a run: the side's connections,
/// each used by one thread at a time.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
