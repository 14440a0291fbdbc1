import CFaultInjection
import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing
import TestSupport

/// Allocation failure injection, after SQLite's own malloc tests: SQLite's
/// allocator is replaced (process-wide, so each test runs in a child
/// process: a Swift Testing exit test) by one that fails the N-th
/// allocation, for N = 1, 2, 3... until the workload runs without reaching
/// the fault. The workload opens a database observed by a transaction
/// observer, writes with statements, savepoints and records, and reads
/// with cursors, rows and `Decodable` records, in memory and in a file
/// (rollback journal and WAL). At each
/// fault point it must succeed or throw a `DatabaseError`, never crash,
/// and the queue must then hold the data of before or after the failed
/// transaction, and accept a retry. Once the queue is closed, every
/// allocation SQLite made for it is freed (the allocator counts them).
/// Swift's heap is checked by Address Sanitizer's leak checker, which
/// runs in the child process under `Scripts/sanitizers.sh address` (CI's
/// sanitizers job): a leaked object makes the child exit with 1, and the
/// exit test fails.
@Suite struct OutOfMemoryTests {
    @Test(arguments: [false, true], OutOfMemoryWorkload.Storage.allCases)
    func everyAllocationFailureIsAnError(persistent: Bool, storage: OutOfMemoryWorkload.Storage) async throws {
        // The child reports its findings on stdout; a crash is a signal.
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [persistent, storage] in
            print(OutOfMemoryWorkload.run(persistent: persistent, storage: storage))
        }
        checkOutOfMemoryReport(result, minimumPoints: OutOfMemoryWorkload.minimumFaultPoints)
    }
}

/// Allocation failures in conversions that SQLite makes as values are
/// read: numbers read as text or bytes, blobs read as text, through
/// `fetchOne`, `fetchAll`, `fetchSet`, cursors, rows read by index and by
/// name, and records; and in the copies of values that the `arguments`
/// setter binds (a failed bind is the error of the next run). A value that comes
/// back equals the fault-free one (never `""` or nil for a value that
/// exists); an allocation failure is `SQLITE_NOMEM`, not a decoding error.
@Suite struct OutOfMemoryConversionTests {
    @Test(arguments: [false, true])
    func everyConversionGivesTheValueOrNOMEM(persistent: Bool) async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [persistent] in
            print(OutOfMemoryConversions.run(persistent: persistent))
        }
        checkOutOfMemoryReport(result, minimumPoints: OutOfMemoryConversions.minimumFaultPoints)
    }
}

/// The conversion workload, in the child process.
enum OutOfMemoryConversions {
    /// The fewest fault points a run must reach.
    static let minimumFaultPoints = 500

    struct Item: Decodable, FetchableRecord, Equatable {
        var i: String
        var r: Data
        var b: String
    }

