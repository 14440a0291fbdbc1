import GRDBLite
import Testing

private typealias Author = Library.Author
private typealias Book = Library.Book

@Suite struct HasManyAssociationTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try Library.makeDatabase()
    }

    @Test func joinedToManyAssociationHasASingularKey() throws {
        try dbQueue.read { db throws in
            // One row per author and book, the book in the "book" scope.
            let request = Author.including(required: Author.books.filter(kind: .essay))
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "author".*, "book".* FROM "author" \
                JOIN "book" ON ("book"."authorId" = "author"."id") AND ("book"."kind" = ?)
                """)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0.scopes.names } == [["book"], ["book"]])
            let pairs = rows.map { ($0["name"] as String, ($0["book"] as Book).title) }
            #expect(pairs.sorted { $0.1 < $1.1 }.map { "\($0.0): \($0.1)" } == [
                "Italo Calvino: Six Memos for the Next Millennium",
                "Gabriel García Márquez: The Story of a Shipwrecked Sailor",
            ])
        }
    }

    @Test func joiningToFilterOrigin() throws {
        try dbQueue.read { db throws in
            // Authors who wrote a novel before 1900
            let request = Author
                .joining(required: Author.books.filter(kind: .novel).filter { $0.year < 1900 })
                .distinct()
                .orderByName()
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT DISTINCT "author".* FROM "author" \
                JOIN "book" ON ("book"."authorId" = "author"."id") AND ("book"."kind" = ?) AND ("book"."year" < ?) \
                ORDER BY "author"."name" COLLATE swiftLocalizedCaseInsensitiveCompare
                """)
            #expect(try request.fetchAll(db).map(\.name) == ["Jorge Isaacs", "Miguel de Cervantes", "Victor Hugo"])
            #expect(try request.fetchCount(db) == 3)
        }
    }

    @Test func includingOptionalWithoutMatch() throws {
        try dbQueue.read { db throws in
            struct AuthorEssay: Decodable, FetchableRecord {
                var author: Author
                var essay: Book?
            }
            let request = Author
                .including(optional: Author.books.filter(kind: .essay).forKey("essays"))
                .orderByPrimaryKey()
                .asRequest(of: AuthorEssay.self)
            let essays = try request.fetchAll(db)
            #expect(essays.count == 11)
            #expect(essays.map { $0.essay?.id } == [3, nil, nil, nil, nil, 11, nil, nil, nil, nil, nil])
        }
    }

    @Test func keys() throws {
        try dbQueue.read { db throws in
            let novels = Author.books.filter(kind: .novel).forKey("novels")
            // Prefetched: plural key.
            let row = try #require(try Row.fetchOne(db, Author.including(all: novels).filter(key: 1)))
            #expect(row.prefetchedRows.keys == ["novels"])
            // Joined: singular key.
            let joined = try #require(try Row.fetchOne(db, Author.including(required: novels).filter(key: 1)))
            #expect(joined.scopes.names == ["novel"])

            // Key of the association definition.
            let works = Author.hasMany(Book.self, key: "works")
            let worksRow = try #require(try Row.fetchOne(db, Author.including(all: works).filter(key: 6)))
            #expect(worksRow["works"] as [Book] == [9, 10, 11].map(Library.book))
        }
    }

    @Test func requestForRecord() throws {
        try dbQueue.read { db throws in
            let author = Library.author(7)
            let request = author.request(for: Author.books).orderByTitle()
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT * FROM "book" WHERE "authorId" = ? ORDER BY "title" COLLATE swiftLocalizedCaseInsensitiveCompare
                """)
            #expect(try request.fetchAll(db) == [Library.book(13), Library.book(12)])
            #expect(try request.fetchCount(db) == 2)

            // A record without id has no associated record.
            let newAuthor = Author(id: nil, name: "New", countryCode: nil)
            let none = newAuthor.request(for: Author.books)
            #expect(try none.fetchAll(db).isEmpty)
            #expect(try none.isEmpty(db))
        }
    }

    /// The foreign key found in the schema is kept for the next requests
    /// (`ForeignKeyMappingCache`), until the schema changes.
    @Test func requestForRecordFollowsTheSchemaChanges() throws {
        try dbQueue.write { db throws in
            let request = Library.author(7).request(for: Author.books)
            #expect(try sqlAndArguments(db, request).sql == #"SELECT * FROM "book" WHERE "authorId" = ?"#)
            #expect(try sqlAndArguments(db, request).arguments == [7])
            try db.execute(sql: "ALTER TABLE book RENAME COLUMN authorId TO writerId")
            #expect(try sqlAndArguments(db, request).sql == #"SELECT * FROM "book" WHERE "writerId" = ?"#)
        }
    }

    @Test func explicitForeignKey() throws {
        try dbQueue.read { db throws in
            let books = Author.hasMany(Book.self, using: ForeignKey(["authorId"]))
            #expect(try sqlAndArguments(db, Author.joining(required: books)).sql == """
                SELECT "author".* FROM "author" JOIN "book" ON "book"."authorId" = "author"."id"
                """)
            #expect(try Library.author(1).request(for: books).fetchCount(db) == 3)
        }
    }

    @Test func aliasExistsTestsThePrimaryKey() throws {
        try dbQueue.read { db throws in
            let bookAlias = TableAlias<Book>()
            let request = Author.joining(optional: Author.books.aliased(bookAlias)).filter(!bookAlias.exists)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "author".* FROM "author" \
                LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                WHERE "book"."id" IS NULL
                """)
            #expect(try request.fetchAll(db).map(\.id) == [5, 11])
            let withBooks = Author.joining(optional: Author.books.aliased(bookAlias)).filter(bookAlias.exists)
            #expect(try sqlAndArguments(db, withBooks).sql.hasSuffix(#"WHERE "book"."id" IS NOT NULL"#))
        }
    }
}
