import Foundation
import GRDBLite
import TestSupport
import PropertyBased
import Synchronization
import Testing

/// Random scripts of transactions, savepoints, failing statements, and
/// reads of `db.transactionDate`, with an injected clock
/// (`Configuration.transactionClock`):
/// - the dates each read returns (and each timestamped record gets), and the
///   number of clock calls, are those of `ClockModel`;
/// - the same script and clock give the same database file, byte for byte.
@Suite struct TransactionClockTests {
    @Test func datesAndClockCallsFollowTheModel() async {
        await checkProperty(count: 1000, input: ClockGenerators.clockCase) { testCase in
            let run = try runScript(testCase, path: nil)
            let model = ClockModel(clock: testCase.clock)
            let expected = ScriptModel(delegate: model).run(testCase.script)
            expectSameLog(run.log, expected)
            #expect(run.clockCalls == model.calls, "clock calls")
        }
    }

    @Test func sameScriptSameDatabaseFile() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        await checkProperty(count: 250, input: ClockGenerators.clockCase) { testCase in
            let paths = ["a", "b"].map { directory.path("\($0)-\(UUID().uuidString).sqlite") }
            defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
            let first = try runScript(testCase, path: paths[0])
            let second = try runScript(testCase, path: paths[1])
            expectSameLog(second.log, first.log, "log of the second run")
            #expect(second.clockCalls == first.clockCalls)
            let files = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
            #expect(files[0].count > 0)
            #expect(files[0] == files[1], "database files")
        }
    }

    /// Runs the script with the clock of the case, on a new database
    /// (in memory if `path` is nil).
    private func runScript(_ testCase: ClockCase, path: String?) throws -> (log: [String], clockCalls: Int) {
        let clock = ScriptClock(testCase.clock)
        var configuration = Configuration()
        configuration.transactionClock = .custom { _ in try clock.now() }
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = OFF")
        }
        let dbQueue = try path.map { try DatabaseQueue(path: $0, configuration: configuration) }
            ?? DatabaseQueue(configuration: configuration)
        // Statements in autocommit mode don't ask the clock.
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: FailingStatement.schema)
            try db.execute(
                sql:
                    "CREATE TABLE stamp (id INTEGER PRIMARY KEY, creationDate DATETIME NOT NULL, modificationDate DATETIME NOT NULL)"
            )
        }
        let log = ScriptLog()
        let runner = ScriptRunner<ClockAction>(dbQueue: dbQueue, log: log) { action, db in
            switch action {
            case .readDate:
                return try testCase.clock.label(of: db.transactionDate)
            case .insertStamp:
                var stamp = Stamp()
                try stamp.insert(db)
                return
                    "\(testCase.clock.label(of: stamp.creationDate!)) \(testCase.clock.label(of: stamp.modificationDate!))"
            case .touchStamps:
                let date = try db.transactionDate
                for var stamp in try Stamp.fetchAll(db) {
                    try stamp.updateChanges(db) { $0.modificationDate = date }
                }
                return testCase.clock.label(of: date)
            case .countStamps:
                _ = try Stamp.fetchCount(db)
                return "ok"
            }
        }
        runner.run(testCase.script)
        return (log.entries, clock.calls)
    }
}

/// A record with creation and modification dates, set from
/// `db.transactionDate` as GRDB's record timestamps do.
private struct Stamp: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var creationDate: Date?
    var modificationDate: Date?

    mutating func willInsert(_ db: Database) throws {
        if creationDate == nil { creationDate = try db.transactionDate }
        if modificationDate == nil { modificationDate = try db.transactionDate }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// The injected clock, which counts its calls.
private final class ScriptClock: Sendable {
    private let spec: ClockSpec
    private let callCount = Mutex(0)

    init(_ spec: ClockSpec) {
        self.spec = spec
    }

    var calls: Int { callCount.withLock { $0 } }

    func now() throws -> Date {
        let call = callCount.withLock { count in
            defer { count += 1 }
            return count
        }
        if spec.failingCalls.contains(call) { throw ClockError(call: call) }
        return spec.date(call: call)
    }
}
