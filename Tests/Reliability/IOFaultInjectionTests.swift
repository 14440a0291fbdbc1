import CFaultInjection
import Foundation
import GRDBLite
import Testing
import TestSupport

/// I/O error injection, after SQLite's own ioerr tests: a VFS makes the
/// N-th I/O operation fail (read, write, sync, truncate, file size, open,
/// delete, access, locks, shared memory), for N = 1, 2, 3... until the
/// workload runs without reaching the fault. At each fault point:
///
/// - the workload either succeeds or throws a `DatabaseError` with an
///   I/O code (`SQLITE_IOERR_*`, `SQLITE_FULL`, `SQLITE_CANTOPEN`);
/// - the queue is still usable once the fault is gone: it sees the data
///   of before or after the transaction, never a mix, and the transaction
///   can be retried;
/// - the file passes `PRAGMA integrity_check` when opened again, and
///   holds what the queue last saw committed;
/// - the step the first fault hit (``FaultTrace``) threw, unless SQLite
///   documents that it recovers from the fault.
@Suite(.serialized) struct IOFaultInjectionTests {
    struct Scenario: Sendable, CustomTestStringConvertible {
        var mode: String
        var persistent: Bool
        var diskFull: Bool
        var testDescription: String {
            "\(mode), \(persistent ? "persistent" : "transient") \(diskFull ? "disk full" : "I/O error")"
        }
    }

    static let scenarios: [Scenario] = ["rollback", "wal"].flatMap { mode in
        [false, true].flatMap { persistent in
            [false, true].map { Scenario(mode: mode, persistent: persistent, diskFull: $0) }
        }
    }

    /// The codes the fault VFS fails operations with (see
    /// CFaultInjection.h); `SQLITE_IOERR` alone where SQLite reports a
    /// failed read of the header at open without its operation.
    static let injectedCodes: [ResultCode] = [
        .SQLITE_IOERR, .SQLITE_IOERR_READ, .SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE,
        .SQLITE_IOERR_FSTAT, .SQLITE_IOERR_DELETE, .SQLITE_IOERR_SHMMAP, .SQLITE_CANTOPEN,
        .SQLITE_IOERR_ACCESS, .SQLITE_IOERR_LOCK, .SQLITE_IOERR_UNLOCK, .SQLITE_IOERR_CHECKRESERVEDLOCK,
        .SQLITE_IOERR_SHMLOCK,
    ]

    private static func configuration(_ mode: String) -> Configuration {
        var config = Configuration()
        config.journalMode = mode == "wal" ? .wal : .default
        return config
    }

