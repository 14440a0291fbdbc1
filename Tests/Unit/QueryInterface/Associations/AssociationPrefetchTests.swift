import GRDBLite
import Testing

private typealias Author = Library.Author
private typealias Book = Library.Book

// including(all:): one request for the origin rows, and one request per
// prefetched association, whatever the number of rows.
@Suite struct AssociationPrefetchTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try Library.makeDatabase()
    }

    @Test func twoRequestsForAllRows() throws {
        try dbQueue.read { db throws in
            var rows: [Row] = []
            let statements = try recordedSQLWithWarmCache(db) {
                rows = try Row.fetchAll(db, Author.including(all: Author.books).orderByPrimaryKey())
            }
            #expect(statements == [
                #"SELECT * FROM "author" ORDER BY "id""#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" "#
                    + #"WHERE "authorId" IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"#,
            ])
            #expect(rows.count == 11)
            for row in rows {
                let authorId: Int64 = row["id"]
                let books = try #require(row.prefetchedRows["books"])
                #expect(books.map { $0["id"] as Int64 } == Library.books.filter { $0.authorId == authorId }.map(\.id!))
                // Prefetched rows repeat the key of their origin row.
                #expect(books.allSatisfy { $0["grdb_authorId"] as Int64 == authorId })
                #expect(row["books"] as [Book] == Library.books.filter { $0.authorId == authorId })
            }
            #expect(rows[0]["books"] as Set<Book> == [Library.book(1), Library.book(2), Library.book(3)])
        }
    }

    /// As GRDB: two `including(all:)` of the same key are one, whose
    /// filters are all applied.
    @Test func sameKeyIsMerged() throws {
        try dbQueue.read { db throws in
            let statements = try recordedSQLWithWarmCache(db) {
                let request = Author.all()
                    .including(all: Author.books.filter(Column("year") > 1900))
                    .including(all: Author.books.filter(Column("year") < 2000))
                    .orderByPrimaryKey()
                _ = try Row.fetchAll(db, request)
            }
            #expect(statements.count == 2)
            #expect(statements.last?.contains(#"WHERE ("year" > ?) AND ("year" < ?) AND ("authorId" IN"#) == true)
        }
    }

    @Test func noOriginRowNoPrefetch() throws {
        try dbQueue.read { db throws in
            var rows: [Row] = []
            let statements = try recordedSQLWithWarmCache(db) {
                rows = try Row.fetchAll(db, Author.including(all: Author.books).filter(countryCode: "US"))
            }
            #expect(rows.isEmpty)
            #expect(statements == [#"SELECT * FROM "author" WHERE "countryCode" = ?"#])
        }
    }

    @Test func orderedAndFilteredAssociations() throws {
        try dbQueue.read { db throws in
            struct AuthorWorks: Decodable, FetchableRecord {
                var author: Author
                var novels: [Book]
                var essays: [Book]
            }
            let request = Author
                .filter(keys: [1, 6])
                .including(all: Author.books.filter(kind: .novel).orderByTitle().forKey("novels"))
                .including(all: Author.books.filter(kind: .essay).forKey("essays"))
                .asRequest(of: AuthorWorks.self)
            var works: [AuthorWorks] = []
            let statements = try recordedSQLWithWarmCache(db) {
                works = try request.fetchAll(db)
            }
            #expect(statements == [
                #"SELECT * FROM "author" WHERE "id" IN (?, ?)"#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE ("kind" = ?) AND ("authorId" IN (?, ?)) "#
                    + #"ORDER BY "title" COLLATE swiftLocalizedCaseInsensitiveCompare"#,
                #"SELECT *, "authorId" AS "grdb_authorId" FROM "book" WHERE ("kind" = ?) AND ("authorId" IN (?, ?))"#,
            ])
            #expect(works.map(\.author.id) == [1, 6])
            #expect(works.map { $0.novels.map(\.title) } == [
                ["Love in the Time of Cholera", "One Hundred Years of Solitude"],
                ["If on a Winter's Night a Traveler", "invisible Cities"],
            ])
            #expect(works.map { $0.essays.map(\.id!) } == [[3], [11]])
        }
    }

    @Test func joinsInsidePrefetchedAssociation() throws {
        try dbQueue.read { db throws in
            // Books prefetched with their author, joined.
            let request = Author
                .filter(key: 3)
                .including(all: Author.books.including(required: Book.author.forKey("writer")).order(\.id))
            var row: Row?
            let statements = try recordedSQLWithWarmCache(db) {
                row = try Row.fetchOne(db, request)
            }
            #expect(statements == [
                #"SELECT * FROM "author" WHERE "id" = ?"#,
                #"SELECT "book".*, "book"."authorId" AS "grdb_authorId", "author".* FROM "book" "#
                    + #"JOIN "author" ON "author"."id" = "book"."authorId" "#
                    + #"WHERE "book"."authorId" = ? ORDER BY "book"."id""#,
            ])
            let books = try #require(row?.prefetchedRows["books"])
            #expect(books.map { $0["title"] as String } == ["The Magic Mountain", "Buddenbrooks"])
            #expect(books.map { $0["writer"] as Author } == [Library.author(3), Library.author(3)])
        }
    }

    @Test func nestedPrefetch() throws {
        let dbQueue = try Travel.makeDatabase()
        try dbQueue.read { db throws in
            struct Native: Decodable, FetchableRecord {
                var citizen: Travel.Citizen
                var passports: [Travel.Passport]
            }
            struct CountryNatives: Decodable, FetchableRecord {
                var country: Travel.Country
                var natives: [Native]
            }
            let request = Travel.Country
                .including(all: Travel.Country.natives.including(all: Travel.Citizen.passports))
                .orderByPrimaryKey()
                .asRequest(of: CountryNatives.self)
            var countries: [CountryNatives] = []
            let statements = try recordedSQLWithWarmCache(db) {
                countries = try request.fetchAll(db)
            }
            // One request per level.
            #expect(statements == [
                #"SELECT * FROM "country" ORDER BY "code""#,
                #"SELECT *, "birthCountryCode" AS "grdb_birthCountryCode" FROM "citizen" "#
                    + #"WHERE "birthCountryCode" IN (?, ?, ?, ?)"#,
                #"SELECT *, "citizenId" AS "grdb_citizenId" FROM "passport" WHERE "citizenId" IN (?, ?, ?)"#,
            ])
            #expect(countries.map { country in
                "\(country.country.code): " + country.natives.map { native in
                    "\(native.citizen.name) \(native.passports.map(\.countryCode).sorted())"
                }.joined(separator: ", ")
            } == ["CH: ", #"DE: Barbara ["DE"]"#, #"FR: Arthur ["DE", "FR"]"#, #"JP: Diane ["JP"]"#])
        }
    }

    @Test func compositeForeignKey() throws {
        let dbQueue = try Travel.makeDatabase()
        try dbQueue.read { db throws in
            let request = Travel.Passport.including(all: Travel.Passport.stamps.order(Column("id")))
                .order(Column("issueYear"))
            var rows: [Row] = []
            let statements = try recordedSQLWithWarmCache(db) {
                rows = try Row.fetchAll(db, request)
            }
            // As in GRDB, a compound key is read from the origin request,
            // as a common table expression, unordered.
            #expect(statements == [
                #"SELECT * FROM "passport" ORDER BY "issueYear""#,
                #"WITH "grdb_base" AS (SELECT "countryCode", "citizenId" FROM "passport") "#
                    + #"SELECT *, "countryCode" AS "grdb_countryCode", "citizenId" AS "grdb_citizenId" FROM "stamp" "#
                    + #"WHERE ("countryCode", "citizenId") IN "grdb_base" "#
                    + #"ORDER BY "id""#,
            ])
            #expect(rows.map { ($0["stamps"] as [Travel.Stamp]).map(\.place) } == [
                ["Paris", "Lyon"], ["Berlin"], [], [], ["Kyoto"],
            ])

            // A limited origin keeps its ordering and limit.
            let statementsOfLimited = try recordedSQLWithWarmCache(db) {
                rows = try Row.fetchAll(db, request.limit(2))
            }
            #expect(statementsOfLimited == [
                #"SELECT * FROM "passport" ORDER BY "issueYear" LIMIT ?"#,
                    #"WITH "grdb_base" AS (SELECT "countryCode", "citizenId" FROM "passport" ORDER BY "issueYear" LIMIT ?) "#
                    + #"SELECT *, "countryCode" AS "grdb_countryCode", "citizenId" AS "grdb_citizenId" FROM "stamp" "#
                    + #"WHERE ("countryCode", "citizenId") IN "grdb_base" "#
                    + #"ORDER BY "id""#,
            ])
            #expect(rows.map { ($0["stamps"] as [Travel.Stamp]).map(\.place) } == [["Paris", "Lyon"], ["Berlin"]])

            // A single passport: a simple condition.
            let passport = Travel.passports[0]
            let stamps = passport.request(for: Travel.Passport.stamps)
            #expect(try sqlAndArguments(db, stamps).sql == """
                SELECT * FROM "stamp" WHERE ("countryCode" = ?) AND ("citizenId" = ?)
                """)
            #expect(try stamps.fetchCount(db) == 2)

            let joined = Travel.Stamp.including(required: Travel.Stamp.passport)
            #expect(try sqlAndArguments(db, joined).sql == """
                SELECT "stamp".*, "passport".* FROM "stamp" \
                JOIN "passport" ON ("passport"."countryCode" = "stamp"."countryCode") \
                AND ("passport"."citizenId" = "stamp"."citizenId")
                """)
            #expect(try joined.fetchCount(db) == 4)
        }
    }

    /// The table of an `including(all:)` is read after the base rows (GRDB
    /// reads it before): without base rows, a missing table is no error.
    @Test func prefetchedTableIsReadAfterTheBaseRows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("countryCode", .text)
            }
            let request = Author.including(all: Author.books)
            #expect(try Row.fetchAll(db, request) == [])
            #expect(try request.fetchCount(db) == 0)
            try db.execute(sql: "INSERT INTO author (name) VALUES ('Arthur')")
            let error = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, request) }
            #expect(error?.message == "no such table: book")
        }
    }

    @Test func nullKeysMatchNothing() throws {
        let dbQueue = try Travel.makeDatabase()
        try dbQueue.read { db throws in
            // Citizens born in the same country; Craig's birth country is
            // unknown (NULL).
            let compatriots = Travel.Citizen.hasMany(
                Travel.Citizen.self, key: "compatriots",
                using: ForeignKey(["birthCountryCode"], to: ["birthCountryCode"]))

            var rows: [Row] = []
            var statements = try recordedSQLWithWarmCache(db) {
                rows = try Row.fetchAll(db, Travel.Citizen.including(all: compatriots).orderByPrimaryKey())
            }
            #expect(statements == [
                #"SELECT * FROM "citizen" ORDER BY "id""#,
                #"SELECT *, "birthCountryCode" AS "grdb_birthCountryCode" FROM "citizen" "#
                    + #"WHERE "birthCountryCode" IN (?, ?, ?)"#,
            ])
            #expect(rows.map { ($0["compatriots"] as [Travel.Citizen]).map(\.name) } == [
                ["Arthur"], ["Barbara"], [], ["Diane"],
            ])

            // Only NULL keys: no prefetch request.
            statements = try recordedSQLWithWarmCache(db) {
                rows = try Row.fetchAll(db, Travel.Citizen.filter(key: 3).including(all: compatriots))
            }
            #expect(statements == [#"SELECT * FROM "citizen" WHERE "id" = ?"#])
            #expect(rows.map { $0.prefetchedRows["compatriots"] } == [[]])
        }
    }

    @Test func prefetchInsideJoinedAssociation() throws {
        try dbQueue.read { db throws in
            // Each book, its author, and all the books of its author,
            // prefetched through the joined author.
            struct AuthorWorks: Decodable, FetchableRecord {
                var author: Author
                var books: [Book]
            }
            struct BookInfo: Decodable, FetchableRecord {
                var book: Book
                var author: AuthorWorks
            }
            let request = Book
                .filter(keys: [1, 4, 5])
                .including(required: Book.author.including(all: Author.books.order(\.id)))
                .order(\.id)
            var rows: [Row] = []
            let statements = try recordedSQLWithWarmCache(db) {
                rows = try Row.fetchAll(db, request)
            }
            #expect(statements == [
                #"SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" "#
                    + #"WHERE "book"."id" IN (?, ?, ?) ORDER BY "book"."id""#,
                #"SELECT "book".*, "author"."id" AS "grdb_id" FROM "book" "#
                    + #"JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."id" IN (?, ?, ?)) "#
                    + #"ORDER BY "book"."id""#,
            ])
            let authorBooks = rows.map { $0.scopes["author"]?.prefetchedRows["books"]?.map { $0["id"] as Int64 } }
            #expect(authorBooks == [[1, 2, 3], [4], [5, 6]])
            // The book row finds the prefetched rows of its scopes too.
            #expect(rows[2].prefetchedRows["books"]?.count == 2)
            #expect(rows[2].prefetchedRows.keys == ["books"])
            #expect(rows[2].debugDescription.hasSuffix("""
                  - author: [id:3 name:"Thomas Mann" countryCode:"DE"]
                    + books: 2 rows
                  + books: 2 rows
                """))

            let infos = try BookInfo.fetchAll(db, request)
            #expect(infos.map(\.book.id) == [1, 4, 5])
            #expect(infos.map { $0.author.books.map(\.id!) } == [[1, 2, 3], [4], [5, 6]])
        }
    }

    @Test func prefetchInsideJoinedAssociationWithoutItsColumns() throws {
        try dbQueue.read { db throws in
            // Books of the authors of the selected books; the author is
            // joined, not selected, and only Colombian authors match.
            let request = Book
                .filter(keys: [1, 5])
                .joining(optional: Book.author.filter(countryCode: "CO").including(all: Author.books.order(\.id)))
                .order(\.id)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes.names } == [[], []])
            #expect(rows.map { $0.prefetchedRows["books"]?.map { $0["id"] as Int64 } } == [[1, 2, 3], []])
        }
    }

    @Test func fetchOneAndFetchSet() throws {
        try dbQueue.read { db throws in
            struct Career: Decodable, FetchableRecord, Hashable {
                var author: Author
                var books: [Book]
            }
            let request = Author.including(all: Author.books).asRequest(of: Career.self)
            let career = try #require(try request.filter(key: 7).fetchOne(db))
            #expect(career.books == [Library.book(12), Library.book(13)])
            let careers = try request.filter(keys: [7, 10]).fetchSet(db)
            #expect(careers.map(\.books.count).sorted() == [1, 2])
        }
    }

    @Test func prefetchedAssociationsDoNotChangeTheCount() throws {
        try dbQueue.read { db throws in
            let request = Author.including(all: Author.books)
            var count = 0
            let statements = try recordedSQLWithWarmCache(db) {
                count = try request.fetchCount(db)
            }
            #expect(count == 11)
            #expect(statements == [#"SELECT COUNT(*) FROM "author""#])
        }
    }

    @Test func cursorsCantPrefetch() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try Library.makeDatabase()
            try dbQueue.read { db throws in
                _ = try Library.Author.including(all: Library.Author.books).fetchCursor(db)
            }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Not implemented: fetchCursor with prefetched associations"))
        }
    }

    @Test func prefetchNeedsTheKeyOfOriginRows() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try Library.makeDatabase()
            try dbQueue.read { db throws in
                _ = try Library.Author.select(Column("name")).including(all: Library.Author.books).fetchAll(db)
            }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("including(all:) needs the column id of author in the selection"))
        }
    }
}
