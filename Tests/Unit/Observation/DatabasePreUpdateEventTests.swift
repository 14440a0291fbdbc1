import GRDBLite
import Testing

/// `databaseWillChange(with:)`, from SQLite's pre-update hook.
@Suite struct DatabasePreUpdateEventTests {
    private func values(_ values: (any DatabaseValueConvertible)?...) -> [DatabaseValue] {
        values.map { $0?.databaseValue ?? .null }
    }

    @Test func eventsComeBeforeEachChange() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        observer.recordsPreUpdates = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 10)")
            try db.execute(sql: "UPDATE player SET score = 11")
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(observer.events == [
            "willChange insert player nil->1",
            "didChange insert player 1",
            "willChange update player 1->1",
            "didChange update player 1",
            "willChange delete player 1->nil",
            "didChange delete player 1",
            "willCommit",
            "didCommit",
        ])
        let events = observer.preUpdateEvents
        try #require(events.count == 3)

        #expect(events[0].kind == .insert)
        #expect(events[0].databaseName == "main")
        #expect(events[0].tableName == "player")
        #expect(events[0].count == 4)
        #expect(events[0].depth == 0)
        #expect(events[0].initialDatabaseValues == nil)
        #expect(events[0].finalDatabaseValues == values(1, "Arthur", 10, nil))
        #expect(events[0].initialDatabaseValue(atIndex: 1) == nil)
        #expect(events[0].finalDatabaseValue(atIndex: 1) == "Arthur".databaseValue)

        #expect(events[1].kind == .update)
        #expect(events[1].initialDatabaseValues == values(1, "Arthur", 10, nil))
        #expect(events[1].finalDatabaseValues == values(1, "Arthur", 11, nil))
        #expect(events[1].initialDatabaseValue(atIndex: 2) == 10.databaseValue)
        #expect(events[1].finalDatabaseValue(atIndex: 2) == 11.databaseValue)

        #expect(events[2].kind == .delete)
        #expect(events[2].initialDatabaseValues == values(1, "Arthur", 11, nil))
        #expect(events[2].finalDatabaseValues == nil)
        #expect(events[2].finalDatabaseValue(atIndex: 0) == nil)
    }

    /// Values read while the event is live, and the rowids of an update
    /// that changes the rowid.
    @Test func liveEventAndRowIDChange() throws {
        final class Observer: TransactionObserver {
            var seen: [String] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { }
            func databaseDidCommit(_ db: Database) { }
            func databaseDidRollback(_ db: Database) { }
            func databaseWillChange(with event: DatabasePreUpdateEvent) {
                seen.append("""
                    \(event.kind) \(event.tableName) \(event.initialRowID!)->\(event.finalRowID!) \
                    \(event.initialDatabaseValue(atIndex: 0)!)->\(event.finalDatabaseValue(atIndex: 0)!) \
                    \(event.initialDatabaseValues!)->\(event.finalDatabaseValues!)
                    """)
            }
        }
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
        let observer = Observer()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET id = 5") }
        #expect(observer.seen == [#"update player 1->5 1->5 [1, "Arthur", NULL, NULL]->[5, "Arthur", NULL, NULL]"#])
    }

    @Test func triggerChangesHaveDepth() throws {
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
        observer.recordsPreUpdates = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id) VALUES (3)") }
        #expect(observer.preUpdateEvents.map(\.tableName) == ["player", "log"])
        #expect(observer.preUpdateEvents.map(\.depth) == [0, 1])
        #expect(observer.preUpdateEvents.last?.finalDatabaseValues == values(1, "inserted 3"))
    }

    @Test func eventsAreFilteredAndHeldInSavepoints() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver(observes: { $0.tableName == "player" })
        observer.recordsPreUpdates = true
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
                return .commit
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (id) VALUES (2)")
                return .rollback
            }
        }
        #expect(observer.events == [
            "willChange insert player nil->1",
            "didChange insert player 1",
            "willCommit",
            "didCommit",
        ])
        // Copied when held: values are still there.
        #expect(observer.preUpdateEvents.first?.finalDatabaseValues == values(1, "Arthur", nil, nil))
    }

    @Test func columnIndexOutOfRangeTraps() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Observer: TransactionObserver {
                func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
                func databaseDidChange(with event: DatabaseEvent) { }
                func databaseDidCommit(_ db: Database) { }
                func databaseDidRollback(_ db: Database) { }
                func databaseWillChange(with event: DatabasePreUpdateEvent) {
                    _ = event.finalDatabaseValue(atIndex: event.count)
                }
            }
            let dbQueue = try DatabaseQueue()
            let observer = Observer()
            dbQueue.add(transactionObserver: observer)
            try dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        }
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("column index out of range"))
    }

    /// Copies of change events stay valid after the notification.
    @Test func copiedDatabaseEvents() throws {
        final class Observer: TransactionObserver {
            var events: [DatabaseEvent] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { events.append(event.copy()) }
            func databaseDidCommit(_ db: Database) { }
            func databaseDidRollback(_ db: Database) { }
        }
        let dbQueue = try makePlayerDatabase()
        let observer = Observer()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (7)")
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(observer.events.map(\.kind) == [.insert, .delete])
        #expect(observer.events.map(\.tableName) == ["player", "player"])
        #expect(observer.events.map(\.databaseName) == ["main", "main"])
        #expect(observer.events.map(\.rowID) == [7, 7])
    }
}