    /// The data, as one string, to compare states.
    private static func state(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: """
            SELECT group_concat(id || ':' || length(payload) || ':' || hex(substr(payload, 1, 4)), ',')
            FROM (SELECT * FROM t ORDER BY id)
            """) ?? ""
    }

    /// The transaction under test: inserts that need new pages, updates and
    /// deletes that touch existing ones.
    private static func transaction(_ db: Database) throws {
        for id in 101...130 {
            try db.execute(
                sql: "INSERT INTO t (id, payload) VALUES (?, ?)",
                arguments: [id, Data(repeating: UInt8(id), count: 900)])
        }
        try db.execute(sql: "UPDATE t SET payload = randomblob(700) || x'01020304' WHERE id % 7 = 0")
        try db.execute(sql: "UPDATE t SET payload = x'CAFE' WHERE id % 7 = 0")
        try db.execute(sql: "DELETE FROM t WHERE id % 11 = 0")
    }

    /// A database with 50 rows, and its state before and after the
    /// transaction.
    private static func makeTemplate(_ mode: String, at path: String) throws -> (before: String, after: String) {
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration(mode))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            for id in 1...50 {
                try db.execute(
                    sql: "INSERT INTO t (id, payload) VALUES (?, ?)",
                    arguments: [id, Data(repeating: UInt8(id), count: 600)])
            }
        }
        let before = try dbQueue.read(state)
        try dbQueue.close()
        let copy = path + ".copy"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let after = try DatabaseQueue(path: copy, configuration: configuration(mode)).write { db in
            try transaction(db)
            return try state(db)
        }
        return (before, after)
    }

    @Test(arguments: scenarios)
    func everyIOFaultIsAnErrorAndLosesNothing(_ scenario: Scenario) throws {
        #expect(grdblite_fault_vfs_register() == SQLITE_OK)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let template = directory.path("template.sqlite")
        let (before, after) = try Self.makeTemplate(scenario.mode, at: template)
        let config = Self.configuration(scenario.mode)
        let kind = scenario.diskFull ? GRDBLiteIOFaultDiskFull : GRDBLiteIOFaultError

        var faultPoints = 0
        var faults = 0
        var errors: [String: Int] = [:]
        var ambiguousCommits = 0
        var hits: [String: Int] = [:]  // step, operation, outcome
        var recoveries: [String: Int] = [:]
        for countdown in 1...100_000 {
            let path = directory.path("db-\(countdown).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: path)
            defer { try? FileManager.default.removeItem(atPath: path) }
            var dbQueue: DatabaseQueue?
            var trace = FaultTrace()
            grdblite_fault_vfs_arm(Int32(countdown), scenario.persistent ? 1 : 0, kind)
            let result = Result {
                dbQueue = try trace.run("open") {
                    try DatabaseQueue(path: "file:\(path)?vfs=grdblite-fault", configuration: config)
                }
                _ = try trace.run("read") { try dbQueue!.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } }
                try trace.run("write") { try dbQueue!.write(Self.transaction) }
                return try trace.run("read again") { try dbQueue!.read(Self.state) }
            }
            let injected = Int(grdblite_fault_vfs_fault_count())
            grdblite_fault_vfs_disarm()
            let context = "\(scenario.testDescription), fault at I/O operation \(countdown)"

            if injected == 0 {
                // The workload ran without reaching the fault: all points are covered.
                #expect(try result.get() == after, "\(context)")
                break
            }
            faultPoints += 1
            faults += injected
            // The fault surfaced from the step it hit, or SQLite documents
            // its recovery.
            trace.expectSurfaced(context, hits: &hits, recoveries: &recoveries)
            switch result {
            case .success(let state):
                // SQLite recovered (a transient fault it could retry or ignore).
                #expect(state == after, "\(context)")
            case .failure(let error as DatabaseError):
                errors["\(error.extendedResultCode.rawValue) \(error.message ?? "")", default: 0] += 1
                // The code of the failed operation, as the VFS returned
                // it: SQLite reports it unchanged.
                if scenario.diskFull {
                    #expect(error.extendedResultCode == .SQLITE_FULL, "\(context): \(error)")
                } else {
                    #expect(Self.injectedCodes.contains(error.extendedResultCode), "\(context): \(error)")
                }
            case .failure(let error):
                Issue.record("\(context): not a DatabaseError: \(error)")
            }

            // The queue that saw the fault keeps working.
            var expectedState: String?
            if let dbQueue {
                #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false, "\(context)")
                let state = try dbQueue.read(Self.state)
                #expect(state == before || state == after, "\(context): a partial transaction is visible")
                if case .failure = result, state == after { ambiguousCommits += 1 }
                if state == before {
                    try dbQueue.write(Self.transaction)
                }
                #expect(try dbQueue.read(Self.state) == after, "\(context)")
                try dbQueue.close()
                expectedState = after
            }
            // The file is sound.
            let reopened = try DatabaseQueue(path: path, configuration: config)
            #expect(
                try reopened.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"], "\(context)")
            let state = try reopened.read(Self.state)
            if let expectedState {
                #expect(state == expectedState, "\(context): committed data was lost")
            } else {
                #expect(state == before || state == after, "\(context)")
            }
            try reopened.close()
        }
        #expect(faultPoints > 10)
        // The loop reached reads, writes and syncs (and the WAL index):
        // each failed somewhere.
        if !scenario.diskFull {
            var reached: [ResultCode] = [.SQLITE_IOERR_READ, .SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_CANTOPEN]
            if scenario.mode == "wal" { reached.append(.SQLITE_IOERR_SHMMAP) }
            for code in reached {
                #expect(
                    errors.keys.contains { $0.hasPrefix("\(code.rawValue) ") },
                    "\(scenario.testDescription): no fault failed with \(code)")
            }
        }
        print("""
            IOFaultInjectionTests \(scenario.testDescription): \(faultPoints) fault points, \(faults) faults \
            injected, \(ambiguousCommits) failed commits that were durable; errors: \
            \(errors.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "; ")); \
            first fault by step, operation, outcome: \
            \(hits.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", ")); \
            recovered as SQLite documents: \
            \(recoveries.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "; "))
            """)
    }
}
