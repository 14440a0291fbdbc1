import Testing
import GRDBLite
import TestSupport

// The full-text search example of the article "Full-Text Search and
// JSON", as written there (temporary paths aside), on a `DatabaseQueue`
// and on a `DatabasePool`.
@Suite struct ReadmeExamplesFTSTests {
    @Test(arguments: WriterKind.allCases)
    func fullTextSearch(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        let dbQueue: any DatabaseWriter = kind == .queue ? try DatabaseQueue(path: path) : try DatabasePool(path: path)

        try dbQueue.write { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
            }
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.tokenizer = .unicode61(diacritics: .remove)
                t.column("title")
            }
            try db.execute(sql: "INSERT INTO book (title) VALUES (?)", arguments: ["Le Café de Flore"])
            try db.execute(sql: "INSERT INTO book (title) VALUES (?)", arguments: ["Red Mars"])
        }

        let titles = try dbQueue.read { db in
            // SELECT title FROM book_ft WHERE book_ft MATCH 'cafe' ORDER BY rank
            let pattern = FTS5Pattern(matchingAllTokensIn: "cafe")
            return try String.fetchAll(db, Table("book_ft")
                .select(Column("title"))
                .matching(pattern)
                .order(Column.rank))
        }
        #expect(titles == ["Le Café de Flore"])
    }
}
