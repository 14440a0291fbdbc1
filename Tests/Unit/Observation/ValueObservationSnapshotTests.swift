import Dispatch
import Foundation
import GRDBLite
import TestSupport
import Testing

/// A pool observation started with the `.immediate` scheduler fetches its
/// first value on a reader, then the writer starts observing. With SQLite
/// snapshots (`Scripts/test.sh --sqlite 3.54.1`), the writer fetches again
/// only if a commit happened in between; without them (Debian's 3.40.1), it
/// always fetches again and notifies the first value twice, as GRDB does on
/// Linux.
@Suite struct ValueObservationSnapshotTests {
    private static let hasSnapshots = sqliteHasSnapshots

    /// The three ways of tracking, each counting the fetches.
    enum Tracking: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case varyingRegion, constantRegion, explicitRegion
        var testDescription: String { rawValue }

        func observation(_ fetches: LockedValue<Int>) -> ValueObservation<ValueReducers.Fetch<Int>> {
            let fetch: @Sendable (Database) throws -> Int = { db in
                fetches.update { $0 += 1 }
                return try countT(db)
            }
            switch self {
            case .varyingRegion: return ValueObservation.tracking(fetch)
            case .constantRegion: return ValueObservation.trackingConstantRegion(fetch)
            case .explicitRegion: return ValueObservation.tracking(region: Table("t"), fetch: fetch)
            }
        }
    }

    @MainActor @Test(arguments: Tracking.allCases)
    func withoutACommitInBetweenTheFirstValueIsFetchedOnce(tracking: Tracking) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(.pool, dir)
        try insertT(writer)
        let fetches = LockedValue(0)
        let recorder = ObservationRecorder<Int>()
        let cancellable = tracking.observation(fetches)
            .start(in: writer, scheduling: .immediate, recorder: recorder)
        #expect(recorder.values == [1])
        if !Self.hasSnapshots {
            // The writer fetches the first value again. Wait for it: while a
            // `tracking(_:)` fetch runs, any change makes it fetch again.
            #expect(try await recorder.waitForValues(count: 2) == [1, 1])
        }
        // A change out of the region is not fetched; one in it is.
        try blocking { try writer.write { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") } }
        try insertT(writer)
        let values = try await recorder.waitForValue(2)
        if Self.hasSnapshots {
            #expect(values == [1, 2])
            #expect(fetches.value == 2)
        } else {
            #expect(values == [1, 1, 2])
            #expect(fetches.value == 3)
        }
        cancellable.cancel()
    }

    /// A commit between the first fetch and the start of the observation
    /// is not missed, snapshots or not.
    @MainActor @Test(arguments: Tracking.allCases)
    func aCommitInBetweenIsFetched(tracking: Tracking) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(.pool, dir)
        try insertT(writer)
        // The writer is busy: the observation waits for it, after its
        // first fetch, and the writer commits a change meanwhile.
        let writerIsBusy = DispatchSemaphore(value: 0)
        let releaseWriter = DispatchSemaphore(value: 0)
        writer.asyncWriteWithoutTransaction { db in
            writerIsBusy.signal()
            _ = releaseWriter.wait(timeout: .now() + stepTimeout)
            try? db.execute(sql: "INSERT INTO t DEFAULT VALUES")
        }
        try writerIsBusy.waitOrThrow("the writer")
        let fetches = LockedValue(0)
        let recorder = ObservationRecorder<Int>()
        let cancellable = tracking.observation(fetches)
            .start(in: writer, scheduling: .immediate, recorder: recorder)
        #expect(recorder.values == [1])
        releaseWriter.signal()
        #expect(try await recorder.waitForValue(2) == [1, 2])
        #expect(fetches.value == 2)
        cancellable.cancel()
    }

    /// A snapshot pool never changes: its observation notifies one value.
    @Test(.enabled(if: hasSnapshots, "the linked SQLite has sqlite3_snapshot_* functions"))
    func aSnapshotPoolNotifiesOneValue() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let dbPool = try makeObservedDatabase(.pool, dir) as! DatabasePool
        try insertT(dbPool)
        let snapshot = try blocking { try dbPool.makeSnapshotPool() }
        try insertT(dbPool)
        let fetches = LockedValue(0)
        let recorder = ObservationRecorder<Int>()
        let cancellable = Tracking.varyingRegion.observation(fetches)
            .start(in: snapshot, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        #expect(try await recorder.waitForValues(count: 1) == [1])
        try insertT(dbPool)
        #expect(try blocking { try snapshot.read(countT) } == 1)
        #expect(fetches.value == 1)
        cancellable.cancel()
    }
}
