import CFaultInjection
import Dispatch
import Foundation
@_spi(GRDBLite) import GRDBLite
import Synchronization
import Testing
import TestSupport

/// The allocation countdown of `OutOfMemoryTests` (SQLite's allocator
/// fails the N-th allocation, once or for good, in a child process) through
/// the rest of the library: a pool with a `ValueObservation` and a
/// concurrent read, the migrator, FTS5 with a wrapper tokenizer registered
/// by `add(tokenizer:)`, and backup and `erase()`. Each workload opens its
/// databases under injection. At each fault point:
///
/// - every error, thrown or notified, is a `DatabaseError` with
///   `SQLITE_NOMEM` (or `SQLITE_IOERR_NOMEM`), and nothing crashes;
/// - every value read equals the one a fault-free run reads at the same
///   place (an observed value is one of the states a fault-free run goes
///   through);
/// - once the faults are gone, the databases hold a state of before or
///   after each failed step, never a mix, and the workload retried
///   completes;
/// - once they are closed, every allocation SQLite made for them is freed.
///
/// Each workload must reach at least 500 fault points. A transient fault
/// (one failed allocation) runs at every point; a persistent one (every
/// allocation from the N-th on fails) at one point in 6 to 12 by default,
/// from a random offset (each run covers other points), and
/// `GRDBLITE_RELIABILITY_SCALE=3` or more runs them all.
@Suite struct OutOfMemoryWorkloadTests {
    @Test(arguments: [false, true], OutOfMemoryWorkloads.Name.allCases)
    func everyAllocationFailureIsAnError(persistent: Bool, workload: OutOfMemoryWorkloads.Name) async throws {
        // A seeded offset: each run covers other points, and GRDBLITE_SEED
        // replays one.
        let seed: UInt64 = SeededGenerator.fromEnvironment().seed
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [persistent, workload, seed = seed as UInt64] in
            print(OutOfMemoryWorkloads.run(workload, persistent: persistent, scale: reliabilityScale, seed: seed))
        }
        checkOutOfMemoryReport(result, minimumPoints: OutOfMemoryWorkloads.minimumFaultPoints, label: "\(workload): ")
    }
}

/// What one run of a workload saw.
final class OutOfMemoryAttempt: @unchecked Sendable {
    // @unchecked Sendable: a lock guards the mutable state.
    private let lock = NSLock()
    private var _values: [(String, String)] = []
    private var _errors: [any Error] = []
    /// Run once the faults are gone, in order: checks that the databases
    /// work and hold no partial step, and closes them.
    var recoveries: [() throws -> Void] = []

    /// Records a value read at `place`.
    func read(_ place: String, _ value: String) {
        lock.withLock { _values.append((place, value)) }
    }

    /// Records an error notified (not thrown).
    func notify(_ error: any Error) {
        lock.withLock { _errors.append(error) }
    }

    var values: [(String, String)] { lock.withLock { _values } }
    var errors: [any Error] { lock.withLock { _errors } }
}

/// A value shared with escaping closures.
final class OutOfMemoryShared<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func get() -> Value { value.withLock { $0 } }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
}

/// The workloads, run in the child process.
enum OutOfMemoryWorkloads {
    /// The fewest fault points a workload must reach.
    static let minimumFaultPoints = 500

    enum Name: String, CaseIterable, Sendable, Codable {
        case pool, migrator, fts5, backup
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A workload: runs in `directory` with the allocator armed.
    static func body(_ name: Name) -> (_ directory: String, _ attempt: OutOfMemoryAttempt) throws -> Void {
        switch name {
        case .pool: poolWorkload
        case .migrator: migratorWorkload
        case .fts5: fts5Workload
        case .backup: backupWorkload
        }
    }

    /// The distance between the fault points run: 1 (every point) for a
    /// transient fault or at scale 3 or more, else `stride(name)`.
    static func step(_ name: Name, persistent: Bool, scale: Int) -> Int {
        persistent && scale < 3 ? stride(name) : 1
    }

    /// Every `stride`-th fault point of a persistent fault runs by default.
    static func stride(_ name: Name) -> Int {
        switch name {
        case .pool: 6
        case .migrator: 8
        case .fts5: 8
        case .backup: 12
        }
    }

