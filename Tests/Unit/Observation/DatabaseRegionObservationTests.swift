import Dispatch
import Foundation
@_spi(GRDBLite) import GRDBLite
import TestSupport
import Testing

/// `DatabaseRegionObservation`: a call after each commit that changed the
/// region.
@Suite struct DatabaseRegionObservationTests {
    @Test(arguments: WriterKind.allCases) func startNotifiesEachCommitOfTheRegion(kind: WriterKind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let commits = LockedValue<[Int]>([])
        let cancellable = DatabaseRegionObservation(tracking: Table("t")).start(in: writer) { error in
            Issue.record(error)
        } onChange: { db in
            // On the writer, right after the commit.
            commits.update { $0.append(try! countT(db)) }
        }
        try insertT(writer)
        try write(writer, "INSERT INTO other DEFAULT VALUES")  // not tracked
        #expect(throws: TestFetchError.self) {
            try writer.write { db in
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                throw TestFetchError()  // rolled back
            }
        }
        try writer.write { db in
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
        }
        // `start` calls back synchronously, on the writer.
        #expect(commits.value == [1, 3])
        cancellable.cancel()
        try insertT(writer)
        #expect(commits.value == [1, 3])
    }

    @Test(arguments: WriterKind.allCases) func trackingSeveralRegions(kind: WriterKind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeFlagTables(kind, dir)
        let variadic = LockedValue(0)
        let array = LockedValue(0)
        let full = LockedValue(0)
        let columns = LockedValue(0)
        let cancellables = [
            DatabaseRegionObservation(tracking: Table("a"), Table("b"))
                .start(in: writer, onError: { Issue.record($0) }, onChange: { _ in variadic.update { $0 += 1 } }),
            DatabaseRegionObservation(tracking: [Table("a")])
                .start(in: writer, onError: { Issue.record($0) }, onChange: { _ in array.update { $0 += 1 } }),
            DatabaseRegionObservation(tracking: .fullDatabase)
                .start(in: writer, onError: { Issue.record($0) }, onChange: { _ in full.update { $0 += 1 } }),
            DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT name FROM c"))
                .start(in: writer, onError: { Issue.record($0) }, onChange: { _ in columns.update { $0 += 1 } }),
        ]
        try write(writer, "INSERT INTO a DEFAULT VALUES")
        try write(writer, "INSERT INTO b DEFAULT VALUES")
        try write(writer, "INSERT INTO c(name, score) VALUES ('x', 0)")
        try write(writer, "UPDATE c SET score = 1")  // not the selected column
        try write(writer, "UPDATE c SET name = 'y'")
        #expect(variadic.value == 2)
        #expect(array.value == 1)
        #expect(full.value == 5)
        #expect(columns.value == 2)
        for cancellable in cancellables { cancellable.cancel() }
    }

    @Test(arguments: WriterKind.allCases) func notifyChangesIsObserved(kind: WriterKind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let count = LockedValue(0)
        let cancellable = DatabaseRegionObservation(tracking: Table("t"))
            .start(in: writer, onError: { Issue.record($0) }, onChange: { _ in count.update { $0 += 1 } })
        try writer.write { db in try db.notifyChanges(in: Table("other")) }
        try writer.write { db in try db.notifyChanges(in: Table("t")) }
        #expect(count.value == 1)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func releasingTheCancellableStopsTheObservation(kind: WriterKind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let count = LockedValue(0)
        var cancellable: AnyDatabaseCancellable? = DatabaseRegionObservation(tracking: Table("t"))
            .start(in: writer, onError: { Issue.record($0) }, onChange: { _ in count.update { $0 += 1 } })
        try insertT(writer)
        #expect(cancellable != nil)
        cancellable = nil
        try insertT(writer)
        #expect(count.value == 1)
    }

    @Test(arguments: WriterKind.allCases) func cancelFromOnChange(kind: WriterKind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let count = LockedValue(0)
        let box = LockedValue<AnyDatabaseCancellable?>(nil)
        let cancellable = DatabaseRegionObservation(tracking: Table("t")).start(in: writer) { error in
            Issue.record(error)
        } onChange: { _ in
            count.update { $0 += 1 }
            box.value?.cancel()
        }
        box.update { $0 = cancellable }
        try insertT(writer)
        try insertT(writer)
        #expect(count.value == 1)
    }

    @Test(arguments: WriterKind.allCases) func anUnknownTableIsAnError(kind: WriterKind) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let errors = LockedValue<[String]>([])
        let cancellable = DatabaseRegionObservation(tracking: SQLRequest<Row>(sql: "SELECT * FROM missing"))
            .start(in: writer, onError: { error in errors.update { $0.append("\(error)") } }, onChange: { _ in })
        #expect(errors.value.count == 1)
        #expect(errors.value.first?.contains("missing") == true)
        cancellable.cancel()
    }

    @Test(arguments: WriterKind.allCases) func values(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let task = Task {
            var counts: [Int] = []
            for try await _ in DatabaseRegionObservation(tracking: Table("t")).values(in: writer) {
                // The iteration sees a state at least as recent as the commit.
                counts.append(try await writer.read(countT))
                if counts.count == 2 { break }
            }
            return counts
        }
        // The observation starts when the iteration starts: writes until
        // the iteration has seen two commits.
        let done = LockedValue(false)
        let writes = Task {
            while !done.value {
                try insertT(writer)
                await Task.yield()
            }
        }
        let counts = try await withTimeout { try await task.value }
        done.update { $0 = true }
        try await writes.value
        #expect(counts.count == 2)
        #expect(counts[0] >= 1)
        #expect(counts[0] <= counts[1])
    }

    @Test(arguments: WriterKind.allCases) func valuesEndWhenTheDatabaseCloses(kind: WriterKind) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let writer = try makeObservedDatabase(kind, dir)
        let changes = ObservationRecorder<Int>()
        let task = Task {
            var count = 0
            for try await _ in DatabaseRegionObservation(tracking: Table("t")).values(in: writer) {
                count += 1
                changes.onChange(count)
            }
            return count
        }
        // Writes until the iteration has started and seen a commit.
        let seen = LockedValue(false)
        let writes = Task {
            while !seen.value && !Task.isCancelled {
                try insertT(writer)
                await Task.yield()
            }
        }
        try await changes.waitForValues(count: 1)
        seen.update { $0 = true }
        try await writes.value
        try writer.close()
        let count = try await withTimeout { try await task.value }
        #expect(count >= 1)
    }
}

/// A writer with tables `a`, `b`, and `c(name, score)`.
private func makeFlagTables(_ kind: WriterKind, _ directory: TemporaryDirectory) throws -> any DatabaseWriter {
    let writer = try kind.make(directory)
    try writer.write { db in
        try db.execute(sql: """
            CREATE TABLE a(id INTEGER PRIMARY KEY);
            CREATE TABLE b(id INTEGER PRIMARY KEY);
            CREATE TABLE c(id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
            """)
    }
    return writer
}

private func write(_ writer: any DatabaseWriter, _ sql: String) throws {
    try blocking {
        try writer.write { db in try db.execute(sql: sql) }
    }
}

/// The result of `body`, or a `StepFailure` after `stepTimeout`.
func withTimeout<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(stepTimeout * 1_000_000_000))
            return nil
        }
        let first = try await group.next()!
        group.cancelAll()
        guard let value = first else { throw StepFailure("timed out") }
        return value
    }
}
