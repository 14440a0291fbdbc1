import GRDBLite
import Testing

private typealias Author = Library.Author
private typealias Book = Library.Book

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author?
}

@Suite struct BelongsToAssociationTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try Library.makeDatabase()
    }

    @Test func includingRequired() throws {
        try dbQueue.read { db throws in
            let request = Book.including(required: Book.author)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.count == 16)
            for row in rows {
                let book = try Book(row: row)
                let author: Author = row["author"]
                #expect(book == Library.book(book.id!))
                #expect(author == Library.author(book.authorId))
                // The row of the book does not see the columns of the author.
                #expect(row.columnNames == ["id", "title", "authorId", "kind", "year"])
                #expect(row.scopes.names == ["author"])
            }
        }
    }

    @Test func includingOptionalDecodesNilWithoutMatch() throws {
        try dbQueue.read { db throws in
            let request = Book
                .including(optional: Book.author.filter(countryCode: "FR"))
                .orderByPrimaryKey()
                .asRequest(of: BookInfo.self)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "book".*, "author".* FROM "book" \
                LEFT JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?) \
                ORDER BY "book"."id"
                """)
            let infos = try request.fetchAll(db)
            #expect(infos == Library.books.map { book in
                BookInfo(book: book, author: book.authorId == 7 ? Library.author(7) : nil)
            })
        }
    }

    @Test func joiningDoesNotSelect() throws {
        try dbQueue.read { db throws in
            let required = Book.joining(required: Book.author.filter { $0.name == "Victor Hugo" })
            #expect(try sqlAndArguments(db, required).sql == """
                SELECT "book".* FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."name" = ?)
                """)
            #expect(try required.fetchAll(db).map(\.id) == [12, 13])
            #expect(try Row.fetchOne(db, required)?.scopes.isEmpty == true)

            let optional = Book.joining(optional: Book.author)
            #expect(try sqlAndArguments(db, optional).sql == """
                SELECT "book".* FROM "book" LEFT JOIN "author" ON "author"."id" = "book"."authorId"
                """)
            #expect(try optional.fetchCount(db) == 16)
        }
    }

    @Test func keys() throws {
        try dbQueue.read { db throws in
            // Default key: the table name.
            #expect(try Row.fetchOne(db, Book.including(required: Book.author))?.scopes.names == ["author"])

            // Key of the association.
            let writer = Book.belongsTo(Author.self, key: "writer")
            let row = try #require(try Row.fetchOne(db, Book.including(required: writer).filter(key: 14)))
            #expect(row.scopes.names == ["writer"])
            #expect(row["writer"] as Author == Library.author(8))

            // forKey
            let row2 = try #require(try Row.fetchOne(db, Book.including(required: Book.author.forKey("creator"))))
            #expect(row2.scopes.names == ["creator"])
        }
    }

    @Test func orderingAndSelectionInsideTheAssociation() throws {
        try dbQueue.read { db throws in
            let request = Book
                .including(required: Book.author.select(\.name).order(\.name))
                .order(\.year)
                .filter { $0.year < 1900 }
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "book".*, "author"."name" FROM "book" \
                JOIN "author" ON "author"."id" = "book"."authorId" \
                WHERE "book"."year" < ? \
                ORDER BY "book"."year", "author"."name"
                """)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["title"] as String } == ["Don Quixote", "Hernani", "Les Misérables", "María"])
            #expect(rows.map { $0.scopes["author"]! } == [
                    ["name": "Miguel de Cervantes"], ["name": "Victor Hugo"], ["name": "Victor Hugo"],
                    ["name": "Jorge Isaacs"]
            ])

            // Reversing reverses the orderings of associations too.
            #expect(try sqlAndArguments(db, request.reversed()).sql.hasSuffix("""
                ORDER BY "book"."year" DESC, "author"."name" DESC
                """))
            // Reversed twice, an association's ordering is as written, as
            // in GRDB (not `"author"."name" ASC`).
            let twice = Book.order(\.year).reversed()
                .including(required: Book.author.order(\.name).reversed())
            #expect(try sqlAndArguments(db, twice).sql.hasSuffix("""
                ORDER BY "book"."year" DESC, "author"."name"
                """))
            // withStableOrder orders associations by primary key as well.
            #expect(try sqlAndArguments(db, Book.including(required: Book.author).withStableOrder()).sql.hasSuffix("""
                ORDER BY "book"."id", "author"."id"
                """))
            // unordered removes all orderings.
            #expect(try !sqlAndArguments(db, request.unordered()).sql.contains("ORDER BY"))
        }
    }

    @Test func explicitForeignKeys() throws {
        try dbQueue.read { db throws in
            let expectedSQL = """
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """
            let originOnly = Book.belongsTo(Author.self, using: ForeignKey(["authorId"]))
            let complete = Book.belongsTo(Author.self, using: ForeignKey([Column("authorId")], to: [Column("id")]))
            for association in [originOnly, complete] {
                let request = Book.including(required: association)
                #expect(try sqlAndArguments(db, request).sql == expectedSQL)
                #expect(try request.fetchCount(db) == 16)
            }
        }
    }

    @Test func associationToATable() throws {
        try dbQueue.read { db throws in
            let author = Book.belongsTo(Table("author"))
            let row = try #require(try Row.fetchOne(db, Book.including(required: author).filter(key: 1)))
            #expect(row.scopes["author"] == ["id": 1, "name": "Gabriel García Márquez", "countryCode": "CO"])
        }
    }

    @Test func fetchOneKeepsLimitWithJoins() throws {
        try dbQueue.read { db throws in
            // A filter on the primary key of the book does not make the
            // joined request return a single row in general (to-many joins).
            let request = Book.including(required: Book.author).filter(key: 3)
            #expect(try sqlAndArguments(db, request, singleResult: true).sql == """
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                WHERE "book"."id" = ? LIMIT 1
                """)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(try Book(row: row) == Library.book(3))
            #expect(row["author"] as Author == Library.author(1))
            #expect(try request.asRequest(of: BookInfo.self).fetchOne(db)
                == BookInfo(book: Library.book(3), author: Library.author(1)))
        }
    }

    @Test func fetchCursorWithScopes() throws {
        try dbQueue.read { db throws in
            let request = Book.including(required: Book.author).orderByPrimaryKey()
            var authorIds: [Int64] = []
            let rows = try Row.fetchCursor(db, request)
            while let row = try rows.next() {
                authorIds.append((row["author"] as Author).id!)
            }
            #expect(authorIds == Library.books.map(\.authorId))

            let infos = try request.asRequest(of: BookInfo.self).fetchCursor(db)
            var count = 0
            while let info = try infos.next() {
                #expect(info.author == Library.author(info.book.authorId))
                count += 1
            }
            #expect(count == 16)
            #expect(try Set(request.asRequest(of: BookInfo.self).fetchAll(db).map(\.book)) == Set(Library.books))
        }
    }

    @Test func requestForRecord() throws {
        try dbQueue.read { db throws in
            let book = Library.book(16)
            let request = book.request(for: Book.author)
            #expect(try sqlAndArguments(db, request, singleResult: true).sql == """
                SELECT * FROM "author" WHERE "id" = ?
                """)
            #expect(try sqlAndArguments(db, request).arguments == [10])
            #expect(try request.fetchOne(db) == Library.author(10))
            // Associations refine the request.
            #expect(try book.request(for: Book.author.filter(countryCode: "FR")).fetchOne(db) == nil)
        }
    }
}

@Suite struct TableAssociationTests {
    @Test func associationsOfTables() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let authorTable = Table("author")
            let bookTable = Table("book")
            let books = authorTable.hasMany(bookTable)
            let author = bookTable.belongsTo(authorTable)

            let careers = try authorTable.including(all: books).filter(key: 9).fetchAll(db)
            #expect(careers.map { $0.prefetchedRows["books"]?.map { $0["title"] as String } } == [["Bodas de sangre"]])

            let request = bookTable.including(required: author.select(Column("name"))).filter(key: 15)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "book".*, "author"."name" FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                WHERE "book"."id" = ?
                """)
            #expect(try request.fetchOne(db)?.scopes["author"] == ["name": "Federico García Lorca"])

            let counts = authorTable.annotated(with: books.count).having(books.count > 2)
            #expect(try counts.fetchAll(db).map { $0["bookCount"] as Int } == [3, 3])

            // A table can be associated with a record type.
            let records = authorTable.hasMany(Library.Book.self)
            #expect(try authorTable.joining(required: records.filter(kind: .theater)).fetchCount(db) == 2)
        }
    }

    @Test func rawSQLSelectionInAssociation() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            // The number of columns of raw SQL is asked to SQLite.
            let request = Library.Book
                .including(required: Library.Book.author.select(sql: "name, countryCode"))
                .filter(key: 10)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes["author"] == ["name": "Italo Calvino", "countryCode": "IT"])
            #expect(row.count == 5)
        }
    }
}
