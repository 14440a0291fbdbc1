import GRDBLite
import Testing

// Every request of the sections "Record Requests", "Associations" and "How
// to Model Graphs of Objects" of GRDB's "Recommended Practices for
// Designing Record Types" article, as written there, with its results
// on the library of `Library` and the SQL it runs.

private typealias Author = Library.Author
private typealias Book = Library.Book

// Fetch all authors along with their number of books
private struct AuthorInfo: Decodable, FetchableRecord {
    var author: Author
    var bookCount: Int
}

// Fetch the literary careers of German authors, sorted by name
private struct LiteraryCareer: Codable, FetchableRecord {
    var author: Author
    var books: [Book]
}

// Fetch all Colombian books and their authors
private struct Authorship: Decodable, FetchableRecord {
    var book: Book
    var author: Author
}

@Suite struct RecommendedPracticesTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try Library.makeDatabase()
    }

    // MARK: - Record Requests

    @Test func columnsRequests() throws {
        try dbQueue.read { db throws in
            var sortedAuthors: [Author] = []
            var frenchAuthorCount = 0
            let statements = try recordedSQLWithWarmCache(db) {
                // Fetch all authors, ordered by name,
                // in a localized case-insensitive fashion
                sortedAuthors = try Author.all()
                    .order { $0.name.collating(.localizedCaseInsensitiveCompare) }
                    .fetchAll(db)

                // Count French authors
                frenchAuthorCount = try Author.all()
                    .filter { $0.countryCode == "FR" }
                    .fetchCount(db)
            }
            #expect(statements == [
                #"SELECT * FROM "author" ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#,
                #"SELECT COUNT(*) FROM "author" WHERE "countryCode" = ?"#,
            ])
            #expect(sortedAuthors.map(\.name) == [
                "Anonymous", "christa Wolf", "Federico García Lorca", "Gabriel García Márquez", "Haruki Murakami",
                "Hermann Hesse", "Italo Calvino", "Jorge Isaacs", "Miguel de Cervantes", "Thomas Mann", "Victor Hugo",
            ])
            #expect(frenchAuthorCount == 1)
        }
    }

    @Test func requestMethods() throws {
        try dbQueue.read { db throws in
            var sortedSpanishAuthors: [Author] = []
            var novelCount = 0
            var names: Set<String> = []
            let statements = try recordedSQLWithWarmCache(db) {
                sortedSpanishAuthors = try Author.all()
                    .filter(countryCode: "ES")
                    .orderByName()
                    .fetchAll(db)

                novelCount = try Book.all()
                    .filter(kind: .novel)
                    .fetchCount(db)

                // The names of Japanese authors
                names = try Author.all()
                    .filter(countryCode: "JP")
                    .selectName()
                    .fetchSet(db)
            }
            #expect(statements == [
                    #"SELECT * FROM "author" WHERE "countryCode" = ? ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#,
                #"SELECT COUNT(*) FROM "book" WHERE "kind" = ?"#,
                #"SELECT "name" FROM "author" WHERE "countryCode" = ?"#,
            ])
            #expect(sortedSpanishAuthors == [Library.author(9), Library.author(8)])
            #expect(novelCount == 12)
            #expect(names == ["Haruki Murakami"])
        }
    }

    // MARK: - Associations

    @Test func novelsOfAnAuthor() throws {
        try dbQueue.read { db throws in
            // Fetch all novels from an author
            let author: Author = try Author.find(db, key: 1)
            var novels: [Book] = []
            let statements = try recordedSQLWithWarmCache(db) {
                novels = try author.request(for: Author.books)
                    .filter(kind: .novel)
                    .orderByTitle()
                    .fetchAll(db)
            }
            #expect(statements == [
                #"SELECT * FROM "book" WHERE ("authorId" = ?) AND ("kind" = ?) "#
                    + #"ORDER BY "title" COLLATE swiftLocalizedCaseInsensitiveCompare"#,
            ])
            #expect(novels == [Library.book(2), Library.book(1)])
        }
    }

    @Test func italianNovels() throws {
        try dbQueue.read { db throws in
            // Fetch all Italian novels
            var italianNovels: [Book] = []
            let statements = try recordedSQLWithWarmCache(db) {
                italianNovels = try Book.all()
                    .filter(kind: .novel)
                    .filter(authorCountryCode: "IT")
                    .fetchAll(db)
            }
            #expect(statements == [
                #"SELECT "book".* FROM "book" "#
                    + #"JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?) "#
                    + #"WHERE "book"."kind" = ?"#,
            ])
            #expect(Set(italianNovels) == [Library.book(9), Library.book(10)])
        }
    }

    // MARK: - How to Model Graphs of Objects

    @Test func authorInfos() throws {
        let (authorInfos, statements) = try dbQueue.read { db throws in
            var authorInfos: [AuthorInfo] = []
            let statements = try recordedSQLWithWarmCache(db) {
                authorInfos = try Author
                    .annotated(with: Author.books.count)
                    .asRequest(of: AuthorInfo.self)
                    .fetchAll(db)
            }
            return (authorInfos, statements)
        }
        #expect(statements == [
            #"SELECT "author".*, COUNT(DISTINCT "book"."id") AS "bookCount" FROM "author" "#
                + #"LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id""#,
        ])
        let counts = Dictionary(uniqueKeysWithValues: authorInfos.map { ($0.author.id!, $0.bookCount) })
        #expect(counts == [1: 3, 2: 1, 3: 2, 4: 2, 5: 0, 6: 3, 7: 2, 8: 1, 9: 1, 10: 1, 11: 0])
        #expect(authorInfos.map(\.author).sorted { $0.id! < $1.id! } == Library.authors)
    }

    @Test func literaryCareers() throws {
        let (careers, statements) = try dbQueue.read { db throws in
            var careers: [LiteraryCareer] = []
            // The article writes `Author.filter(countryCode: "DE")`, which
            // compiles with neither GRDB nor GRDBLite: methods of
            // `DerivableRequest` extensions need a request.
            let statements = try recordedSQLWithWarmCache(db) {
                careers = try Author.all()
                    .filter(countryCode: "DE")
                    .orderByName()
                    .including(all: Author.books)
                    .asRequest(of: LiteraryCareer.self)
                    .fetchAll(db)
            }
            return (careers, statements)
        }
        // Two requests, whatever the number of authors.
        #expect(statements == [
                #"SELECT * FROM "author" WHERE "countryCode" = ? ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#,
            #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" IN (?, ?, ?)"#,
        ])
        #expect(careers.map(\.author) == [Library.author(5), Library.author(4), Library.author(3)])
        #expect(careers.map { $0.books.sorted { $0.id! < $1.id! } } == [
            [],
            [Library.book(7), Library.book(8)],
            [Library.book(5), Library.book(6)],
        ])
    }

    @Test func authorships() throws {
        try dbQueue.read { db throws in
            var authorships: [Authorship] = []
            var alternative: [Authorship] = []
            let statements = try recordedSQLWithWarmCache(db) {
                authorships = try Book.all()
                    .including(required: Book.author.filter(countryCode: "CO"))
                    .asRequest(of: Authorship.self)
                    .fetchAll(db)

                // Equivalent alternative
                alternative = try Book.all()
                    .filter(authorCountryCode: "CO")
                    .including(required: Book.author)
                    .asRequest(of: Authorship.self)
                    .fetchAll(db)
            }
            let sql = #"SELECT "book".*, "author".* FROM "book" "#
                + #"JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?)"#
            #expect(statements == [sql, sql])

            for authorships in [authorships, alternative] {
                let sorted = authorships.sorted { $0.book.id! < $1.book.id! }
                #expect(sorted.map(\.book) == [1, 2, 3, 4].map(Library.book))
                #expect(sorted.map(\.author) == [1, 1, 1, 2].map(Library.author))
            }
        }
    }

    // MARK: - Lazy and Eager Loading

    @Test func eagerLoading() throws {
        try dbQueue.read { db throws in
            let request = Author.all()
                .including(all: Author.books) // <- Explicit request for books
                .asRequest(of: LiteraryCareer.self)

            // Fetch first author and its books in one stroke
            var career: LiteraryCareer?
            let statements = try recordedSQLWithWarmCache(db) {
                career = try request.fetchOne(db)
            }
            #expect(statements == [
                #"SELECT * FROM "author" LIMIT 1"#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE "authorId" = ?"#,
            ])
            let fetched = try #require(career)
            #expect(fetched.author.name == "Gabriel García Márquez")
            #expect(fetched.books.map(\.title).sorted() == [
                "Love in the Time of Cholera", "One Hundred Years of Solitude", "The Story of a Shipwrecked Sailor",
            ])
        }
    }
}
