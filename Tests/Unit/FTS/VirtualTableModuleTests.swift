import Testing
import GRDBLite

@Suite struct VirtualTableModuleTests {
    /// A module of our own: `fts4` with columns from the closure.
    private struct ThreeColumnFTS4: VirtualTableModule {
        final class Definition {
            var columns: [String] = []
        }
        var moduleName: String { "fts4" }
        func makeTableDefinition(configuration: VirtualTableConfiguration) -> Definition { Definition() }
        func moduleArguments(for definition: Definition, in db: Database) throws -> [String] {
            definition.columns
        }
        func database(_ db: Database, didCreate tableName: String, using definition: Definition) throws {
            try db.execute(
                sql: "INSERT INTO \(tableName.quotedDatabaseIdentifier)(\(definition.columns[0])) VALUES ('created')")
        }
    }

    /// A module whose hook fails after the table is created.
    private struct FailingModule: VirtualTableModule {
        typealias TableDefinition = Void
        var moduleName: String { "fts4" }
        func makeTableDefinition(configuration: VirtualTableConfiguration) {}
        func moduleArguments(for definition: Void, in db: Database) throws -> [String] { ["body"] }
        func database(_ db: Database, didCreate tableName: String, using definition: Void) throws {
            throw DatabaseError(message: "refused")
        }
    }

    @Test func moduleAsString() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(virtualTable: "place", using: "rtree(id, minX, maxX)")
                try db.create(virtualTable: "place", ifNotExists: true, using: "rtree(id, minX, maxX)")
                try db.create(virtualTable: "scratch", options: .temporary, using: "fts4")
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "place" USING rtree(id, minX, maxX)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "place" USING rtree(id, minX, maxX)"#,
                #"CREATE VIRTUAL TABLE temp."scratch" USING fts4"#,
            ])
            try db.execute(sql: "INSERT INTO place VALUES (1, 10, 20)")
            #expect(try Int.fetchOne(db, sql: "SELECT id FROM place WHERE minX <= 15 AND maxX >= 15") == 1)
        }
    }

    @Test func customModule() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(virtualTable: "doc", using: ThreeColumnFTS4()) { t in
                    t.columns = ["a", "b", "c"]
                }
            }
            #expect(sql == [#"CREATE VIRTUAL TABLE "doc" USING fts4(a, b, c)"#])
            #expect(try String.fetchOne(db, sql: "SELECT a FROM doc WHERE doc MATCH 'created'") == "created")
        }
    }

    @Test func errorsChangeNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            // An unknown module
            let unknown = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "t", using: "nosuchmodule")
            }
            #expect(unknown?.message == "no such module: nosuchmodule")
            // An option SQLite refuses
            let option = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "t", using: FTS4()) { t in
                    t.column("body")
                    t.matchinfo = "nonsense"
                }
            }
            #expect(option?.resultCode == .SQLITE_ERROR)
            // An existing table
            try db.create(virtualTable: "t", using: FTS4()) { t in t.column("body") }
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "t", using: FTS4()) { t in t.column("body") }
            }
            // A hook that throws: the table is not created
            let hook = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "failing", using: FailingModule())
            }
            #expect(hook?.message == "refused")
            #expect(try db.tableExists("failing") == false)
            #expect(try db.tableExists("t"))
        }
    }

    @Test func dropVirtualTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("body") }
            #expect(try db.tableExists("doc"))
            try db.drop(table: "doc")
            #expect(try db.tableExists("doc") == false)
            #expect(try db.tableExists("doc_content") == false)
        }
    }
}
