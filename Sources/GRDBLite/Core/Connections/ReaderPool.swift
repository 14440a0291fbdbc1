import Dispatch
import Foundation

/// The reader connections of a ``DatabasePool`` (or a
/// ``DatabaseSnapshotPool``): opened on demand up to a maximum, reused,
/// handed out to one access at a time.
///
/// Barriers wait for the readers in use and hold new ones back until they
/// end: ``DatabasePool/barrierWriteWithoutTransaction(_:)-9tcsu``,
/// `close()` and `releaseMemory()` use them. An access that runs on the
/// pool's writer may take a reader while a barrier waits (the barrier
/// waits for the writer anyway: blocking the reader would deadlock), so a
/// barrier that runs on the writer waits again, there, for those readers:
/// see ``barrier(onWriter:_:owner:_:)``.
// @unchecked Sendable: the state is only used under `condition`'s lock.
final class ReaderPool: @unchecked Sendable {
    typealias MakeReader = (_ index: Int, _ owner: AnyObject) throws -> SerializedConnection

    let maximumCount: Int
    private let makeReader: MakeReader
    private let condition = NSCondition()
    /// Every open reader, available or not.
    private var readers: [SerializedConnection] = []
    private var available: [SerializedConnection] = []
    /// Readers handed out, and slots taken by readers being opened.
    private var inUseCount = 0
    private var barrierCount = 0
    private var createdCount = 0
    private var isClosed = false
    /// Readers in use when the readers were invalidated: closed when
    /// they come back.
    private var invalidated: [SerializedConnection] = []
    /// Asynchronous accesses and barriers on ``waitingQueue`` that have
    /// not taken their reader (or ended) yet: while there are some, a new
    /// asynchronous access waits behind them, in order.
    private var pendingCount = 0

    /// A serial queue where asynchronous accesses wait for a reader, and
    /// asynchronous barriers for the readers in use: at most one thread
    /// waits, however many accesses are waiting.
    private let waitingQueue: DispatchQueue

    init(maximumCount: Int, label: String, makeReader: @escaping MakeReader) {
        self.maximumCount = maximumCount
        self.makeReader = makeReader
        waitingQueue = DispatchQueue(label: "\(label).wait")
    }

    /// Takes a reader, waiting until one is available, and opening it if
    /// needed.
    ///
    /// - throws: `SQLITE_MISUSE` if the pool is closed, or the error of
    ///   the opening of a reader (the pool is left as it was).
    func get(owner: AnyObject, bypassingBarriers: Bool = false) throws -> SerializedConnection {
        condition.lock()
        while !isClosed && (inUseCount >= maximumCount || (barrierCount > 0 && !bypassingBarriers)) {
            condition.wait()
        }
        if isClosed {
            condition.unlock()
            throw DatabaseError.connectionIsClosed()
        }
        inUseCount += 1
        if let reader = available.popLast() {
            condition.unlock()
            return reader
        }
        createdCount += 1
        let index = createdCount
        condition.unlock()

        do {
            let reader = try makeReader(index, owner)
            condition.withLock { readers.append(reader) }
            return reader
        } catch {
            condition.withLock {
                inUseCount -= 1
                condition.broadcast()
            }
            throw error
        }
    }

    /// Takes a reader without blocking the caller and runs `body` on the
    /// reader's queue: with the reader's connection, or the error that
    /// prevented the access. The reader comes back to the pool once the
    /// access has ended, discarded if `body` returns true (a closed
    /// connection always is).
    ///
    /// An open reader that is free, with nobody waiting before, is taken
    /// at once: the access goes straight to the reader's queue. Otherwise
    /// the access waits on ``waitingQueue``, behind the ones before it.
    func asyncAccess(
        owner: AnyObject, bypassingBarriers: Bool = false,
        _ body: @escaping @Sendable (Result<Database, any Error>) -> Bool
    ) {
        if let reader = takeFreeReaderOrWait(bypassingBarriers: bypassingBarriers) {
            startAccess(reader, owner: owner, body)
            return
        }
        // unsafe: the owner only crosses to the waiting queue to identify the access.
        let owner = UncheckedSendable(owner)
        waitingQueue.async { [self] in
            let reader: SerializedConnection
            do {
                defer { endWaiting() }
                reader = try get(owner: owner.value, bypassingBarriers: bypassingBarriers)
            } catch {
                _ = body(.failure(error))
                return
            }
            startAccess(reader, owner: owner.value, body)
        }
    }

    /// An available reader, taken, if the pool is open, nothing waits on
    /// ``waitingQueue``, and neither the maximum nor a barrier holds it
    /// back; nil otherwise, and then the caller must wait on
    /// ``waitingQueue`` (counted, until ``endWaiting()``).
    private func takeFreeReaderOrWait(bypassingBarriers: Bool) -> SerializedConnection? {
        condition.withLock {
            if pendingCount == 0 && !isClosed && inUseCount < maximumCount
                && (barrierCount == 0 || bypassingBarriers), let reader = available.popLast()
            {
                inUseCount += 1
                return reader
            }
            pendingCount += 1
            return nil
        }
    }

    /// An access or barrier that waited on ``waitingQueue`` has its reader
    /// (or its error), or has ended.
    private func endWaiting() {
        condition.withLock { pendingCount -= 1 }
    }