    /// Reads every value in a way that makes SQLite convert it.
    static func readAll(_ db: Database) throws -> String {
        var parts: [String] = []
        parts.append(try String.fetchOne(db, sql: "SELECT i FROM v ORDER BY i") ?? "nil")
        parts.append(try String.fetchAll(db, sql: "SELECT r FROM v ORDER BY i").joined(separator: ","))
        parts.append(try Data.fetchOne(db, sql: "SELECT r FROM v ORDER BY i").map { "\($0.count)" } ?? "nil")
        parts.append(try String.fetchOne(db, sql: "SELECT b FROM v ORDER BY i") ?? "nil")
        let optionals = try String?.fetchAll(db, sql: "SELECT i FROM v ORDER BY i")
        parts.append(optionals.map { $0 ?? "nil" }.joined(separator: ","))
        let cursor = try String.fetchCursor(db, sql: "SELECT i * 1000 FROM v ORDER BY i")
        while let value = try cursor.next() { parts.append(value) }
        let items = try Item.fetchAll(db, sql: "SELECT CAST(i AS TEXT) AS i, CAST(r AS BLOB) AS r, b FROM v ORDER BY i")
        parts.append(items.map { "\($0.i) \($0.r.count) \($0.b)" }.joined(separator: ","))
        let rows = try Row.fetchAll(
            db, sql: "SELECT CAST(i AS TEXT), CAST(b AS TEXT), CAST(r AS BLOB) FROM v ORDER BY i")
        parts.append(
            rows.map { "\($0[0] as String) \($0[1] as String) \(($0[2] as Data).count)" }.joined(separator: ","))
        let row = try Row.fetchOne(db, sql: "SELECT CAST(i AS TEXT), CAST(b AS TEXT) FROM v ORDER BY i")
        parts.append(row.map { "\($0[0] as String) \($0[1] as String)" } ?? "nil")
        // Rows of a cursor, read by name, non-optional.
        let liveRows = try Row.fetchCursor(db, sql: "SELECT CAST(i AS TEXT) AS i, b, CAST(r AS BLOB) AS r FROM v")
        while let row = try liveRows.next() {
            parts.append("\(row["i"] as String) \(row["b"] as String) \((row[Column("r")] as Data).count)")
        }
        parts.append(try Data.fetchAll(db, sql: "SELECT r FROM v ORDER BY i").map { "\($0.count)" }.joined())
        // Integers and blobs as text, integers as bytes, one per row.
        parts.append(try String.fetchAll(db, sql: "SELECT i FROM v ORDER BY i").joined(separator: ","))
        parts.append(try String.fetchAll(db, sql: "SELECT b FROM v ORDER BY i").joined(separator: ","))
        parts.append(try Data.fetchAll(db, sql: "SELECT i FROM v ORDER BY i").map { "\($0.count)" }.joined())
        parts.append(try String.fetchSet(db, sql: "SELECT b FROM v").sorted().joined())
        // Values bound by the `arguments` setter, which copies them.
        let statement = try db.cachedStatement(sql: "SELECT ? || ?, length(?), ?")
        for index in 1...15 {
            statement.arguments = [
                String(repeating: "é", count: 100 * index), "\(index)", Data(repeating: 1, count: 500 * index),
                "✨ \(index)",
            ]
            let row = try Row.fetchOne(statement)
            parts.append(row.map { "\(($0[0] as String).count) \($0[1] as Int) \($0[2] as String)" } ?? "nil")
        }
        return parts.joined(separator: " | ")
    }

    static func run(persistent: Bool) -> String {
        do {
            let code = grdblite_fault_malloc_install()
            guard code == SQLITE_OK else { return "FAILURE can't install the allocator: \(code)" }
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE v (i INTEGER, r REAL, b BLOB)")
                for index in 1...40 {
                    try db.execute(
                        sql: "INSERT INTO v VALUES (?, ?, ?)",
                        // Blobs of growing sizes: each conversion of one allocates.
                        arguments: [
                            index * 1_000_003, Double(index) / 3,
                            Data("blob \(index) ✨ \(String(repeating: "x", count: 40 * index))".utf8),
                        ])
                }
            }
            let reference = try dbQueue.read(readAll)
            var failures: [String] = []
            var codes: [String: Int] = [:]
            var faultPoints = 0
            var faults = 0
            for countdown in 1...20_000 {
                let context = "allocation \(countdown)"
                grdblite_fault_malloc_arm(Int32(countdown), persistent ? 1 : 0)
                let result = Result { try dbQueue.read(readAll) }
                let injected = Int(grdblite_fault_malloc_fault_count())
                grdblite_fault_malloc_disarm()
                faults += injected
                switch result {
                case .success(let value):
                    if value != reference {
                        let parts = zip(value.split(separator: " | "), reference.split(separator: " | "))
                        let (read, expected) = parts.first { $0 != $1 } ?? ("", "")
                        failures.append("\(context): read \(read), expected \(expected)")
                    }
                case .failure(let error as DatabaseError):
                    codes["\(error.extendedResultCode.rawValue) \(error.message ?? "")", default: 0] += 1
                    if error.resultCode != .SQLITE_NOMEM { failures.append("\(context): \(error)") }
                case .failure(let error):
                    failures.append("\(context): not a DatabaseError: \(type(of: error)) \(error)")
                }
                if injected == 0 {
                    faultPoints = countdown - 1
                    break
                }
                // Without faults, reads work again.
                if (try? dbQueue.read(readAll)) != reference {
                    failures.append("\(context): reads differ after the fault")
                }
                if failures.count > 20 { break }
            }
            return failures.map { "FAILURE \($0)\n" }.joined() + """
                OutOfMemoryConversionTests \(persistent ? "persistent" : "transient"): \(faultPoints) allocation \
                fault points, \(faults) failed allocations; errors: \(codes.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "; "))
                """
        } catch {
            return "FAILURE \(error)"
        }
    }
}

