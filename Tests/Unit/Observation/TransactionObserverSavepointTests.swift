import GRDBLite
import Testing

/// Changes made inside a savepoint are notified when it is released, and
/// never when it is rolled back.
@Suite struct TransactionObserverSavepointTests {
    /// The example of the seed, statement by statement.
    @Test func seedExample() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            #expect(observer.events == ["didChange insert player 1"])
            try db.execute(sql: "SAVEPOINT foo")
            try db.execute(sql: "UPDATE player SET score = 1")
            try db.execute(sql: "UPDATE player SET name = 'Arthur'")
            #expect(observer.events == ["didChange insert player 1"]) // delayed
            try db.execute(sql: "RELEASE SAVEPOINT foo")
            #expect(observer.events == [
                "didChange insert player 1",
                "didChange update player 1",
                "didChange update player 1",
            ])
            try db.execute(sql: "SAVEPOINT bar")
            try db.execute(sql: "UPDATE player SET score = 2")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT bar")
            try db.execute(sql: "RELEASE SAVEPOINT bar")
            #expect(observer.events.count == 3) // not notified
            return .commit
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "didChange update player 1",
            "didChange update player 1",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func inSavepointReleased() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                #expect(observer.events == [])
                return .commit
            }
            #expect(observer.events == ["didChange insert player 1"])
        }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    @Test func inSavepointRolledBack() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                return .rollback
            }
            #expect(throws: TestError()) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
                    throw TestError()
                }
            }
        }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM player") } == [1])
    }

    @Test func nestedSavepoints() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                    return .commit
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
                    return .rollback
                }
                try db.execute(sql: "INSERT INTO player (id) VALUES (4)")
                // Inner savepoints released: still held by the outer one.
                #expect(observer.events == [])
                return .commit
            }
            #expect(observer.events == [
                "didChange insert player 1",
                "didChange insert player 2",
                "didChange insert player 4",
            ])
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (5)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (id) VALUES (6)")
                    return .commit
                }
                return .rollback
            }
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "didChange insert player 2",
            "didChange insert player 4",
            "willCommit",
            "didCommit",
        ])
    }

    /// A savepoint outside of a transaction starts one: its changes are
    /// notified when its release commits.
    @Test func savepointAsTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            #expect(observer.events == [])
            try db.execute(sql: "RELEASE SAVEPOINT a")
            try db.execute(sql: "SAVEPOINT b")
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT b")
            try db.execute(sql: "RELEASE SAVEPOINT b")
            try db.execute(sql: "SAVEPOINT c")
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
            try db.execute(sql: "ROLLBACK")
        }
        #expect(observer.events == [
            "didChange insert player 1", "willCommit", "didCommit",
            "willCommit", "didCommit",
            "didRollback",
        ])
    }

    /// RELEASE and ROLLBACK TO act on the most recent savepoint with the
    /// name (case-insensitive), and on the savepoints opened after it.
    @Test func savepointsWithIdenticalNames() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.execute(sql: "SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
            try db.execute(sql: "SAVEPOINT b")
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT A") // the inner a: drops 2 and 3, keeps a
            try db.execute(sql: "INSERT INTO player (id) VALUES (4)")
            try db.execute(sql: "RELEASE SAVEPOINT a") // the inner a
            #expect(observer.events == [])
            try db.execute(sql: "RELEASE SAVEPOINT a") // the outer a
            #expect(observer.events == ["didChange insert player 1", "didChange insert player 4"])
            return .commit
        }
        #expect(
            observer.events == ["didChange insert player 1", "didChange insert player 4", "willCommit", "didCommit"])
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM player ORDER BY id") } == [1, 4])
    }

    @Test func rollingBackSavepointTwice() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
            try db.execute(sql: "RELEASE SAVEPOINT a")
            return .commit
        }
        #expect(observer.events == ["didChange insert player 3", "willCommit", "didCommit"])
    }

    /// An observer added inside a savepoint knows it is open.
    @Test func observerAddedInsideSavepoint() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        try dbQueue.write { db in
            try db.inSavepoint {
                db.add(transactionObserver: observer)
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                return .rollback
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                return .commit
            }
        }
        #expect(observer.events == ["didChange insert player 2", "willCommit", "didCommit"])
    }

    /// Observers removed and added again inside a savepoint: the connection
    /// still knows which savepoints are open.
    @Test func observersReplacedInsideSavepoint() throws {
        let dbQueue = try makePlayerDatabase()
        let first = RecordingObserver(name: "first")
        let second = RecordingObserver(name: "second")
        dbQueue.add(transactionObserver: first)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            db.remove(transactionObserver: first)
            try db.execute(sql: "COMMIT")
            try db.execute(sql: "SAVEPOINT a")
            db.remove(transactionObserver: first)
            db.add(transactionObserver: second)
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT a")
            try db.execute(sql: "INSERT INTO player (id) VALUES (3)")
            try db.execute(sql: "RELEASE SAVEPOINT a")
        }
        #expect(first.events == [])
        #expect(second.events == ["second: didChange insert player 3", "second: willCommit", "second: didCommit"])
    }
}
