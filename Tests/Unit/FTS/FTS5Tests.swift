import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite
import TestSupport

@Suite struct FTS5Tests {
    @Test func tableOptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.column("title")
                    t.column("author").notIndexed()
                    t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove, categories: "L* N*"))
                    t.prefixes = [3, 2]
                    t.columnSize = 0
                    t.detail = "column"
                }
                try db.create(virtualTable: "contentless", options: .ifNotExists, using: FTS5()) { t in
                    t.column("body")
                    t.content = ""
                }
                try db.create(virtualTable: "external", using: FTS5()) { t in
                    t.column("body")
                    t.content = "source"
                    t.contentRowID = "id"
                    t.tokenizer = .ascii(separators: ["X"], tokenCharacters: ["-"])
                }
                try db.create(virtualTable: "grams", using: FTS5()) { t in
                    t.column("body")
                    t.tokenizer = .trigram()
                }
            }
            #expect(sql == [
                    #"CREATE VIRTUAL TABLE "doc" USING fts5(title, author UNINDEXED, tokenize='''porter'' ''unicode61'' ''remove_diacritics'' ''2'' ''categories'' ''L* N*''', prefix='2 3', columnSize=0, detail=column)"#,
                #"CREATE VIRTUAL TABLE IF NOT EXISTS "contentless" USING fts5(body, content='')"#,
                    #"CREATE VIRTUAL TABLE "external" USING fts5(body, tokenize='''ascii'' ''separators'' ''X'' ''tokenchars'' ''-''', content='source', content_rowid='id')"#,
                #"CREATE VIRTUAL TABLE "grams" USING fts5(body, tokenize='''trigram''')"#,
            ])
            try db.execute(sql: "INSERT INTO doc (title, author) VALUES ('Élans databases', 'melville')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'elan database'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'melville'") == 0)
            try db.execute(sql: "INSERT INTO grams (body) VALUES ('substring search')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grams WHERE grams MATCH 'bstr'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM grams WHERE body LIKE '%ring se%'") == 1)
        }
    }

    @Test func errorsChangeNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws -> Void in
            // No column
            let noColumn = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "doc", using: FTS5())
            }
            #expect(noColumn?.message == "an FTS5 table needs at least one column")
            // Unknown tokenizer
            let tokenizer = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.column("body")
                    t.tokenizer = FTS5TokenizerDescriptor(components: ["nosuchtokenizer"])
                }
            }
            #expect(tokenizer?.message?.contains("tokenize") == true)
            // Refused option
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.column("body")
                    t.detail = "nonsense"
                }
            }
            #expect(try db.tableExists("doc") == false)
        }
    }

    @Test func synchronizedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby Dick')")
            let sql = try recordedSchemaSQL(db) {
                try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            #expect(
                sql.first == #"CREATE VIRTUAL TABLE "book_ft" USING fts5(title, content='book', content_rowid='id')"#)
            func titles(_ raw: String) throws -> [String] {
                let pattern = try db.makeFTS5Pattern(rawPattern: raw, forTable: "book_ft")
                return try String.fetchAll(db, Table("book_ft").select(Column("title")).matching(pattern))
            }
            #expect(try titles("moby") == ["Moby Dick"])
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Red Mars')")
            try db.execute(sql: "UPDATE book SET title = 'Blue Mars' WHERE title = 'Red Mars'")
            #expect(try titles("mars") == ["Blue Mars"])
            #expect(try titles("red") == [])
            try db.execute(sql: "DELETE FROM book WHERE title = 'Moby Dick'")
            #expect(try titles("moby") == [])
            try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
            #expect(try db.triggerExists("__book_ft_au") == false)
        }
    }

    /// Saving records next to an FTS5 table created in the same
    /// transaction: an update that finds no row is told apart from the
    /// writes FTS5 makes into its shadow tables, so the record is inserted.
    @Test func saveNextToASynchronizedTable() throws {
        struct Food: Codable, FetchableRecord, PersistableRecord {
            var id: UUID
            var name: String
            var foodId: String
        }
        struct Serving: Codable, FetchableRecord, PersistableRecord {
            var id: UUID
            var description: String
            var foodId: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "food") { t in
                t.column("id", .blob).primaryKey()
                t.column("name", .text)
                t.column("foodId", .text).unique()
            }
            try db.create(table: "serving") { t in
                t.column("id", .blob).primaryKey()
                t.column("description", .text)
                t.column("foodId", .text).references("food", column: "foodId")
            }
            try db.create(virtualTable: "food_ft", using: FTS5()) { t in
                t.synchronize(withTable: "food")
                t.column("name")
            }
            try Food(id: UUID(), name: "Apple", foodId: "apple").save(db)
            try Serving(id: UUID(), description: "Apple", foodId: "apple").save(db)
            #expect(try Food.fetchCount(db) == 1)
            #expect(try Serving.fetchCount(db) == 1)
            #expect(try Table("food_ft").all().matching(FTS5Pattern(matchingAnyTokenIn: "apple")).fetchCount(db) == 1)
            #expect(throws: RecordError.self) { try Food(id: UUID(), name: "Cherry", foodId: "cherry").update(db) }
        }
    }

    @Test func patterns() throws {
        #expect(FTS5Pattern(matchingAnyTokenIn: "red, GREEN!")?.rawPattern == "red OR green")
        #expect(FTS5Pattern(matchingAllTokensIn: "^Red mars*")?.rawPattern == "red mars")
        #expect(FTS5Pattern(matchingAllPrefixesIn: "re ma")?.rawPattern == "re* ma*")
        #expect(FTS5Pattern(matchingPhrase: "Red Mars")?.rawPattern == "\"red mars\"")
        #expect(FTS5Pattern(matchingPrefixPhrase: "Red Mars")?.rawPattern == "^\"red mars\"")
        for input in ["", " ", "*", "^", "()", "\"", "?!"] {
            #expect(FTS5Pattern(matchingAnyTokenIn: input) == nil)
            #expect(FTS5Pattern(matchingAllTokensIn: input) == nil)
            #expect(FTS5Pattern(matchingAllPrefixesIn: input) == nil)
            #expect(FTS5Pattern(matchingPhrase: input) == nil)
            #expect(FTS5Pattern(matchingPrefixPhrase: input) == nil)
        }
        for raw in ["", "NOT", "(", "AND", "\"", "title:x"] {
            let error = #expect(throws: DatabaseError.self) { try FTS5Pattern(rawPattern: raw) }
            #expect(error?.sql == nil)
        }
        #expect(try FTS5Pattern(rawPattern: "title:x", allowedColumns: ["title"]).rawPattern == "title:x")
        #expect(FTS5Pattern.fromDatabaseValue("NOT".databaseValue) == nil)
        #expect(FTS5Pattern.fromDatabaseValue("mars".databaseValue)?.databaseValue == "mars".databaseValue)
    }

    @Test func tablePatternsAndMissingTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.column("title")
                t.column("body")
            }
            #expect(
                try db.makeFTS5Pattern(rawPattern: "body:x OR title:y", forTable: "doc").rawPattern
                    == "body:x OR title:y")
            #expect(throws: DatabaseError.self) { try db.makeFTS5Pattern(rawPattern: "author:x", forTable: "doc") }
            #expect(throws: DatabaseError.self) { try db.makeFTS5Pattern(rawPattern: "x", forTable: "missing") }
        }
    }

    @Test func rankingAndMatching() throws {
        struct Doc: FetchableRecord, TableRecord, Decodable {
            var body: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("body") }
            try db.execute(sql: """
                INSERT INTO doc (body) VALUES ('mars');
                INSERT INTO doc (body) VALUES ('mars mars mars');
                INSERT INTO doc (body) VALUES ('venus and a long text about nothing much mars');
                INSERT INTO doc (body) VALUES ('venus');
                """)
        }
        try dbQueue.read { db in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "mars")
            let request = Doc.matching(pattern).order(Column.rank)
            #expect(try request.makePreparedRequest(db).statement.sql
                == #"SELECT * FROM "doc" WHERE "doc" MATCH ? ORDER BY "rank""#)
            let ranked = try request.fetchAll(db).map(\.body)
            #expect(ranked == ["mars mars mars", "mars", "venus and a long text about nothing much mars"])
            // bm25 through SQL gives the same order
            let bm25 = try String.fetchAll(db, sql: "SELECT body FROM doc WHERE doc MATCH 'mars' ORDER BY bm25(doc)")
            #expect(bm25 == ranked)
            // Column match, Table, nil pattern
            #expect(
                try Table("doc").filter(Column("body").match(FTS5Pattern(matchingPhrase: "and a long")!)).fetchCount(db)
                    == 1)
            #expect(try Table("doc").all().matching(FTS5Pattern(matchingAllTokensIn: "venus")).fetchCount(db) == 2)
            #expect(try Doc.matching(FTS5Pattern(matchingAnyTokenIn: "")).fetchCount(db) == 0)
            #expect(try Doc.all().matching(nil as FTS5Pattern?).fetchCount(db) == 0)
        }
    }

    @Test func malformedPatternInQueryThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in t.column("body") }
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('mars')")
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM doc WHERE doc MATCH ?", arguments: ["AND"])
            }
            #expect(error?.message?.contains("syntax error") == true)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc") == 1)
        }
    }
}

