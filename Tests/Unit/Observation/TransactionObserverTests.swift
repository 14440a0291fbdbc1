import CSQLite
import Foundation
@_spi(GRDBLite) import GRDBLite
import TestSupport
import Testing

/// Changes, commits and rollbacks, in the order the seed describes.
@Suite struct TransactionObserverTests {
    // MARK: - Changes and transactions

    @Test func writeNotifiesEachChangeThenTheCommit() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET score = 10")
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "didChange update player 1",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func inTransactionCommit() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "DELETE FROM player WHERE id = 1")
            return .commit
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "didChange delete player 1",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func inTransactionRollback() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET score = 10")
            return .rollback
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "didChange update player 1",
            "didRollback",
        ])
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func writeThatThrowsRollsBack() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        #expect(throws: TestError(id: 1)) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
                throw TestError(id: 1)
            }
        }
        #expect(observer.events == ["didChange insert player 1", "didRollback"])
    }

    @Test func statementsOutsideOfTransactionCommitOneByOne() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "UPDATE player SET score = 10")
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "willCommit",
            "didCommit",
            "didChange update player 1",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func preparedStatementAndCursorExecution() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO player (id, name) VALUES (?, ?)")
            try statement.execute(arguments: [1, "Arthur"])
            try statement.execute(values: 2, "Barbara")
            // A cursor that runs to its end
            let ids = try Int.fetchAll(db, sql: "UPDATE player SET score = 0 WHERE id = 2 RETURNING id")
            #expect(ids == [2])
        }
        #expect(observer.events == [
            "didChange insert player 1", "willCommit", "didCommit",
            "didChange insert player 2", "willCommit", "didCommit",
            "didChange update player 2", "willCommit", "didCommit",
        ])
    }

    /// `fetchOne` on a statement that writes (`INSERT ... RETURNING`) runs
    /// it to its end, so that its commit is notified at once.
    @Test func fetchOneOfWritingStatementCommitsAtOnce() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db throws in
            let id = try Int.fetchOne(db, sql: "INSERT INTO player (id) VALUES (1), (2) RETURNING id")
            #expect(id == 1)
            #expect(
                observer.events == ["didChange insert player 1", "didChange insert player 2", "willCommit", "didCommit"]
            )
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
        }
        #expect(observer.events == [
            "didChange insert player 1", "didChange insert player 2", "willCommit", "didCommit",
            "didChange insert player 3", "willCommit", "didCommit",
        ])
    }

    /// A writing fetch whose record fails to decode (`DELETE ... RETURNING`
    /// of a NULL name) runs to its end before the error is thrown: its
    /// commit is notified at once, not at the next statement (found by the
    /// differential harness; GRDB's observers never hear of that commit).
    @Test func writingFetchThatFailsToDecodeCommitsAtOnce() throws {
        struct Named: FetchableRecord {
            var name: String
            init(row: Row) throws { name = try row.decode(forColumn: "name") }
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, NULL), (3, NULL)")
        }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db throws in
            #expect(throws: RowDecodingError.self) {
                try Named.fetchAll(db, sql: "DELETE FROM player WHERE id <= 2 RETURNING name")
            }
            #expect(observer.events == [
                "didChange delete player 1", "didChange delete player 2", "willCommit", "didCommit",
            ])
            #expect(throws: RowDecodingError.self) {
                try Named.fetchOne(db, sql: "DELETE FROM player RETURNING name")
            }
            #expect(observer.events.suffix(3) == ["didChange delete player 3", "willCommit", "didCommit"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            // Through a cursor (`deleteAndFetchAll`): it ends with the
            // error, and never runs the statement again.
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (4, NULL), (5, 'Eve')")
            let cursor = try Named.fetchCursor(db, sql: "DELETE FROM player RETURNING name")
            #expect(throws: RowDecodingError.self) { try Array(cursor) }
            #expect(observer.events.suffix(4) == [
                "didChange delete player 4", "didChange delete player 5", "willCommit", "didCommit",
            ])
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (6, 'Frank')")
            #expect(throws: RowDecodingError.self) { try cursor.next() }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Frank"])
        }
    }

    @Test func emptyTransactionsCommit() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { _ in }
        try dbQueue.inTransaction(.deferred) { _ in .commit }
        try dbQueue.inTransaction { _ in .rollback }
        #expect(observer.events == ["willCommit", "didCommit", "willCommit", "didCommit", "didRollback"])
    }

    /// How each way to end a transaction is notified, with observers added
    /// before it starts, or while it is open.
    @Test(arguments: [
        ("", "CREATE TABLE t(a)", true),
        ("", "INSERT INTO player (id) VALUES (1)", true),
        ("BEGIN DEFERRED TRANSACTION", "COMMIT", true),
        ("BEGIN DEFERRED TRANSACTION; CREATE TABLE t(a)", "COMMIT", true),
        ("BEGIN IMMEDIATE TRANSACTION", "COMMIT", true),
        ("BEGIN EXCLUSIVE TRANSACTION; CREATE TABLE t(a)", "END", true),
        ("SAVEPOINT test", "COMMIT", true),
        ("SAVEPOINT test", "RELEASE SAVEPOINT test", true),
        ("SAVEPOINT test; CREATE TABLE t(a)", "RELEASE SAVEPOINT test", true),
        ("SAVEPOINT test; ROLLBACK TRANSACTION TO SAVEPOINT test", "RELEASE SAVEPOINT test", true),
        ("BEGIN DEFERRED TRANSACTION", "ROLLBACK", false),
        ("BEGIN IMMEDIATE TRANSACTION; CREATE TABLE t(a)", "ROLLBACK", false),
        ("SAVEPOINT test", "ROLLBACK", false),
        ("SAVEPOINT test; CREATE TABLE t(a)", "ROLLBACK", false),
    ])
    func transactionCompletion(start: String, end: String, commits: Bool) throws {
        let expected = commits ? ["willCommit", "didCommit"] : ["didRollback"]
        for addsObserverInsideTransaction in [false, true] {
            let dbQueue = try makePlayerDatabase()
            let observer = RecordingObserver(observes: { _ in false })
            if !addsObserverInsideTransaction { dbQueue.add(transactionObserver: observer) }
            try dbQueue.writeWithoutTransaction { db in
                if !start.isEmpty { try db.execute(sql: start) }
                if addsObserverInsideTransaction { db.add(transactionObserver: observer) }
                try db.execute(sql: end)
            }
            #expect(observer.events == expected, "\(start); \(end)")
        }
    }

    @Test func observerCanUseTheDatabaseWhenTransactionEnds() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        var didWrite = false
        observer.onDidCommit = { db in
            guard !didWrite else { return }
            didWrite = true
            try! db.execute(sql: "INSERT INTO team (id) VALUES (9)")
        }
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
        }
        #expect(observer.events == [
            "didChange insert player 1", "willCommit", "didCommit",
            "didChange insert team 9", "willCommit", "didCommit",
        ])
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM team") } == 1)
    }

    // MARK: - Indirect changes

    @Test func foreignKeyCascadesAreNotified() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: """
                INSERT INTO team (id) VALUES (1), (2);
                INSERT INTO player (id, teamId) VALUES (1, 1), (2, 2), (3, 1);
                """)
        }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE team SET id = 3 WHERE id = 2")
            try db.execute(sql: "DELETE FROM team WHERE id = 1")
        }
        // SQLite runs foreign key actions after the parent row changes.
        #expect(observer.events == [
            "didChange update team 3",
            "didChange update player 2",
            "didChange delete team 1",
            "didChange delete player 1",
            "didChange delete player 3",
            "willCommit",
            "didCommit",
        ])
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT teamId FROM player") } == [3])
    }

    @Test func triggerChangesAreNotified() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE log (id INTEGER PRIMARY KEY, message TEXT);
                CREATE TRIGGER playerInserted AFTER INSERT ON player BEGIN
                    INSERT INTO log (message) VALUES ('inserted ' || NEW.id);
                END;
                """)
        }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (5)")
        }
        #expect(observer.events == [
            "didChange insert player 5",
            "didChange insert log 1",
            "willCommit",
            "didCommit",
        ])
    }

    /// A queue with an `item` table that SQLite could truncate (no foreign
    /// key, no trigger).
    private func makeItemDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)") }
        return dbQueue
    }

    @Test func deleteWithoutWhereClauseNotifiesEachRow() throws {
        let dbQueue = try makeItemDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO item (id) VALUES (1), (2), (3)")
        }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM item")
        }
        #expect(observer.events == [
            "didChange delete item 1",
            "didChange delete item 2",
            "didChange delete item 3",
            "willCommit",
            "didCommit",
        ])
    }

    /// Statements compiled before the observer was added, when SQLite could
    /// truncate the table, are recompiled.
    @Test func deleteStatementPreparedBeforeObserverNotifiesEachRow() throws {
        let dbQueue = try makeItemDatabase()
        let observer = RecordingObserver()
        try dbQueue.writeWithoutTransaction { db in
            let cached = try db.cachedStatement(sql: "DELETE FROM item")
            let uncached = try db.makeStatement(sql: "DELETE FROM item")
            try db.execute(sql: "INSERT INTO item (id) VALUES (1), (2)")

            db.add(transactionObserver: observer)
            try cached.execute()
            try db.execute(sql: "INSERT INTO item (id) VALUES (3), (4)")
            try uncached.execute()
        }
        #expect(observer.events == [
            "didChange delete item 1",
            "didChange delete item 2",
            "willCommit", "didCommit",
            "didChange insert item 3", "didChange insert item 4", "willCommit", "didCommit",
            "didChange delete item 3",
            "didChange delete item 4",
            "willCommit", "didCommit",
        ])
    }

    /// SQLite recompiles statements after a schema change (outside of the
    /// authorizer's watch): deletions are still notified row by row.
    @Test func deleteStatementRecompiledAfterSchemaChangeNotifiesEachRow() throws {
        let dbQueue = try makeItemDatabase()
        let observer = RecordingObserver(observes: { $0.isDeletion(in: "item") })
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM item")
            try db.execute(sql: "CREATE TABLE other (a)")
            try db.execute(sql: "INSERT INTO item (id) VALUES (1), (2)")
            observer.reset()
            try statement.execute()
        }
        #expect(observer.events == [
            "didChange delete item 1",
            "didChange delete item 2",
            "willCommit", "didCommit",
        ])
    }

    /// Without observer, SQLite truncates the table, and its update hook
    /// does not see the deleted rows: the tests above would fail if
    /// observers did not prevent it.
    @Test func truncateOptimizationWithoutObserver() throws {
        let dbQueue = try makeItemDatabase()
        let deletedRowCount = try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO item (id) VALUES (1), (2)")
            var count = 0
            try withUnsafeMutablePointer(to: &count) { pointer in
                sqlite3_update_hook(db.sqliteConnection, { context, _, _, _, _ in
                    context!.assumingMemoryBound(to: Int.self).pointee += 1
                }, pointer)
                defer { sqlite3_update_hook(db.sqliteConnection, nil, nil) }
                try db.execute(sql: "DELETE FROM item")
            }
            return count
        }
        #expect(deletedRowCount == 0)
    }

    // MARK: - Failures

    @Test func failedStatementOutsideOfTransactionIsNotNotified() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        dbQueue.writeWithoutTransaction { db in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (id, teamId) VALUES (1, 99)")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        }
        #expect(observer.events == [])
    }

    /// An implicit transaction that changed rows before it failed is rolled
    /// back: observers that were told of the changes are told of the
    /// rollback.
    @Test func failedStatementOutsideOfTransactionAfterChanges() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        dbQueue.writeWithoutTransaction { db in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (id, teamId) VALUES (1, NULL), (2, 99)")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        }
        // Immediate foreign keys are checked at the end of the statement.
        #expect(observer.events == ["didChange insert player 1", "didChange insert player 2", "didRollback"])
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func failedStatementInsideTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (id, teamId) VALUES (2, 99)")
            }
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
            return .commit
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "didChange insert player 3",
            "willCommit",
            "didCommit",
        ])
    }

    /// SQLite itself rolls back the transaction (ON CONFLICT ROLLBACK): the
    /// rollback is notified.
    @Test func transactionRolledBackBySQLite() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN; INSERT INTO player (id) VALUES (1)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT OR ROLLBACK INTO player (id) VALUES (1)")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(!db.isInsideTransaction)
        }
        #expect(observer.events == ["didChange insert player 1", "didRollback"])
    }

    // MARK: - Cancelled commits

    @Test(arguments: ["write", "inTransaction", "writeWithoutTransaction", "commit", "release"])
    func throwingWillCommitRollsBackAndThrowsTheObserverError(method: String) throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        observer.commitError = TestError(id: 42)
        dbQueue.add(transactionObserver: observer)
        let insert = "INSERT INTO player (id) VALUES (1)"
        #expect(throws: TestError(id: 42)) {
            switch method {
            case "write":
                try dbQueue.write { try $0.execute(sql: insert) }
            case "inTransaction":
                try dbQueue.inTransaction { db in
                    try db.execute(sql: insert)
                    return .commit
                }
            case "writeWithoutTransaction":
                try dbQueue.writeWithoutTransaction { try $0.execute(sql: insert) }
            case "commit":
                try dbQueue.writeWithoutTransaction { db in
                    try db.beginTransaction()
                    try db.execute(sql: insert)
                    try db.commit()
                }
            default:
                try dbQueue.writeWithoutTransaction { db in
                    try db.execute(sql: "SAVEPOINT foo")
                    try db.execute(sql: insert)
                    try db.execute(sql: "RELEASE SAVEPOINT foo")
                }
            }
        }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didRollback"])
        try dbQueue.inDatabase { db throws in
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }

        // The next transaction commits once the observer lets it.
        observer.commitError = nil
        observer.reset()
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    @Test func throwingWillCommitOfEmptyTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        observer.commitError = TestError(id: 3)
        dbQueue.add(transactionObserver: observer)
        #expect(throws: TestError(id: 3)) {
            try dbQueue.inTransaction(.deferred) { _ in .commit }
        }
        #expect(observer.events == ["willCommit", "didRollback"])
    }

    // MARK: - Several observers

    @Test func observersAreNotifiedInTheOrderTheyWereAdded() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let observers = ["A", "B", "C"].map { RecordingObserver(name: $0, log: log) }
        for observer in observers { dbQueue.add(transactionObserver: observer) }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
        }
        #expect(log.entries == [
            "A: didChange insert player 1",
            "B: didChange insert player 1",
            "C: didChange insert player 1",
            "A: willCommit",
            "B: willCommit",
            "C: willCommit",
            "A: didCommit",
            "B: didCommit",
            "C: didCommit",
        ])
    }

    /// Observers after the one that throws are not asked; all are told of
    /// the rollback.
    @Test func throwingObserverAmongSeveral() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let observers = ["A", "B", "C"].map { RecordingObserver(name: $0, log: log) }
        observers[1].commitError = TestError()
        for observer in observers { dbQueue.add(transactionObserver: observer) }
        #expect(throws: TestError()) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            }
        }
        #expect(log.entries == [
            "A: didChange insert player 1",
            "B: didChange insert player 1",
            "C: didChange insert player 1",
            "A: willCommit",
            "B: willCommit",
            "A: didRollback",
            "B: didRollback",
            "C: didRollback",
        ])
    }

    // MARK: - Read-only accesses

    @Test func readOnlyTransactionsAreNotNotified() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { try $0.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        }
        #expect(throws: TestError()) {
            try dbQueue.read { _ in throw TestError() }
        }
        try dbQueue.inDatabase { db in
            try db.readOnly {
                try db.execute(sql: "BEGIN; SELECT * FROM player; COMMIT")
                try db.notifyChanges(in: DatabaseRegion.fullDatabase)
            }
        }
        #expect(observer.events == [])

        // Still waiting for its next transaction
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    @Test func readOnlyConnectionIgnoresObservers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE t(a)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)
        try dbQueue.inDatabase { db in
            try db.execute(sql: "BEGIN; SELECT * FROM t; COMMIT")
            try db.execute(sql: "BEGIN; ROLLBACK")
        }
        #expect(observer.events == [])
    }
}
