import Foundation
import GRDBLite
import Testing
import TestSupport

// The examples of the article "Backups and Dumps", as written there (temporary
// paths aside), then their printed output, checked through a stream.

@Suite struct ReadmeExamplesDumpTests {
    @Test func backup() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let sourcePath = directory.path("source.sqlite")
        let backupPath = directory.path("backup.sqlite")
        try DatabaseQueue(path: sourcePath).write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur')")
        }

        let source = try DatabaseQueue(path: sourcePath)
        let destination = try DatabasePool(path: backupPath)
        try source.backup(to: destination, pagesPerStep: 100) { progress in
            print("copied \(progress.completedPageCount) of \(progress.totalPageCount) pages")
        }
        let scratch = try DatabaseQueue.inMemoryCopy(fromPath: sourcePath) // changes stay in memory

        #expect(try destination.read { try String.fetchAll($0, sql: "SELECT name FROM player") } == ["Arthur"])
        try scratch.write { try $0.execute(sql: "DELETE FROM player") }
        #expect(try source.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func dump() throws {
        let dbQueue = try DatabaseQueue()

        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            try db.execute(sql: "INSERT INTO player VALUES (1, 'Arthur', 500), (2, 'Barbara', NULL)")
        }
        try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id")
        // 1|Arthur|500
        // 2|Barbara|
        try dbQueue.dumpTables(["player"], format: .json())
        // [{"id":1,"name":"Arthur","score":500},
        // {"id":2,"name":"Barbara","score":null}]
        try dbQueue.dumpContent(format: .quote())
        // sqlite_master
        // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
        //
        // player
        // 1,'Arthur',500
        // 2,'Barbara',NULL

        let stream = DumpTestStream()
        try dbQueue.dumpSQL("SELECT * FROM player ORDER BY id", to: stream)
        try dbQueue.dumpTables(["player"], format: .json(), to: stream)
        try dbQueue.dumpContent(format: .quote(), to: stream)
        #expect(stream.output == """
            1|Arthur|500
            2|Barbara|
            [{"id":1,"name":"Arthur","score":500},
            {"id":2,"name":"Barbara","score":null}]
            sqlite_master
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);

            player
            1,'Arthur',500
            2,'Barbara',NULL

            """)
    }
}
