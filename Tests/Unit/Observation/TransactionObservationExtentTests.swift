import GRDBLite
import Testing

/// How long observers are notified: extents and `remove(transactionObserver:)`.
@Suite struct TransactionObservationExtentTests {
    private let insert = "INSERT INTO player DEFAULT VALUES"

    @Test func observerLifetimeIsTheDefaultAndWeak() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver(log: log)
            weakObserver = observer
            dbQueue.add(transactionObserver: observer)
            try dbQueue.write { try $0.execute(sql: insert) }
        }
        #expect(weakObserver == nil)
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(log.entries == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    @Test func observerLifetime() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver(log: log)
            weakObserver = observer
            dbQueue.add(transactionObserver: observer, extent: .observerLifetime)
            try dbQueue.write { try $0.execute(sql: insert) }
            try dbQueue.write { try $0.execute(sql: insert) }
        }
        #expect(weakObserver == nil)
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(log.entries == [
            "didChange insert player 1", "willCommit", "didCommit",
            "didChange insert player 2", "willCommit", "didCommit",
        ])
    }

    /// Deallocated during a transaction, the observer gets nothing more.
    @Test func observerDeallocatedDuringTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        var observer: RecordingObserver? = RecordingObserver(log: log)
        dbQueue.add(transactionObserver: observer!)
        try dbQueue.write { db in
            try db.execute(sql: insert)
            observer = nil
            try db.execute(sql: insert)
        }
        #expect(log.entries == ["didChange insert player 1"])
    }

    @Test func nextTransactionRetainsTheObserverUntilTheTransactionEnds() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver(log: log)
            weakObserver = observer
            dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        }
        // Retained by the database
        #expect(weakObserver != nil)
        _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }
        #expect(weakObserver != nil)
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(weakObserver == nil)
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(log.entries == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    @Test func nextTransactionEndsWithRollback() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        try dbQueue.inTransaction { db in
            try db.execute(sql: insert)
            return .rollback
        }
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(observer.events == ["didChange insert player 1", "didRollback"])
    }

    /// Added inside a transaction, it observes the end of that transaction.
    @Test func nextTransactionIsTheCurrentOne() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        try dbQueue.write { db in
            try db.execute(sql: insert)
            db.add(transactionObserver: observer, extent: .nextTransaction)
            try db.execute(sql: insert)
        }
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(observer.events == ["didChange insert player 2", "willCommit", "didCommit"])
    }

    /// The observer is released before its `databaseDidCommit`: the
    /// transaction it runs there is not notified to it.
    @Test func nextTransactionObserverThatWritesWhenNotified() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let witness = RecordingObserver(name: "witness", log: log)
        let observer = RecordingObserver(name: "next", log: log)
        observer.onDidCommit = { db in
            try! db.execute(sql: "INSERT INTO team DEFAULT VALUES")
        }
        dbQueue.add(transactionObserver: witness)
        dbQueue.add(transactionObserver: observer, extent: .nextTransaction)
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(log.entries == [
            "witness: didChange insert player 1",
            "next: didChange insert player 1",
            "witness: willCommit",
            "next: willCommit",
            "witness: didCommit",
            "next: didCommit",
            "witness: didChange insert team 1",
            "witness: willCommit",
            "witness: didCommit",
        ])
    }

    @Test func databaseLifetimeRetainsTheObserverUntilTheConnectionCloses() throws {
        var dbQueue: DatabaseQueue? = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver(log: log)
            weakObserver = observer
            dbQueue!.add(transactionObserver: observer, extent: .databaseLifetime)
        }
        try dbQueue!.write { try $0.execute(sql: insert) }
        try dbQueue!.write { try $0.execute(sql: insert) }
        #expect(weakObserver != nil)
        #expect(log.entries == [
            "didChange insert player 1", "willCommit", "didCommit",
            "didChange insert player 2", "willCommit", "didCommit",
        ])
        dbQueue = nil
        #expect(weakObserver == nil)
    }

    @Test func databaseLifetimeEndsWithClose() throws {
        let dbQueue = try makePlayerDatabase()
        weak var weakObserver: RecordingObserver?
        do {
            let observer = RecordingObserver()
            weakObserver = observer
            dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)
        }
        #expect(weakObserver != nil)
        try dbQueue.close()
        #expect(weakObserver == nil)
    }

    // MARK: - remove(transactionObserver:)

    @Test(arguments: [Database.TransactionObservationExtent.observerLifetime, .nextTransaction, .databaseLifetime])
    func removeFromWriter(extent: Database.TransactionObservationExtent) throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer, extent: extent)
        dbQueue.remove(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(observer.events == [])
    }

    @Test func removeFromDatabaseDuringTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let removed = RecordingObserver(name: "removed", log: log)
        let kept = RecordingObserver(name: "kept", log: log)
        dbQueue.add(transactionObserver: removed)
        dbQueue.add(transactionObserver: kept)
        try dbQueue.write { db in
            try db.execute(sql: insert)
            db.remove(transactionObserver: removed)
            try db.execute(sql: insert)
        }
        #expect(log.entries == [
            "removed: didChange insert player 1",
            "kept: didChange insert player 1",
            "kept: didChange insert player 2",
            "kept: willCommit",
            "kept: didCommit",
        ])
    }

    /// Removed by another observer's `databaseDidCommit`, an observer is
    /// not notified of that commit.
    @Test func removeWhileObserversAreNotified() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let first = RecordingObserver(name: "first", log: log)
        let second = RecordingObserver(name: "second", log: log)
        first.onDidCommit = { db in db.remove(transactionObserver: second) }
        dbQueue.add(transactionObserver: first)
        dbQueue.add(transactionObserver: second)
        try dbQueue.write { try $0.execute(sql: insert) }
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(log.entries == [
            "first: didChange insert player 1",
            "second: didChange insert player 1",
            "first: willCommit",
            "second: willCommit",
            "first: didCommit",
            "first: didChange insert player 2",
            "first: willCommit",
            "first: didCommit",
        ])
    }

    @Test func removeUnknownObserverDoesNothing() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.remove(transactionObserver: observer)
        dbQueue.add(transactionObserver: observer)
        dbQueue.remove(transactionObserver: RecordingObserver())
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    /// Code written against the protocol, as with GRDB.
    @Test func addThroughDatabaseWriter() throws {
        func observe(_ writer: some DatabaseWriter, with observer: RecordingObserver) {
            writer.add(transactionObserver: observer, extent: .databaseLifetime)
        }
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        observe(dbQueue, with: observer)
        try dbQueue.write { try $0.execute(sql: insert) }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
    }
}
