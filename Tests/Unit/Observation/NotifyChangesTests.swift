import Foundation
@_spi(GRDBLite) import GRDBLite
import TestSupport
import Testing

/// `db.notifyChanges(in:)`, and the changes SQLite does not report.
@Suite struct NotifyChangesTests {
    /// An observer of some tables, or some columns of `player`.
    private func observer(
        name: String? = nil,
        log: RecordingObserver.Log = RecordingObserver.Log(),
        tables: Set<String> = [],
        playerColumns: Set<String> = []) -> RecordingObserver
    {
        RecordingObserver(name: name, log: log) { kind in
            if tables.contains(kind.tableName) { return true }
            if case .update("player", let columns) = kind { return !columns.isDisjoint(with: playerColumns) }
            return false
        }
    }

    @Test func fullDatabase() throws {
        let dbQueue = try makePlayerDatabase()
        let log = RecordingObserver.Log()
        let observers = [
            observer(name: "player", log: log, tables: ["player"]),
            observer(name: "nothing", log: log),
            observer(name: "score", log: log, playerColumns: ["score"]),
            observer(name: "missing", log: log, tables: ["missing"]),
        ]
        for observer in observers { dbQueue.add(transactionObserver: observer) }
        try dbQueue.write { db in
            try db.notifyChanges(in: .fullDatabase)
        }
        #expect(log.entries == [
            "player: didChange",
            "score: didChange",
            "player: willCommit",
            "nothing: willCommit",
            "score: willCommit",
            "missing: willCommit",
            "player: didCommit",
            "nothing: didCommit",
            "score: didCommit",
            "missing: didCommit",
        ])
    }

    @Test(arguments: [
        (DatabaseRegion(table: "player"), ["didChange", "willCommit", "didCommit"]),
        (DatabaseRegion(table: "PLAYER"), ["didChange", "willCommit", "didCommit"]),
        (DatabaseRegion(table: "player", columns: ["SCORE", "name"]), ["didChange", "willCommit", "didCommit"]),
        (DatabaseRegion(table: "player", columns: ["name"]), ["willCommit", "didCommit"]),
        (DatabaseRegion(table: "team"), ["willCommit", "didCommit"]),
        (DatabaseRegion(table: "missing"), ["willCommit", "didCommit"]),
        (DatabaseRegion(), ["willCommit", "didCommit"]),
    ])
    func region(_ region: DatabaseRegion, expected: [String]) throws {
        let dbQueue = try makePlayerDatabase()
        let observer = observer(playerColumns: ["score"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.notifyChanges(in: region)
        }
        #expect(observer.events == expected, "\(region)")
    }

    /// Tables and requests are regions too.
    @Test func tablesAndRequests() throws {
        let dbQueue = try makePlayerDatabase()
        let cases: [(any DatabaseRegionConvertible, String, [String])] = [
            (Table("player"), "player(*)", ["didChange", "willCommit", "didCommit"]),
            (Table("team"), "team(*)", ["willCommit", "didCommit"]),
            (Table<Row>("player").select(Column("name")), "player(name)", ["willCommit", "didCommit"]),
            (Table<Row>("player").filter(Column("score") > 10).select(Column("name")),
             "player(name,score)", ["didChange", "willCommit", "didCommit"]),
            // SQLite reports a rowid scan as a read of the whole table (as in GRDB).
            (Table<Row>("team").select(Column("id")).joining(
                required: Table("team").hasMany(Table("player")).select(Column("score"))),
             "player(teamId),team(*)", ["willCommit", "didCommit"]),
            (Table<Row>("team").select(Column("name")).including(
                required: Table("team").hasMany(Table("player")).select(Column("score"))),
             "player(score,teamId),team(id,name)", ["didChange", "willCommit", "didCommit"]),
            (SQLRequest<Row>(sql: "SELECT COUNT(*) FROM team"), "team(*)", ["willCommit", "didCommit"]),
            (
                SQLRequest<Row>(sql: "SELECT COUNT(*) FROM player"), "player(*)",
                ["didChange", "willCommit", "didCommit"]
            ),
            (SQLRequest<Row>(sql: "SELECT 1"), "empty", ["willCommit", "didCommit"]),
        ]
        for (region, description, expected) in cases {
            let observer = observer(playerColumns: ["score"])
            dbQueue.add(transactionObserver: observer)
            try dbQueue.write { db in
                let actual = try region.databaseRegion(db).description
                #expect(actual == description)
                try db.notifyChanges(in: region)
            }
            #expect(observer.events == expected, "\(description)")
            dbQueue.remove(transactionObserver: observer)
        }
    }

    /// Reading a request's region compiles a statement of its own: the
    /// request's cached statement, and a cursor on it, are left alone.
    @Test func requestRegionLeavesCursorsAlone() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, score) VALUES (1, 10), (2, 20)")
            let request = Table<Row>("player").select(Column("score")).order(Column("id"))
            let cursor = try request.fetchCursor(db)
            #expect(try cursor.next()?["score"] == 10)
            #expect(try request.databaseRegion(db) == DatabaseRegion(table: "player", columns: ["score", "id"]))
            #expect(try cursor.next()?["score"] == 20)
            #expect(try cursor.next() == nil)
        }
    }

    @Test func emptyDatabase() throws {
        let dbQueue = try DatabaseQueue()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.notifyChanges(in: .fullDatabase)
        }
        #expect(observer.events == ["willCommit", "didCommit"])
    }

    @Test func temporaryTable() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "CREATE TEMPORARY TABLE scratch (a)") }
        let observer = observer(tables: ["scratch"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.notifyChanges(in: .fullDatabase)
            try db.notifyChanges(in: DatabaseRegion(table: "Scratch"))
        }
        #expect(observer.events == ["didChange", "didChange", "willCommit", "didCommit"])
    }

    /// `sqlite_temp_master` is notified only when the temp schema exists.
    @Test func temporarySchema() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = observer(tables: ["sqlite_temp_master"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in try db.notifyChanges(in: DatabaseRegion(table: "sqlite_temp_master")) }
        #expect(observer.events == ["willCommit", "didCommit"])
        observer.reset()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TEMPORARY TABLE scratch (a)")
            try db.notifyChanges(in: DatabaseRegion(table: "sqlite_temp_master"))
        }
        #expect(observer.events == ["didChange", "willCommit", "didCommit"])
    }

    /// Schema changes are not reported: notify `sqlite_master`, which the
    /// full database does not include.
    @Test func schemaChanges() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = observer(tables: ["sqlite_master"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE other (a)")
            try db.execute(sql: "DROP TABLE other")
            try db.notifyChanges(in: .fullDatabase)
        }
        #expect(observer.events == ["willCommit", "didCommit"])
        observer.reset()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE other (a)")
            try db.notifyChanges(in: DatabaseRegion(table: "sqlite_master"))
        }
        #expect(observer.events == ["didChange", "willCommit", "didCommit"])
    }

    @Test func outsideOfTransaction() throws {
        let dbQueue = try makePlayerDatabase()
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.notifyChanges(in: DatabaseRegion(table: "player"))
        }
        #expect(observer.events == ["didChange"])
    }

    /// A statement that later fails outside of a transaction notifies no
    /// rollback: its own implicit transaction notified nothing.
    @Test func outsideOfTransactionThenFailedStatement() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (id) VALUES (1)") }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.writeWithoutTransaction { db in
            try db.notifyChanges(in: DatabaseRegion(table: "player"))
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
            }
        }
        #expect(observer.events == ["didChange"])
    }

    /// With no observer, the notification changes nothing, opens no
    /// transaction, and leaves no pending change for an observer added later.
    @Test func withoutObserverItDoesNothing() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'a')") }
        try dbQueue.writeWithoutTransaction { db in
            let changes = db.totalChangesCount
            try db.notifyChanges(in: .fullDatabase)
            #expect(!db.isInsideTransaction)
            #expect(db.totalChangesCount == changes)
        }
        try dbQueue.write { db in
            try db.notifyChanges(in: .fullDatabase)
            try db.notifyChanges(in: Table("player"))
        }
        let observer = observer(tables: ["player", "team"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { try $0.execute(sql: "INSERT INTO team (id) VALUES (1)") }
        #expect(observer.events == ["didChange insert team 1", "willCommit", "didCommit"])
        #expect(try dbQueue.read { try String.fetchAll($0, sql: "SELECT name FROM player") } == ["a"])
    }

    // MARK: - Changes that are not reported

    @Test func withoutRowIDTableChangesAreNotNotified() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE tag (name TEXT PRIMARY KEY) WITHOUT ROWID") }
        let observer = observer(tables: ["tag"])
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO tag (name) VALUES ('a')")
            try db.execute(sql: "UPDATE tag SET name = 'b'")
            try db.execute(sql: "DELETE FROM tag")
        }
        #expect(observer.events == ["willCommit", "didCommit"])
        observer.reset()
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO tag (name) VALUES ('a')")
            try db.notifyChanges(in: DatabaseRegion(table: "tag"))
        }
        #expect(observer.events == ["didChange", "willCommit", "didCommit"])
    }

    @Test func replacedRowsAreNotNotifiedAsDeletions() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')") }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO player (id, name) VALUES (1, 'Barbara')")
        }
        #expect(observer.events == ["didChange insert player 1", "willCommit", "didCommit"])
    }

    @Test func changesOfOtherConnectionsAreNotNotified() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        let dbQueue = try DatabaseQueue(path: path)
        let other = try DatabaseQueue(path: path)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        let observer = RecordingObserver()
        dbQueue.add(transactionObserver: observer)
        try other.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(observer.events == [])
        try dbQueue.write { db in
            try db.notifyChanges(in: DatabaseRegion(table: "t"))
        }
        #expect(observer.events == ["didChange", "willCommit", "didCommit"])
    }
}
