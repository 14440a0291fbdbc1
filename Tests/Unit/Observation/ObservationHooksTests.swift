import CSQLite
import GRDBLite
import Testing

/// SQLite's hooks are installed only while observers exist, so that
/// connections without observers pay nothing.
@Suite struct ObservationHooksTests {
    /// The hooks installed on the connection. Asking uninstalls them (SQLite
    /// only tells the previous hook when it sets a new one): call it last.
    private func uninstallHooks(_ db: Database) -> [String] {
        let connection = db.sqliteConnection
        var hooks: [String] = []
        if sqlite3_commit_hook(connection, nil, nil) != nil { hooks.append("commit") }
        if sqlite3_rollback_hook(connection, nil, nil) != nil { hooks.append("rollback") }
        if sqlite3_update_hook(connection, nil, nil) != nil { hooks.append("update") }
        if sqlite3_preupdate_hook(connection, nil, nil) != nil { hooks.append("preupdate") }
        return hooks
    }

    private func writeAndRead(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id) VALUES (NULL)")
            try db.inSavepoint {
                try db.execute(sql: "DELETE FROM player")
                return .rollback
            }
        }
        _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") }
    }

    @Test func noHookWithoutObserver() throws {
        let dbQueue = try makePlayerDatabase()
        try writeAndRead(dbQueue)
        #expect(dbQueue.inDatabase(uninstallHooks) == [])
    }

    @Test func transactionHooksWhileObserved() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try writeAndRead(dbQueue)
        // Change hooks are installed only while an observed statement runs.
        #expect(dbQueue.inDatabase(uninstallHooks) == ["commit", "rollback"])
    }

    @Test func noHookAfterRemove() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try writeAndRead(dbQueue)
        dbQueue.remove(transactionObserver: observer)
        try writeAndRead(dbQueue)
        #expect(dbQueue.inDatabase(uninstallHooks) == [])
    }

    /// Removed inside a transaction, the hooks go when it ends.
    @Test func noHookAfterRemoveInsideTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            db.remove(transactionObserver: observer)
        }
        #expect(dbQueue.inDatabase(uninstallHooks) == [])
        #expect(observer.events == ["didChange insert player 1"])
    }

    @Test func noHookAfterObserverDeallocation() throws {
        let dbQueue = try makePlayerDatabase()
        do {
            let observer = RecordingObserver()
            dbQueue.add(transactionObserver: observer)
            try writeAndRead(dbQueue)
        }
        try writeAndRead(dbQueue)
        #expect(dbQueue.inDatabase(uninstallHooks) == [])
    }

    @Test func noHookAfterNextTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        dbQueue.add(transactionObserver: RecordingObserver(), extent: .nextTransaction)
        try writeAndRead(dbQueue)
        #expect(dbQueue.inDatabase(uninstallHooks) == [])
    }

    /// While a statement runs, the change hooks are installed only if an
    /// observer observes what it changes.
    @Test(arguments: [(true, 1), (false, 0)])
    func changeHooksWhileStatementRuns(observed: Bool, expectedHook: Int) throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            let address = UInt(bitPattern: db.sqliteConnection)
            db.add(function: DatabaseFunction("changeHooksAreInstalled", argumentCount: 0) { _ in
                let connection = OpaquePointer(bitPattern: address)
                return sqlite3_preupdate_hook(connection, nil, nil) != nil ? 1 : 0
            })
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
        }
        let observer = RecordingObserver(observes: { _ in observed })
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "UPDATE player SET score = changeHooksAreInstalled()")
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT score FROM player") } == expectedHook)
    }
}
