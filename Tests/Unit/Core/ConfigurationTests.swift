import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite
import TestSupport

@Suite struct ConfigurationTests {
    @Test func defaults() {
        let configuration = Configuration()
        #expect(configuration.foreignKeysEnabled)
        #expect(!configuration.readonly)
        #expect(configuration.label == nil)
        #expect(!configuration.acceptsDoubleQuotedStringLiterals)
        #expect(configuration.defaultTransactionKind == .immediate)
        #expect(configuration.trace == nil)
        #expect(configuration.transactionClock is DefaultTransactionClock)
        if case .immediateError = configuration.busyMode {
        } else {
            Issue.record("busyMode is \(configuration.busyMode)")
        }
        if case .default = configuration.journalMode {
        } else {
            Issue.record("journalMode is \(configuration.journalMode)")
        }
    }

    @Test func foreignKeysAreEnforcedByDefault() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 1)
            try db.execute(
                sql: "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parentId REFERENCES parent(id))"
            )
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO child VALUES (1)") }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
    }

    @Test func foreignKeysCanBeDisabled() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 0)
            try db.execute(
                sql: "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parentId REFERENCES parent(id))"
            )
            try db.execute(sql: "INSERT INTO child VALUES (1)")
        }
    }

    @Test func readonlyConnectionsReadButDontWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        var configuration = Configuration()
        configuration.readonly = true
        let missing = #expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: path, configuration: configuration)
        }
        #expect(missing?.resultCode == .SQLITE_CANTOPEN)
        try DatabaseQueue(path: path).write { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    @Test func busyCallbackDecidesWhetherToRetry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        let tries = CoreRecorder<Int>()
        var configuration = Configuration()
        configuration.busyMode = .callback { numberOfTries in
            tries.append(numberOfTries)
            return numberOfTries < 3
        }
        var lockerConfiguration = Configuration()
        lockerConfiguration.allowsUnsafeTransactions = true // keeps its lock across accesses
        let locker = try DatabaseQueue(path: path, configuration: lockerConfiguration)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try locker.writeWithoutTransaction { db throws in try db.execute(sql: "CREATE TABLE t (a); BEGIN IMMEDIATE") }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_BUSY)
        #expect(tries.values == [0, 1, 2, 3])
        try locker.writeWithoutTransaction { db throws in try db.execute(sql: "COMMIT") }
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(tries.count == 4, "no lock, no callback")
    }

    @Test func busyTimeoutEventuallyFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        var configuration = Configuration()
        configuration.busyMode = .timeout(0.05)
        var lockerConfiguration = Configuration()
        lockerConfiguration.allowsUnsafeTransactions = true // keeps its lock across accesses
        let locker = try DatabaseQueue(path: path, configuration: lockerConfiguration)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try locker.writeWithoutTransaction { db throws in try db.execute(sql: "CREATE TABLE t (a); BEGIN IMMEDIATE") }
        let start = ContinuousClock.now
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        // SQLite sleeps until the timeout is spent before it gives up.
        #expect(ContinuousClock.now - start >= .milliseconds(50), "the write gave up without waiting")
        #expect(error?.resultCode == .SQLITE_BUSY)
        try locker.writeWithoutTransaction { db throws in try db.execute(sql: "ROLLBACK") }
    }

    @Test func journalModes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let plain = try DatabaseQueue(path: directory.path("plain.sqlite"))
        #expect(try plain.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
        var configuration = Configuration()
        configuration.journalMode = .wal
        let wal = try DatabaseQueue(path: directory.path("wal.sqlite"), configuration: configuration)
        #expect(try wal.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        try wal.write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(FileManager.default.fileExists(atPath: directory.path("wal.sqlite-wal")))
        // In-memory databases ignore WAL.
        let memory = try DatabaseQueue(configuration: configuration)
        #expect(try memory.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "memory")
    }

    @Test func defaultTransactionKind() throws {
        let recorder = SQLRecorder()
        var configuration = Configuration()
        configuration.defaultTransactionKind = .deferred
        configuration.trace = recorder.record
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { _ throws in }
        try dbQueue.inDatabase { db throws in try db.inTransaction { .commit } }
        #expect(
            recorder.sql.filter { $0.hasPrefix("BEGIN") } == [
                "BEGIN DEFERRED TRANSACTION", "BEGIN DEFERRED TRANSACTION"
            ])
    }

    /// The trace shows parameters, not values, which may be private.
    @Test func traceReceivesSQLWithParameters() throws {
        let recorder = SQLRecorder()
        var configuration = Configuration()
        configuration.trace = recorder.record
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            try db.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [1, "O'Brien"])
        }
        #expect(recorder.sql.suffix(2) == ["CREATE TABLE t (a, b)", "INSERT INTO t VALUES (?, ?)"])
    }

    @Test func doubleQuotedStringLiterals() throws {
        let strict = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try strict.read { db throws in try String.fetchOne(db, sql: #"SELECT "foo""#) }
        }
        #expect(error?.message == noSuchColumnMessage("foo", doubleQuoted: true))
        var configuration = Configuration()
        configuration.acceptsDoubleQuotedStringLiterals = true
        let lenient = try DatabaseQueue(configuration: configuration)
        #expect(try lenient.read { try String.fetchOne($0, sql: #"SELECT "foo""#) } == "foo")
    }

    @Test func prepareDatabaseRunsInOrderAfterSetup() throws {
        let events = CoreRecorder<String>()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            events.append("first foreign_keys=\(try Int.fetchOne(db, sql: "PRAGMA foreign_keys")!)")
        }
        configuration.prepareDatabase { db in
            try db.execute(sql: "CREATE TEMP TABLE prepared (a)")
            events.append("second")
        }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        #expect(events.values == ["first foreign_keys=1", "second"])
        #expect(try dbQueue.read { try $0.tableExists("prepared") })
    }

    @Test func configurationIsAValue() throws {
        var configuration = Configuration()
        configuration.label = "a"
        let dbQueue = try DatabaseQueue(configuration: configuration)
        configuration.label = "b"
        #expect(dbQueue.configuration.label == "a")
    }
}