/// FTS5 keeps statements of its own while its table is connected: they
/// don't prevent `close()`, which disconnects the table (SQLite's
/// `sqlite3_close` finalizes them). Only the statements GRDBLite prepared,
/// still alive, do.
@Suite struct FTS5CloseTests {
    static func useTable(_ db: Database) throws {
        try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS doc USING fts5(body)")
        try db.execute(sql: "INSERT INTO doc (body) VALUES ('the sea'), ('the sky')")
        #expect(try Int.fetchAll(db, sql: "SELECT rowid FROM doc WHERE doc MATCH 'sea'") == [1])
    }

    @Test func aQueueThatUsedAnFTS5TableCloses() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"))
        try dbQueue.write(Self.useTable)
        try dbQueue.close()
    }

    @Test func aPoolThatUsedAnFTS5TableCloses() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"))
        try dbPool.write(Self.useTable)
        _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'sky'") }
        try dbPool.close()
    }

    @Test func aStatementStillAlivePreventsClosing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let dbQueue = try DatabaseQueue(path: dir.path("db.sqlite"))
        try dbQueue.write(Self.useTable)
        do {
            let statement = try dbQueue.inDatabase { try $0.makeStatement(sql: "SELECT * FROM doc") }
            #expect(throws: DatabaseError.self) { try dbQueue.close() }
            withExtendedLifetime(statement) { }
        }
        try dbQueue.close()
    }
}
