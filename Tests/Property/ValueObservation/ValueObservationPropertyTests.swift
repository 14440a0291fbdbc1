import Foundation
import GRDBLite
import PropertyBased
import TestSupport
import Testing

/// Random write scripts (inserts, updates, deletes, savepoints, rollbacks,
/// `notifyChanges(in:)`, writes to unobserved tables) under a random
/// `ValueObservation`, on a queue and on a pool: the values start with the
/// initial state, are values of committed states in commit order, and end
/// with the final state; with `removeDuplicates`, no value repeats.
@Suite struct ValueObservationPropertyTests {
    @Test(arguments: [false, true]) func valuesFollowTheCommits(pool: Bool) async {
        await checkProperty(count: 60, input: ValueObservationScript.scripts) { script in
            try await check(script, pool: pool)
        }
    }

    private func check(_ script: ValueObservationScript, pool: Bool) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        let writer: any DatabaseWriter = pool ? try DatabasePool(path: path) : try DatabaseQueue(path: path)
        try await writer.write { db in
            try db.execute(sql: """
                CREATE TABLE a(id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
                CREATE TABLE b(id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
                CREATE TABLE marker(n INTEGER NOT NULL); INSERT INTO marker VALUES (0);
                """)
        }
        let request = script.request
        let fetch: @Sendable (Database) throws -> String = { db in
            let value = try request.fetch(db)
            let marker = try Int.fetchOne(db, sql: "SELECT n FROM marker")!
            return "\(value) #\(marker)"
        }
        let values = ValueLog()
        var observation = ValueObservation.tracking(fetch)
        if script.varyingRegion == false {
            observation = ValueObservation.trackingConstantRegion(fetch)
        }
        let cancellable: AnyDatabaseCancellable
        if script.removeDuplicates {
            cancellable = observation.removeDuplicates()
                .start(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")),
                       onError: values.fail, onChange: values.append)
        } else {
            cancellable = observation
                .start(in: writer, scheduling: .async(onQueue: DispatchQueue(label: "values")),
                       onError: values.fail, onChange: values.append)
        }
        defer { cancellable.cancel() }
        // The observation starts from the initial state.
        try await values.wait { $0.count >= 1 }

        var model = ValueObservationModel()
        var committed = [request.value(in: model.committed)]
        for transaction in script.transactions {
            try await writer.writeWithoutTransaction { db in
                do {
                    try db.inTransaction {
                        for operation in transaction.operations {
                            try operation.run(db)
                        }
                        if transaction.rollsBack { throw ScriptRollback() }
                        return .commit
                    }
                } catch is ScriptRollback { }
            }
            if model.run(transaction) {
                committed.append(request.value(in: model.committed))
            }
        }
        // A last commit that the observation can't miss: the marker.
        try await writer.write { db in try db.execute(sql: "UPDATE marker SET n = 1") }
        let final = "\(request.value(in: model.committed)) #1"
        try await values.wait { $0.last?.hasSuffix(" #1") == true }
        let observed = values.values
        if let error = values.error { throw error }

        #expect(observed.first == "\(committed[0]) #0", "initial state")
        #expect(observed.last == final, "final state")
        // Every other value is a committed state, in commit order.
        var index = 0
        for value in observed.dropLast() {
            guard let found = committed[index...].firstIndex(where: { "\($0) #0" == value }) else {
                Issue.record("\(value) is not a committed state after \(committed[index]): \(observed), committed: \(committed)")
                return
            }
            index = found
        }
        if script.removeDuplicates {
            #expect(zip(observed, observed.dropFirst()).allSatisfy { $0 != $1 }, "\(observed)")
        }
    }
}

/// Thrown to roll a script's transaction back.
private struct ScriptRollback: Error { }

/// The values of an observation, from any thread.
private final class ValueLog: @unchecked Sendable {
    // @unchecked Sendable: the stored properties are only used under `lock`.
    private let lock = NSLock()
    private var storage: [String] = []
    private var storedError: (any Error)?

    var values: [String] { lock.withLock { storage } }
    var error: (any Error)? { lock.withLock { storedError } }

    func append(_ value: String) {
        lock.withLock { storage.append(value) }
    }

    func fail(_ error: any Error) {
        lock.withLock { storedError = error }
    }

    /// Waits until `condition` holds or the observation fails; throws after
    /// a minute (checking every millisecond: nothing to notify a waiter).
    func wait(until condition: ([String]) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while true {
            let (values, error) = lock.withLock { (storage, storedError) }
            if let error { throw error }
            if condition(values) { return }
            if Date() > deadline { throw ValueLogTimeout(values: values) }
            try await Task.sleep(nanoseconds: 1_000_000)
        }
    }
}

private struct ValueLogTimeout: Error, CustomStringConvertible {
    var values: [String]
    var description: String { "timed out; values: \(values)" }
}