    static func configuration(wal: Bool = false) -> Configuration {
        var config = Configuration()
        config.journalMode = wal ? .wal : .default
        // Durability is not under test here: no fsync, for speed.
        config.prepareDatabase { try $0.execute(sql: "PRAGMA synchronous = OFF") }
        return config
    }

    /// Whether `error` is what an allocation failure may cause.
    static func isOutOfMemory(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_NOMEM || error.extendedResultCode == .SQLITE_IOERR_NOMEM
    }

    // MARK: - Pool and observation

    /// The rows of `t`, or "-" if it doesn't exist.
    static func poolState(_ db: Database) throws -> String {
        guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 't'") == 1 else { return "-" }
        let rows = try String.fetchAll(db, sql: "SELECT id || ':' || name || ':' || score FROM t ORDER BY id")
        return rows.joined(separator: ",")
    }

    /// The steps of the pool workload: each one idempotent, so that a
    /// retry from the start ends in the same state.
    static func poolStep(_ db: Database, _ step: Int) throws {
        switch step {
        case 0:
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            for id in 1...10 {
                try db.execute(sql: "INSERT OR IGNORE INTO t VALUES (?, ?, ?)", arguments: [id, "name \(id)", id])
            }
        default:
            try db.execute(
                sql: "INSERT OR REPLACE INTO t VALUES (?, ?, ?)", arguments: [100 + step, "step ✨ \(step)", step])
            try db.execute(sql: "UPDATE t SET score = ? WHERE id = ?", arguments: [step * 1000, step])
        }
    }

    static let poolStepCount = 5

    static func poolWorkload(_ directory: String, _ attempt: OutOfMemoryAttempt) throws {
        var config = configuration(wal: true)
        config.maximumReaderCount = 2
        let pool = try DatabasePool(path: directory + "/pool.sqlite", configuration: config)
        let cancellable = OutOfMemoryShared<AnyDatabaseCancellable?>(nil)
        let observationFailed = OutOfMemoryShared(false)
        let lastObserved = OutOfMemoryShared<String?>(nil)
        attempt.recoveries.append {
            // Without faults: the pool holds the state of a step, and the
            // steps retried complete.
            let state = try pool.read(poolState)
            attempt.read("any state after the fault", state)
            for step in 0..<poolStepCount {
                try pool.write { try poolStep($0, step) }
            }
            attempt.read("state after the retry", try pool.read(poolState))
            let final = try pool.read(poolState)
            // An observation that did not fail sees the last commit.
            if !observationFailed.get() && cancellable.get() != nil {
                let deadline = Date().addingTimeInterval(10)
                while lastObserved.get() != final && Date() < deadline && !observationFailed.get() {
                    Thread.sleep(forTimeInterval: 0.001)
                }
                if lastObserved.get() != final && !observationFailed.get() {
                    throw Failure(description: "the observation missed the last commit")
                }
            }
            cancellable.get()?.cancel()
            try pool.close()
        }
        try pool.write { try poolStep($0, 0) }
        let queue = DispatchQueue(label: "observation")
        let observation = ValueObservation.tracking(poolState)
        cancellable.set(
            observation.start(
                in: pool, scheduling: .async(onQueue: queue),
                onError: { error in
                    observationFailed.set(true)
                    attempt.notify(error)
                },
                onChange: { value in
                    attempt.read("any observed", value)
                    lastObserved.set(value)
                }))
        for step in 1..<poolStepCount - 1 {
            try pool.write { try poolStep($0, step) }
            attempt.read("read after step \(step)", try pool.read(poolState))
        }
        // A concurrent read sees the last commit of the write.
        let seen = OutOfMemoryShared<Result<String, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        try pool.writeWithoutTransaction { db in
            try db.inTransaction {
                try poolStep(db, poolStepCount - 1)
                return .commit
            }
            pool.asyncConcurrentRead { dbResult in
                seen.set(Result { try poolState(dbResult.get()) })
                done.signal()
            }
            if done.wait(timeout: .now() + 10) == .timedOut { throw Failure(description: "concurrent read hangs") }
        }
        if let result = seen.get() {
            attempt.read("concurrent read", try result.get())
        }
    }