/// What runs in the child process.
enum OutOfMemoryWorkload {
    /// The fewest fault points a run must reach (it reaches 1,665 in
    /// memory on SQLite 3.40.1, more in a file).
    static let minimumFaultPoints = 1_000

    /// Where the database lives.
    enum Storage: String, CaseIterable, Sendable, Codable {
        case memory, rollback, wal
    }

    struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        var id: Int64?
        var name: String
        var score: Int
        var avatar: Data?

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Observes every change, so that the observation layer runs too.
    final class Observer: TransactionObserver {
        var changes = 0
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { changes += 1 }
        func databaseDidCommit(_ db: Database) { }
        func databaseDidRollback(_ db: Database) { }
    }

    static func makeDatabase(_ storage: Storage, path: String) throws -> DatabaseQueue {
        var config = Configuration()
        config.journalMode = storage == .wal ? .wal : .default
        // Durability is not under test here: no fsync, for speed.
        config.prepareDatabase { try $0.execute(sql: "PRAGMA synchronous = OFF") }
        let dbQueue = storage == .memory ? try DatabaseQueue() : try DatabaseQueue(path: path, configuration: config)
        dbQueue.add(transactionObserver: Observer(), extent: .databaseLifetime)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, avatar BLOB);
                CREATE INDEX player_score ON player(score);
                """)
            for index in 1...20 {
                try db.execute(sql: "INSERT INTO player (name, score, avatar) VALUES (?, ?, ?)",
                    arguments: [
                        "player \(index)", index * 10, index % 3 == 0 ? nil : Data(repeating: UInt8(index), count: 200)
                    ])
            }
        }
        return dbQueue
    }

    static func transaction(_ db: Database) throws {
        var player = Player(id: nil, name: "Arthur ✨", score: 1000, avatar: Data(repeating: 7, count: 5000))
        try player.insert(db)
        player.score += 1
        try player.update(db)
        try db.inSavepoint {
            try db.execute(sql: "DELETE FROM player WHERE score < ?", arguments: [100])
            return .rollback
        }
        try db.execute(sql: "UPDATE player SET name = :name WHERE id = :id", arguments: ["name": "Barbara", "id": 2])
        try db.execute(sql: "DELETE FROM player WHERE id = ?", arguments: [3])
        let statement = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
        for index in 0..<5 {
            try statement.execute(values: "bulk \(index)", index)
        }
    }

    static func state(_ db: Database) throws -> String {
        var lines: [String] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT id, name, score, avatar FROM player ORDER BY id")
        while let row = try rows.next() {
            let name: String = row["name"]
            let avatar: Data? = row["avatar"]
            lines.append("\(row["id"] as Int64) \(name) \(row["score"] as Int) \(avatar?.count ?? -1)")
        }
        let players = try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id")
        guard players.count == lines.count else { throw Failure(description: "records and rows differ") }
        let names = try String.fetchAll(db, sql: "SELECT name FROM player WHERE score > ? ORDER BY id", arguments: [50])
        lines.append(names.joined(separator: ","))
        return lines.joined(separator: "\n")
    }

    /// Whether `error` is what an allocation failure may cause.
    static func check(_ error: any Error, _ context: String, _ failures: inout [String], _ codes: inout [String: Int]) {
        guard let error = error as? DatabaseError else {
            failures.append("\(context): not a DatabaseError: \(type(of: error)) \(error)")
            return
        }
        let message = (error.message ?? "").replacing(/\/\S*\/grdblite-tests-\S*/, with: "<file>")
        codes["\(error.extendedResultCode.rawValue) \(message)", default: 0] += 1
        if error.resultCode != .SQLITE_NOMEM {
            failures.append("\(context): \(error)")
        }
    }

    /// Returns the report: statistics, and a line starting with
    /// "FAILURE " for each problem.
    static func run(persistent: Bool, storage: Storage) -> String {
        do {
            return try runWithFaults(persistent: persistent, storage: storage)
        } catch {
            return "FAILURE \(error)"
        }
    }

    static func runWithFaults(persistent: Bool, storage: Storage) throws -> String {
        let code = grdblite_fault_malloc_install()
        guard code == SQLITE_OK else { throw Failure(description: "can't install the allocator: \(code)") }
        let temporaryDirectory = try TemporaryDirectory()
        defer { temporaryDirectory.remove() }
        let directory = temporaryDirectory.url.path
        // The expected states, without faults.
        let before: String
        let after: String
        do {
            let reference = try makeDatabase(storage, path: directory + "/reference.sqlite")
            before = try reference.read(state)
            try reference.write(transaction)
            after = try reference.read(state)
            try reference.close()
        }
        var leaks = 0

        var failures: [String] = []
        var codes: [String: Int] = [:]
        var faultPoints = 0
        var faults = 0
        let limit = 50_000
        for countdown in 1...limit {
            let context = "allocation \(countdown)"
            let path = directory + "/db-\(countdown).sqlite"
            defer {
                for suffix in ["", "-journal", "-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            let baseline = grdblite_fault_malloc_outstanding()
            grdblite_fault_malloc_arm(Int32(countdown), persistent ? 1 : 0)
            var dbQueue: DatabaseQueue?
            var transactionFailed = false
            do {
                dbQueue = try makeDatabase(storage, path: path)
            } catch {
                check(error, context + " (opening)", &failures, &codes)
            }
            if let dbQueue {
                do {
                    try dbQueue.write(transaction)
                    _ = try dbQueue.read(state)
                } catch {
                    transactionFailed = true
                    check(error, context, &failures, &codes)
                }
            }
            let injected = Int(grdblite_fault_malloc_fault_count())
            grdblite_fault_malloc_disarm()
            if injected == 0 {
                if transactionFailed || dbQueue == nil { failures.append("\(context): failed without a fault") }
                faultPoints = countdown - 1
                break
            }
            faults += injected
            if countdown == limit { failures.append("workload still allocates after \(limit) allocations") }

            // Without faults, the queue works and shows no partial transaction.
            if let dbQueue {
                do {
                    // Writes are allowed (a failed read did not leave the
                    // connection read-only).
                    try dbQueue.write { try $0.execute(sql: "DELETE FROM player WHERE name = 'nobody'") }
                    let current = try dbQueue.read(state)
                    // A transaction whose rollback failed is rolled back
                    // by the next access.
                    if dbQueue.inDatabase({ $0.isInsideTransaction }) {
                        failures.append("\(context): transaction left open")
                    }
                    if current == before {
                        try dbQueue.write(transaction)
                    } else if current != after {
                        failures.append("\(context): partial transaction:\n\(current)")
                    }
                    if try dbQueue.read(state) != after {
                        failures.append("\(context): retry did not give the expected state")
                    }
                } catch {
                    failures.append("\(context): queue unusable after the fault: \(error)")
                }
                do {
                    try dbQueue.close()
                } catch {
                    failures.append("\(context): close failed: \(error)")
                }
            }
            // Everything SQLite allocated for the queue is freed.
            if grdblite_fault_malloc_outstanding() != baseline {
                leaks += 1
                if leaks <= 3 {
                    failures.append(
                        "\(context): \(grdblite_fault_malloc_outstanding() - baseline) allocations outstanding after close")
                }
            }
            if failures.count > 20 { break }
        }
        return failures.map { "FAILURE \($0.replacingOccurrences(of: "\n", with: " | "))\n" }.joined() + """
            OutOfMemoryTests \(storage) \(persistent ? "persistent" : "transient"): \(faultPoints) allocation fault \
            points, \(faults) failed allocations; errors: \
            \(codes.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "; "))
            """
    }
}
