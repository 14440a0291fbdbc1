import Testing
import GRDBLite

@Suite struct FTS3PatternTests {
    private func makeBooks(_ module: FTS4) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "book", using: module) { t in
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: """
                INSERT INTO book (title, body) VALUES ('Moby Dick', 'Call me Ishmael');
                INSERT INTO book (title, body) VALUES ('Red Mars', 'History is not evolution');
                INSERT INTO book (title, body) VALUES ('Green Mars', 'Evolution of history');
                """)
        }
        return dbQueue
    }

    @Test func initializers() throws {
        #expect(FTS3Pattern(matchingAnyTokenIn: "red, GREEN!")?.rawPattern == "red OR green")
        #expect(FTS3Pattern(matchingAllTokensIn: "red mars")?.rawPattern == "red mars")
        #expect(FTS3Pattern(matchingAllPrefixesIn: "re ma")?.rawPattern == "re* ma*")
        #expect(FTS3Pattern(matchingPhrase: "Red Mars")?.rawPattern == "\"red mars\"")
        for input in ["", " ", "*", "()", "\"", "?!"] {
            #expect(FTS3Pattern(matchingAnyTokenIn: input) == nil)
            #expect(FTS3Pattern(matchingAllTokensIn: input) == nil)
            #expect(FTS3Pattern(matchingAllPrefixesIn: input) == nil)
            #expect(FTS3Pattern(matchingPhrase: input) == nil)
        }
        #expect(try FTS3Pattern(rawPattern: "title:mars NOT red").rawPattern == "title:mars NOT red")
    }

    @Test func invalidRawPatterns() throws {
        for raw in ["NOT", "(", "AND", "OR", "\""] {
            let error = #expect(throws: DatabaseError.self) { try FTS3Pattern(rawPattern: raw) }
            #expect(error?.resultCode == .SQLITE_ERROR)
            // The private SQL of the validation is not shown
            #expect(error?.sql == nil)
            #expect(FTS3Pattern.fromDatabaseValue(raw.databaseValue) == nil)
        }
    }

    @Test func databaseValueConvertible() throws {
        let pattern = try FTS3Pattern(rawPattern: "mars")
        #expect(pattern.databaseValue == "mars".databaseValue)
        #expect(FTS3Pattern.fromDatabaseValue("mars".databaseValue)?.rawPattern == "mars")
        #expect(FTS3Pattern.fromDatabaseValue(1.databaseValue) == nil)
        #expect(FTS3Pattern.fromDatabaseValue(.null) == nil)
    }

    @Test func matchingRequests() throws {
        let dbQueue = try makeBooks(FTS4())
        try dbQueue.read { (db: Database) throws -> Void in
            let book = Table("book")
            let pattern = FTS3Pattern(matchingAllTokensIn: "mars history")
            let request = book.all().matching(pattern).select(Column("title")).order(Column("title"))
            #expect(try request.makePreparedRequest(db).statement.sql
                == #"SELECT "title" FROM "book" WHERE "book" MATCH ? ORDER BY "title""#)
            #expect(try String.fetchAll(db, request) == ["Green Mars", "Red Mars"])
            // Aliased: the alias name is matched
            let alias = TableAlias<Void>(name: "b")
            let aliased = book.aliased(alias).matching(FTS3Pattern(matchingPhrase: "call me"))
            #expect(try aliased.makePreparedRequest(db).statement.sql
                == #"SELECT "b".* FROM "book" "b" WHERE "b"."book" MATCH ?"#)
            #expect(try aliased.fetchCount(db) == 1)
            // Nil pattern: nothing
            #expect(try book.all().matching(FTS3Pattern(matchingAnyTokenIn: "")).fetchCount(db) == 0)
            // Column match
            let titles = book.filter(Column("title").match(FTS3Pattern(matchingAnyTokenIn: "moby history")))
            #expect(try titles.fetchCount(db) == 1)
            #expect(try book.filter(Column("title").match(nil as FTS3Pattern?)).fetchCount(db) == 0)
        }
    }

    @Test func matchingRecords() throws {
        struct Book: FetchableRecord, TableRecord, Decodable {
            var title: String
        }
        let dbQueue = try makeBooks(FTS4())
        try dbQueue.read { db in
            let books = try Book.matching(FTS3Pattern(matchingAllPrefixesIn: "evol hist")).fetchAll(db)
            #expect(Set(books.map(\.title)) == ["Red Mars", "Green Mars"])
            #expect(try Book.all().matching(FTS3Pattern(matchingPhrase: "evolution of")).fetchCount(db) == 1)
            #expect(try Book.matching(nil as FTS3Pattern?).fetchCount(db) == 0)
            // With a join-free request that has its own filter
            let filtered = Book.filter(Column("title").like("Red%")).matching(
                FTS3Pattern(matchingAnyTokenIn: "history"))
            #expect(try filtered.fetchAll(db).map(\.title) == ["Red Mars"])
        }
    }
}