    /// Runs `body` on `reader`, taken with ``get(owner:bypassingBarriers:)``,
    /// without blocking the caller; gives it back once the access has ended
    /// (see ``asyncAccess(owner:bypassingBarriers:_:)``).
    func startAccess(
        _ reader: SerializedConnection, owner: AnyObject,
        _ body: @escaping @Sendable (Result<Database, any Error>) -> Bool
    ) {
        reader.async(owner: owner, { db in
            guard let db else {
                _ = body(.failure(DatabaseError.connectionIsClosed()))
                return true
            }
            return body(.success(db))
        }, then: { [self] discard in
            release(reader, discard: discard)
        })
    }

    /// Gives back a reader taken with ``get(owner:bypassingBarriers:)``;
    /// a discarded reader is closed, and a new one opens when needed.
    func release(_ reader: SerializedConnection, discard: Bool = false) {
        let close = condition.withLock {
            inUseCount -= 1
            condition.broadcast()
            let wasInvalidated = invalidated.contains { $0 === reader }
            if wasInvalidated { invalidated.removeAll { $0 === reader } }
            if discard || isClosed || wasInvalidated {
                readers.removeAll { $0 === reader }
                return true
            }
            available.append(reader)
            return false
        }
        // Not under the lock: closing waits for the reader's queue.
        if close { reader.closeIfNeeded() }
    }

    // MARK: - Barriers

    /// Runs `body` once no reader is in use, with new readers held back
    /// until it returns.
    ///
    /// Readers taken by an access on the writer bypass barriers: one may
    /// be in use while `body` runs. A barrier that must see no reader in
    /// use runs on the writer, with ``barrier(onWriter:_:owner:_:)``.
    func barrier<T>(_ body: () throws -> T) rethrows -> T {
        holdBackReaders()
        defer { stopHoldingBackReaders() }
        return try body()
    }

    /// Runs `body` on `writer` (the pool's writer), once no reader is in
    /// use, with new readers held back until it returns.
    ///
    /// The barrier first waits for the readers in use, then for the
    /// writer, where it waits again for the readers that accesses on the
    /// writer took meanwhile, bypassing it: `body` runs while no reader is
    /// in use, and none starts but those `body` takes itself.
    func barrier<T>(
        onWriter writer: SerializedConnection, _ context: AccessContext, owner: AnyObject,
        _ body: (Database?) throws -> T) rethrows -> T
    {
        holdBackReaders()
        defer { stopHoldingBackReaders() }
        return try writer.sync(context, owner: owner) { db in
            waitUntilNoReaderIsInUse()
            return try body(db)
        }
    }

    /// Runs ``barrier(onWriter:_:owner:_:)`` without blocking the caller:
    /// the barrier waits on the queue where asynchronous accesses wait for
    /// readers.
    func asyncBarrier(
        onWriter writer: SerializedConnection, owner: AnyObject,
        _ body: @escaping @Sendable (Database?) -> Void)
    {
        // unsafe: the owner only crosses to the waiting queue to identify the access.
        let owner = UncheckedSendable(owner)
        condition.withLock { pendingCount += 1 }
        waitingQueue.async { [self] in
            defer { endWaiting() }
            barrier(onWriter: writer, .none, owner: owner.value, body)
        }
    }

    /// Holds new readers back (but those that bypass barriers), and waits
    /// until no reader is in use.
    private func holdBackReaders() {
        condition.withLock {
            barrierCount += 1
            while inUseCount > 0 { condition.wait() }
        }
    }

    private func stopHoldingBackReaders() {
        condition.withLock {
            barrierCount -= 1
            condition.broadcast()
        }
    }

    /// Inside a barrier: waits until the readers that bypassed it are back.
    private func waitUntilNoReaderIsInUse() {
        condition.withLock {
            while inUseCount > 0 { condition.wait() }
        }
    }

    /// Whether a barrier holds new readers back: its tests wait for it
    /// instead of guessing how long a barrier takes to start.
    var isHoldingBackReaders: Bool {
        condition.withLock { barrierCount > 0 }
    }

    /// The open readers, available or not.
    var allReaders: [SerializedConnection] {
        condition.withLock { readers }
    }

    /// Closes the available readers, so that new ones open when needed
    /// (inside a barrier: then all readers are available).
    func removeAvailableReaders() {
        let removed = condition.withLock {
            let removed = available
            available.removeAll()
            readers.removeAll { reader in removed.contains { $0 === reader } }
            return removed
        }
        for reader in removed { reader.closeIfNeeded() }
    }

    /// Closes the available readers now, and the readers in use when
    /// their access ends, without waiting: the next accesses open new
    /// readers.
    func invalidateReaders() {
        let removed = condition.withLock {
            let removed = available
            available.removeAll()
            readers.removeAll { reader in removed.contains { $0 === reader } }
            invalidated = readers
            return removed
        }
        for reader in removed { reader.closeIfNeeded() }
    }

    /// Closes the pool (inside a barrier): waiting and future accesses
    /// throw `SQLITE_MISUSE`.
    func markClosed() {
        condition.withLock {
            isClosed = true
            condition.broadcast()
        }
    }

    var isPoolClosed: Bool {
        condition.withLock { isClosed }
    }
}
