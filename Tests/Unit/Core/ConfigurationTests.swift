import Foundation
import Testing
import GRDBLite
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
        if case .immediateError = configuration.busyMode {} else { Issue.record("busyMode is \(configuration.busyMode)") }
        if case .default = configuration.journalMode {} else { Issue.record("journalMode is \(configuration.journalMode)") }
    }

    @Test func foreignKeysAreEnforcedByDefault() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 1)
            try db.execute(sql: "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parentId REFERENCES parent(id))")
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
            try db.execute(sql: "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (parentId REFERENCES parent(id))")
            try db.execute(sql: "INSERT INTO child VALUES (1)")
        }
    }

    @Test func readonlyConnectionsReadButDontWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        var configuration = Configuration()
        configuration.readonly = true
        let missing = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path, configuration: configuration) }
        #expect(missing?.resultCode == .SQLITE_CANTOPEN)
        try DatabaseQueue(path: path).write { db throws in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
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
        let locker = try DatabaseQueue(path: path)
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
        configuration.busyMode = .timeout(0.01)
        let locker = try DatabaseQueue(path: path)
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try locker.writeWithoutTransaction { db throws in try db.execute(sql: "CREATE TABLE t (a); BEGIN IMMEDIATE") }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
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
        #expect(recorder.sql.filter { $0.hasPrefix("BEGIN") } == ["BEGIN DEFERRED TRANSACTION", "BEGIN DEFERRED TRANSACTION"])
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
        #expect(error?.message == "no such column: foo")
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