    // MARK: - Migrator

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            for index in 1...5 {
                try db.execute(sql: "INSERT INTO author (name) VALUES (?)", arguments: ["author \(index)"])
            }
        }
        migrator.registerMigration("v2") { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("authorId", .integer).references("author")
                t.column("title", .text)
            }
            try db.execute(sql: "INSERT INTO book (authorId, title) SELECT id, 'book of ' || name FROM author")
        }
        migrator.registerMigration("v3") { db in
            try db.alter(table: "author") { t in t.add(column: "country", .text).defaults(to: "FR") }
            try db.create(index: "book_title", on: "book", columns: ["title"])
        }
        migrator.registerMigration("v4") { db in
            try db.execute(sql: "UPDATE book SET title = upper(title)")
            try db.create(table: "review") { t in
                t.column("bookId", .integer).references("book")
                t.column("stars", .integer)
            }
        }
        return migrator
    }

    /// Whether the migrations recorded are those whose changes are in the
    /// schema.
    static func migrationsMatchSchema(_ db: Database) throws -> Bool {
        let applied = try migrator.appliedIdentifiers(db)
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        let columns = tables.contains("author") ? Set(try db.columns(in: "author").map(\.name)) : []
        return applied.contains("v1") == tables.contains("author")
            && applied.contains("v2") == tables.contains("book")
            && applied.contains("v3") == columns.contains("country")
            && applied.contains("v4") == tables.contains("review")
    }

    static func migratedState(_ db: Database) throws -> String {
        let titles = try String.fetchAll(db, sql: "SELECT title FROM book ORDER BY id")
        let countries = try String.fetchAll(db, sql: "SELECT country FROM author ORDER BY id")
        return (try migrator.appliedMigrations(db) + titles + countries).joined(separator: ",")
    }

    static func migratorWorkload(_ directory: String, _ attempt: OutOfMemoryAttempt) throws {
        let dbQueue = try DatabaseQueue(path: directory + "/migrated.sqlite", configuration: configuration())
        attempt.recoveries.append {
            guard try dbQueue.read(migrationsMatchSchema) else {
                throw Failure(description: "the migrations recorded don't match the schema")
            }
            try migrator.migrate(dbQueue)
            attempt.read("after the retry", try dbQueue.read(migratedState))
            try dbQueue.close()
        }
        try migrator.migrate(dbQueue, upTo: "v2")
        try migrator.migrate(dbQueue)
        attempt.read("migrated", try dbQueue.read(migratedState))
    }

    // MARK: - FTS5

    /// Drops the token "the", and adds the colocated synonym "ocean" to
    /// "sea".
    final class SynonymTokenizer: FTS5WrapperTokenizer {
        static let name = "synonyms"
        let wrappedTokenizer: any FTS5Tokenizer

        init(db: Database, arguments: [String]) throws {
            wrappedTokenizer = try db.makeTokenizer(.unicode61(diacritics: .remove))
        }

        func accept(
            token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
            tokenCallback: FTS5WrapperTokenCallback) throws
        {
            if token == "the" { return }
            try tokenCallback(token, flags)
            if token == "sea" { try tokenCallback("ocean", .colocated) }
        }
    }

    static let documents = [
        "The sea and the sky", "Écume de la mer", "A boat on the ocean", "Sea shells", "Nothing here",
        "Deep blue sea", "L'océan Atlantique", "The last sea shanty",
    ]

    /// Creates and fills the table: idempotent.
    static func fillDocuments(_ db: Database) throws {
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS doc USING fts5(body, tokenize = 'synonyms')")
        for (index, document) in documents.enumerated() {
            try db.execute(sql: "INSERT OR REPLACE INTO doc (rowid, body) VALUES (?, ?)", arguments: [index, document])
        }
    }

    static func search(_ db: Database) throws -> String {
        let matches = try ["ocean", "sea", "ecume", "the", "oce*"].map { pattern in
            try Int.fetchAll(db, sql: "SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY rowid", arguments: [pattern])
                .map(String.init).joined(separator: " ")
        }
        let tokens = try db.makeTokenizer(SynonymTokenizer.tokenizerDescriptor())
            .tokenize(document: "The deep sea, l'Océan")
            .map { "\($0.token)\($0.flags.contains(.colocated) ? "+" : "")" }
        return (matches + tokens).joined(separator: "|")
    }

    static func fts5Workload(_ directory: String, _ attempt: OutOfMemoryAttempt) throws {
        var config = configuration()
        config.prepareDatabase { db in db.add(tokenizer: SynonymTokenizer.self) }
        let dbQueue = try DatabaseQueue(path: directory + "/fts.sqlite", configuration: config)
        attempt.recoveries.append {
            // The table holds all documents or none.
            let count = try dbQueue.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'doc'") == 1
                    ? try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc") : 0
            }
            if count != 0 && count != documents.count {
                throw Failure(description: "\(count ?? -1) documents")
            }
            try dbQueue.write(fillDocuments)
            try dbQueue.write { try $0.execute(sql: "INSERT INTO doc (doc) VALUES ('integrity-check')") }
            attempt.read("search", try dbQueue.read(search))
            try dbQueue.close()
        }
        try dbQueue.write(fillDocuments)
        attempt.read("search", try dbQueue.read(search))
    }

    // MARK: - Backup and erase

    static func fillSource(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, payload BLOB);
            CREATE INDEX item_name ON item(name);
            CREATE VIEW item_view AS SELECT id, name FROM item;
            """)
        for id in 1...30 {
            try db.execute(
                sql: "INSERT INTO item VALUES (?, ?, ?)",
                arguments: [id, "item \(id)", Data(repeating: UInt8(id), count: 100 * id)])
        }
    }

    /// The schema and data, or "-" if empty.
    static func copyState(_ db: Database) throws -> String {
        let schema = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master ORDER BY name")
        if schema.isEmpty { return "-" }
        let rows = try String.fetchAll(db, sql: """
            SELECT id || ':' || name || ':' || length(payload) || ':' || hex(substr(payload, 1, 2)) FROM item
            """)
        return (schema + rows).joined(separator: ",")
    }

    static func backupWorkload(_ directory: String, _ attempt: OutOfMemoryAttempt) throws {
        let source = try DatabaseQueue(path: directory + "/source.sqlite", configuration: configuration())
        attempt.recoveries.append { try source.close() }
        let destination = try DatabaseQueue(path: directory + "/copy.sqlite", configuration: configuration(wal: true))
        let checkAndClose: () throws -> Void = {
            // Each database is empty or whole, and the copy retried
            // completes.
            try source.write { db in
                if try copyState(db) == "-" { try fillSource(db) }
            }
            let data = try source.read(copyState)
            let copied = try destination.read(copyState)
            if copied != "-" && copied != data { throw Failure(description: "partial copy: \(copied)") }
            try source.backup(to: destination)
            attempt.read("after the retry", try destination.read(copyState))
            try destination.erase()
            attempt.read("erased again", try destination.read(copyState))
            for db in [source, destination] as [DatabaseQueue] {
                let integrity = try db.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
                if integrity != ["ok"] { throw Failure(description: "integrity: \(integrity)") }
            }
            try destination.close()
        }
        attempt.recoveries.insert(checkAndClose, at: 0)
        try source.write(fillSource)
        try source.backup(to: destination)
        attempt.read("copy", try destination.read(copyState))
        let memory = try DatabaseQueue()
        try destination.backup(to: memory)
        attempt.read("copy of the copy", try memory.read(copyState))
        try memory.close()
        try destination.erase()
        attempt.read("erased", try destination.read(copyState))
        try source.erase()
        attempt.read("source erased", try source.read(copyState))
    }

    // MARK: - The countdown

    /// Returns the report: statistics, and a line starting with
    /// "FAILURE " for each problem.
    static func run(_ name: Name, persistent: Bool, scale: Int, seed: UInt64) -> String {
        do {
            return try countdown(name, persistent: persistent, scale: scale, seed: seed)
        } catch {
            return "FAILURE \(error)"
        }
    }

    static func countdown(_ name: Name, persistent: Bool, scale: Int, seed: UInt64) throws -> String {
        let code = grdblite_fault_malloc_install()
        guard code == SQLITE_OK else { throw Failure(description: "can't install the allocator: \(code)") }
        let temporaryDirectory = try TemporaryDirectory()
        defer { temporaryDirectory.remove() }
        let workload = body(name)

        // The values of a fault-free run.
        var expected: [String: Set<String>] = [:]
        do {
            let directory = temporaryDirectory.path("reference")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let attempt = OutOfMemoryAttempt()
            try workload(directory, attempt)
            defer { attempt.recoveries = [] }  // they retain the attempt
            for recovery in attempt.recoveries { try recovery() }
            for (place, value) in attempt.values { expected[place, default: []].insert(value) }
        }
        // A value read at a place named "any ..." is one of the states the
        // workload goes through, or "-" (nothing yet).
        let states = expected.values.reduce(into: Set<String>(["-"])) { $0.formUnion($1) }

        let step = step(name, persistent: persistent, scale: scale)
        var failures: [String] = []
        var codes: [String: Int] = [:]
        var faultPoints = 0
        var runs = 0
        var leaks = 0
        let limit = 100_000
        let first = 1 + Int(SeededGenerator(seed: seed).state % UInt64(step))
        var countdown = first
        var faults = 0
        // GRDBLITE_OOM_POINT=N runs point N alone, and prints what it saw.
        let only = ProcessInfo.processInfo.environment["GRDBLITE_OOM_POINT"].flatMap { Int($0) }
        if let only { countdown = only }
        while countdown <= limit {
            defer { countdown += step }
            let context = "allocation \(countdown)"
            let directory = temporaryDirectory.path("db-\(countdown)")
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let baseline = grdblite_fault_malloc_outstanding()
            var injected = 0
            // The databases are released at the end of the block.
            do {
                let attempt = OutOfMemoryAttempt()
                grdblite_fault_malloc_arm(Int32(countdown), persistent ? 1 : 0)
                let result = Result { try workload(directory, attempt) }
                injected = Int(grdblite_fault_malloc_fault_count())
                grdblite_fault_malloc_disarm()

                var errors = attempt.errors
                if case .failure(let error) = result { errors.append(error) }
                if injected == 0 {
                    // The workload ran without reaching the fault.
                    if !errors.isEmpty { failures.append("\(context): failed without a fault: \(errors)") }
                    // It reached the fault of the point tried before.
                    faultPoints = max(0, countdown - step)
                } else {
                    runs += 1
                    faults += injected
                }
                for error in errors {
                    if let error = error as? DatabaseError {
                        let message = (error.message ?? "").replacing(/\/\S*\/grdblite-tests-\S*/, with: "<file>")
                        codes["\(error.extendedResultCode.rawValue) \(message)", default: 0] += 1
                    }
                    if !isOutOfMemory(error) { failures.append("\(context): \(type(of: error)) \(error)") }
                }
                // Without faults, the databases work and hold no partial step.
                for recovery in attempt.recoveries {
                    do {
                        try recovery()
                    } catch {
                        failures.append("\(context): after the fault: \(error)")
                    }
                }
                attempt.recoveries = []  // they retain the attempt
                if only != nil { failures.append("\(context): read \(attempt.values); errors \(errors)") }
                for (place, value) in attempt.values
                where !(place.hasPrefix("any ") ? states : expected[place] ?? []).contains(value) {
                    failures.append("\(context): \(place): read \(value), expected \(expected[place] ?? [])")
                }
            }
            // Everything SQLite allocated for the databases is freed.
            if grdblite_fault_malloc_outstanding() != baseline {
                leaks += 1
                if leaks <= 3 {
                    failures.append(
                        "\(context): \(grdblite_fault_malloc_outstanding() - baseline) allocations outstanding")
                }
            }
            if failures.count > 20 || injected == 0 || only != nil { break }
            if countdown + step > limit { failures.append("the workload still allocates after \(limit)") }
        }
        return failures.map { "FAILURE \($0.replacingOccurrences(of: "\n", with: " | "))\n" }.joined() + """
            OutOfMemoryWorkloadTests \(name) \(persistent ? "persistent" : "transient"): \(faultPoints) allocation \
            fault points (every \(step) from \(first), seed \(seed): \(runs) run), \(faults) failed allocations; \
            errors: \
            \(codes.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: "; "))
            """
    }
}
