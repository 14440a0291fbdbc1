import Testing
@_spi(GRDBLite) import GRDBLite

@Suite struct FTS4Tests {
    @Test func fts3Table() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(virtualTable: "plain", using: FTS3())
                try db.create(virtualTable: "book", using: FTS3()) { t in
                    t.column("title")
                    t.column("body")
                    t.tokenizer = .porter
                }
                try db.create(virtualTable: "accented", using: FTS3()) { t in
                    t.tokenizer = .unicode61(diacritics: .keep, separators: ["X"], tokenCharacters: [".", "-"])
                }
            }
            #expect(sql == [
                #"CREATE VIRTUAL TABLE "plain" USING fts3"#,
                #"CREATE VIRTUAL TABLE "book" USING fts3(title, body, tokenize=porter)"#,
                    #"CREATE VIRTUAL TABLE "accented" USING fts3(tokenize=unicode61 "remove_diacritics=0" "separators=X" "tokenchars=-.")"#
            ])
            try db.execute(sql: "INSERT INTO book (title, body) VALUES ('Moby Dick', 'Whales and databases')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE book MATCH 'database'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE title MATCH 'whale'") == 0)
        }
    }

    @Test func fts3Tokenize() throws {
        #expect(try FTS3.tokenize("SQLite database") == ["sqlite", "database"])
        #expect(try FTS3.tokenize("SQLite database", withTokenizer: .porter) == ["sqlite", "databas"])
        #expect(try FTS3.tokenize("Élan vital", withTokenizer: .unicode61()) == ["elan", "vital"])
        #expect(try FTS3.tokenize("Élan vital", withTokenizer: .unicode61(diacritics: .keep)) == ["élan", "vital"])
        #expect(try FTS3.tokenize("a-b c", withTokenizer: .unicode61(tokenCharacters: ["-"])) == ["a-b", "c"])
        #expect(try FTS3.tokenize("") == [])
    }

    @Test func fts4Options() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(function: DatabaseFunction("zip", argumentCount: 1, pure: true) { $0[0] })
            db.add(function: DatabaseFunction("unzip", argumentCount: 1, pure: true) { $0[0] })
            let sql = try recordedSchemaSQL(db) {
                try db.create(virtualTable: "doc", using: FTS4()) { t in
                    t.column("body")
                    t.column("author").notIndexed()
                    t.column("lid").asLanguageId()
                    t.compress = "zip"
                    t.uncompress = "unzip"
                    t.matchinfo = "fts3"
                    t.prefixes = [4, 2]
                    t.order = "DESC"
                }
                try db.create(virtualTable: "contentless", using: FTS4()) { t in
                    t.column("body")
                    t.content = ""
                }
            }
            #expect(sql == [
                    #"CREATE VIRTUAL TABLE "doc" USING fts4(body, author, notindexed=author, languageid="lid", compress="zip", uncompress="unzip", matchinfo="fts3", prefix="2,4", order=DESC)"#,
                #"CREATE VIRTUAL TABLE "contentless" USING fts4(body, content="")"#,
            ])
            try db.execute(sql: "INSERT INTO doc (body, author, lid) VALUES ('hello world', 'melville', 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'hello' AND lid = 1") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'hello' AND lid = 0") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'melville'") == 0)
            try db.execute(sql: "INSERT INTO contentless (docid, body) VALUES (7, 'hello')")
            #expect(try Int64.fetchOne(db, sql: "SELECT docid FROM contentless WHERE contentless MATCH 'hello'") == 7)
        }
    }

    @Test func synchronizedTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "book") { t in
                t.primaryKey("id", .integer)
                t.column("title", .text)
            }
            try db.execute(sql: "INSERT INTO book (id, title) VALUES (1, 'Moby Dick')")
            let sql = try recordedSchemaSQL(db) {
                try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "book")
                    t.column("title")
                }
            }
            #expect(sql.first == #"CREATE VIRTUAL TABLE "book_ft" USING fts4(title, content="book")"#)
            #expect(sql.count == 5)
            // Filled at creation, then kept in sync
            func count(_ pattern: String) throws -> Int? {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_ft WHERE book_ft MATCH ?", arguments: [pattern])
            }
            #expect(try count("moby") == 1)
            try db.execute(sql: "INSERT INTO book (id, title) VALUES (2, 'Red Mars')")
            #expect(try count("mars") == 1)
            try db.execute(sql: "UPDATE book SET title = 'Blue Mars' WHERE id = 2")
            #expect(try count("red") == 0)
            #expect(try count("blue") == 1)
            try db.execute(sql: "DELETE FROM book WHERE id = 1")
            #expect(try count("moby") == 0)
            // Dropping the triggers stops the synchronization
            try db.dropFTS4SynchronizationTriggers(forTable: "book_ft")
            #expect(try db.triggerExists("__book_ft_ai") == false)
            try db.execute(sql: "INSERT INTO book (id, title) VALUES (3, 'Green Mars')")
            #expect(try count("green") == 0)
        }
    }

    @Test func synchronizationWithAMissingTableChangesNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws -> Void in
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "book_ft", using: FTS4()) { t in
                    t.synchronize(withTable: "missing")
                    t.column("title")
                }
            }
            #expect(try db.tableExists("book_ft") == false)
        }
    }

    @Test func unknownTokenizer() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws -> Void in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "doc", using: FTS4()) { t in
                    t.tokenizer = .unicode61(diacritics: .remove)
                    t.column("body")
                }
                try db.execute(sql: "CREATE VIRTUAL TABLE other USING fts4(body, tokenize=nosuchtokenizer)")
            }
            #expect(error?.message?.contains("nosuchtokenizer") == true)
            #expect(try db.tableExists("other") == false)
        }
        let tokenizeError = #expect(throws: DatabaseError.self) {
            try DatabaseQueue().inDatabase { (db: Database) throws -> Void in
                try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts3tokenize(nosuchtokenizer)")
            }
        }
        #expect(tokenizeError?.message?.contains("nosuchtokenizer") == true)
    }
}