// MARK: - Target queues

extension ConfigurationTests {
    /// A queue and the key that tells, from inside a block, whether it runs
    /// on that queue or on a queue that targets it.
    private struct MarkedQueue {
        static let key = DispatchSpecificKey<String>()
        let queue: DispatchQueue
        let name: String

        init(_ name: String, concurrent: Bool = false) {
            queue = DispatchQueue(label: name, attributes: concurrent ? .concurrent : [])
            queue.setSpecific(key: Self.key, value: name)
            self.name = name
        }

        /// The name of the marked queue the current block runs on.
        static var current: String? { DispatchQueue.getSpecific(key: key) }
    }

    @Test func accessesOfAQueueRunOnTheTargetQueue() throws {
        let target = MarkedQueue("target")
        var config = Configuration()
        config.targetQueue = target.queue
        let dbQueue = try DatabaseQueue(configuration: config)
        #expect(try dbQueue.write { _ in MarkedQueue.current } == "target")
        #expect(try dbQueue.read { _ in MarkedQueue.current } == "target")
        #expect(MarkedQueue.current == nil)
    }

    @Test func writableConnectionsPreferTheWriteTargetQueue() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = MarkedQueue("target", concurrent: true)
        let writeTarget = MarkedQueue("writeTarget")
        var config = Configuration()
        config.targetQueue = target.queue
        config.writeTargetQueue = writeTarget.queue

        let dbQueue = try DatabaseQueue(path: directory.path("queue.sqlite"), configuration: config)
        #expect(try dbQueue.write { _ in MarkedQueue.current } == "writeTarget")
        #expect(try dbQueue.read { _ in MarkedQueue.current } == "writeTarget")

        // Read-only connections target `targetQueue`.
        var readonlyConfig = config
        readonlyConfig.readonly = true
        let readonlyQueue = try DatabaseQueue(path: directory.path("queue.sqlite"), configuration: readonlyConfig)
        #expect(try readonlyQueue.read { _ in MarkedQueue.current } == "target")

        // A pool's writer targets `writeTargetQueue`, its readers `targetQueue`.
        let dbPool = try DatabasePool(path: directory.path("pool.sqlite"), configuration: config)
        #expect(try dbPool.write { _ in MarkedQueue.current } == "writeTarget")
        #expect(try dbPool.read { _ in MarkedQueue.current } == "target")
        #expect(try dbPool.makeSnapshot().read { _ in MarkedQueue.current } == "target")
    }
}

// MARK: - Unsafe transactions

extension ConfigurationTests {
    @Test func unsafeTransactionsAreForbiddenByDefault() {
        #expect(!Configuration().allowsUnsafeTransactions)
    }

    /// With `allowsUnsafeTransactions`, a transaction may span accesses.
    @Test func unsafeTransactionsSpanAccesses() throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        #expect(dbQueue.inDatabase { $0.isInsideTransaction })
        try dbQueue.writeWithoutTransaction { db in try db.commit() }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    /// As GRDB: without it, an access that leaves a transaction open traps.
    @Test(arguments: ["queue", "pool"])
    func transactionLeftOpenTraps(kind: String) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [kind] in
            let directory = try TemporaryDirectory()
            let writer: any DatabaseWriter = kind == "queue"
                ? try DatabaseQueue()
                : try DatabasePool(path: directory.path())
            try writer.writeWithoutTransaction { db in try db.beginTransaction() }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("A transaction has been left opened at the end of a database access"))
    }
}
