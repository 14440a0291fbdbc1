import GRDBLite
import Testing

/// `observes(eventsOfKind:)` and
/// `stopObservingDatabaseChangesUntilNextTransaction()`.
@Suite struct TransactionObserverFilterTests {
    /// Logs the kinds it is asked about into a shared log, as
    /// `observes update player score`.
    private func makeObserver(
        log: RecordingObserver.Log = RecordingObserver.Log(),
        observes: @escaping (DatabaseEventKind) -> Bool) -> RecordingObserver
    {
        RecordingObserver(log: log) { kind in
            switch kind {
            case .insert(let table): log.entries.append("observes insert \(table)")
            case .delete(let table): log.entries.append("observes delete \(table)")
            case .update(let table, let columns):
                log.entries.append("observes update \(table) \(columns.sorted().joined(separator: ","))")
            }
            return observes(kind)
        }
    }

    @Test func observerOfOneTable() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver(observes: { $0.tableName == "player" })
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
            try db.execute(sql: "INSERT INTO player (id, teamId) VALUES (1, 1)")
            try db.execute(sql: "UPDATE team SET name = 'Reds'")
        }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    /// Asked once per statement, before it runs, with the updated columns.
    @Test func observesIsAskedOncePerStatementBeforeItRuns() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2), (3)")
        }
        let observer = makeObserver(observes: { _ in true })
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = score + 1")
            _ = try Row.fetchAll(db, sql: "SELECT * FROM player")
            try db.execute(sql: "UPDATE player SET name = 'x', score = 0 WHERE id = 2")
        }
        #expect(observer.events == [
            "observes update player score",
            "didChange update player 1",
            "didChange update player 2",
            "didChange update player 3",
            "observes update player name,score",
            "didChange update player 2",
            "willCommit",
            "didCommit",
        ])
    }

    @Test func observerOfUpdatedColumns() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
        }
        let observer = makeObserver { kind in
            if case .update("player", let columns) = kind { return columns.contains("score") }
            return false
        }
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET name = 'Arthur'")
            try db.execute(sql: "UPDATE player SET score = 1")
            try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
        }
        #expect(observer.events == [
            "observes update player name",
            "observes update player score",
            "didChange update player 1",
            "observes insert player",
            "willCommit",
            "didCommit",
        ])
    }

    /// An observer that observes no change is still told of transactions.
    @Test func observerOfNothingGetsTransactions() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver(observes: { _ in false })
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
        }
        try dbQueue.inTransaction { db in
            try db.execute(sql: "DELETE FROM player")
            return .rollback
        }
        #expect(observer.events == ["willCommit", "didCommit", "didRollback"])
    }

    /// A statement with foreign key actions or triggers changes several
    /// tables: each observer only gets the kinds it observes.
    @Test func indirectChangesAreFiltered() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(
                sql: "INSERT INTO team (id) VALUES (1); INSERT INTO player (id, teamId) VALUES (1, 1), (2, 1)")
        }
        let log = RecordingObserver.Log()
        let playerDeletions = RecordingObserver(name: "player", log: log) { $0.isDeletion(in: "player") }
        let teamDeletions = RecordingObserver(name: "team", log: log) { $0.isDeletion(in: "team") }
        dbQueue.add(transactionObserver: playerDeletions)
        dbQueue.add(transactionObserver: teamDeletions)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "DELETE FROM team")
        }
        #expect(log.entries == [
            "team: didChange delete team 1",
            "player: didChange delete player 1",
            "player: didChange delete player 2",
            "player: willCommit",
            "team: willCommit",
            "player: didCommit",
            "team: didCommit",
        ])
        // Asked about deletions when the statement compiles (to disable
        // the truncate optimization, as GRDB does), then before it runs
        // about each kind of change it announced.
        let announcedKinds: [DatabaseEventKind] = [.delete(tableName: "team"), .delete(tableName: "player")]
        // Compared by their descriptions: like GRDB's, the type is not Equatable.
        #expect(playerDeletions.askedKinds.map { "\($0)" } == (announcedKinds + announcedKinds).map { "\($0)" })
    }

    // MARK: - stopObservingDatabaseChangesUntilNextTransaction

    @Test func stopObservingUntilNextTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        observer.recordsPreUpdates = true
        observer.onDidChange = { $0.stopObservingDatabaseChangesUntilNextTransaction() }
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2)")
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
            try db.notifyChanges(in: DatabaseRegion.fullDatabase)
        }
        try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM player WHERE id = 2")
        }
        #expect(observer.events == [
            "willChange insert player nil->1",
            "didChange insert player 1",
            "willCommit",
            "didCommit",
            "willChange delete player 2->nil",
            "didChange delete player 2",
            "willCommit",
            "didCommit",
        ])
    }

    /// Held changes are not notified to an observer that stopped.
    @Test func stopObservingInsideSavepoint() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let stopping = RecordingObserver(name: "stopping", log: log)
        stopping.onDidChange = { $0.stopObservingDatabaseChangesUntilNextTransaction() }
        let other = RecordingObserver(name: "other", log: log)
        dbQueue.add(transactionObserver: stopping)
        dbQueue.add(transactionObserver: other)
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
                try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                return .commit
            }
        }
        #expect(log.entries == [
            "stopping: didChange insert player 1",
            "other: didChange insert player 1",
            "other: didChange insert player 2",
            "stopping: willCommit",
            "other: willCommit",
            "stopping: didCommit",
            "other: didCommit",
        ])
    }

    /// An observer added twice stops both of its observations.
    @Test func stopObservingAnObserverAddedTwice() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        observer.onDidChange = { $0.stopObservingDatabaseChangesUntilNextTransaction() }
        dbQueue.add(transactionObserver: observer)
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2)")
        }
        #expect(observer.events == [
            "didChange insert player 1",
            "willCommit",
            "willCommit",
            "didCommit",
            "didCommit",
        ])
    }

    /// An observer that stops another one while it is notified: the other
    /// one stops, the notified one goes on.
    @Test func stopObservingAnotherObserver() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let other = RecordingObserver(name: "other", log: log)
        let stopping = RecordingObserver(name: "stopping", log: log)
        stopping.onDidChange = { _ in other.stopObservingDatabaseChangesUntilNextTransaction() }
        dbQueue.add(transactionObserver: stopping)
        dbQueue.add(transactionObserver: other)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (1), (2)")
        }
        #expect(log.entries == [
            "stopping: didChange insert player 1",
            "stopping: didChange insert player 2",
            "stopping: willCommit",
            "other: willCommit",
            "stopping: didCommit",
            "other: didCommit",
        ])
    }

    /// Called outside of a change notification, it is a programmer error.
    @Test func stopObservingOutsideOfChangeNotificationTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let observer = RecordingObserver()
            observer.stopObservingDatabaseChangesUntilNextTransaction()
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("must be called from databaseDidChange(with:)"))
    }
}
