@_spi(GRDBLite) import GRDBLite
import Testing

private typealias Author = Library.Author
private typealias Book = Library.Book
private typealias Passport = Travel.Passport
private typealias Citizen = Travel.Citizen
private typealias Country = Travel.Country

/// A record that is not Decodable, and reads the scope of its author.
private struct BookWithAuthor: FetchableRecord {
    var book: Book
    var author: Author?

    init(row: Row) throws {
        book = try Book(row: row)
        author = row["author"]
    }
}

@Suite struct AssociationRowScopesTests {
    @Test func nestedScopes() throws {
        let dbQueue = try Travel.makeDatabase()
        try dbQueue.read { db throws in
            let request = Passport
                .including(required: Passport.citizen.including(optional: Citizen.birthCountry))
                .order(Column("issueYear"))
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "passport".*, "citizen".*, "country".* FROM "passport" \
                JOIN "citizen" ON "citizen"."id" = "passport"."citizenId" \
                LEFT JOIN "country" ON "country"."code" = "citizen"."birthCountryCode" \
                ORDER BY "passport"."issueYear"
                """)
            let rows = try Row.fetchAll(db, request)
            let row = rows[0]
            #expect(row.unscoped == ["countryCode": "FR", "citizenId": 1, "issueYear": 2010])
            #expect(row.scopes.names == ["citizen"])
            #expect(row.scopes["citizen"]?.unscoped == ["id": 1, "name": "Arthur", "birthCountryCode": "FR"])
            #expect(row.scopes["citizen"]?.scopes["birthCountry"] == ["code": "FR", "name": "France"])
            #expect(row.scopes["birthCountry"] == nil)
            #expect(row.scopesTree.names == ["citizen", "birthCountry"])
            #expect(row.scopesTree["birthCountry"] == ["code": "FR", "name": "France"])

            // Records of nested scopes, found at any depth.
            #expect(rows.map { ($0["birthCountry"] as Country?)?.code } == ["FR", "DE", "FR", nil, "JP"])

            struct PassportInfo: Decodable, FetchableRecord {
                var passport: Passport
                var citizen: Citizen
                var birthCountry: Country?
            }
            let infos = try request.asRequest(of: PassportInfo.self).fetchAll(db)
            #expect(infos.map(\.citizen.name) == ["Arthur", "Barbara", "Arthur", "Craig", "Diane"])
            #expect(infos.map(\.birthCountry?.name) == ["France", "Germany", "France", nil, "Japan"])
            #expect(infos.map(\.passport) == Travel.passports.sorted { $0.issueYear < $1.issueYear })
        }
    }

    @Test func recordSubscripts() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let request = Book
                .including(optional: Book.author.filter(countryCode: "ES"))
                .orderByPrimaryKey()
            let records = try request.asRequest(of: BookWithAuthor.self).fetchAll(db)
            #expect(records.map(\.book) == Library.books)
            #expect(
                records.map { $0.author?.id } == [
                    nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, 8, 9, nil
                ])

            let row = try #require(try Row.fetchOne(db, request.filter(key: 1)))
            // The author scope of a left join without match only contains NULL.
            #expect(row.scopes["author"] == ["id": nil, "name": nil, "countryCode": nil])
            #expect(row["author"] as Author? == nil)
            #expect(try row.decodeIfPresent(Author.self, forKey: "author") == nil)
            #expect(try row.decodeIfPresent(Author.self, forKey: "missing") == nil)
        }
    }

    @Test func decodingErrors() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let row = try #require(
                try Row.fetchOne(db, Book.including(optional: Book.author.filter(countryCode: "ES"))))

            let missing = #expect(throws: RowDecodingError.self) {
                try row.decode(Author.self, forKey: "writer")
            }
            #expect(missing?.kind == .scopeNotFound)
            #expect(missing?.key == "writer")
            #expect(missing?.description.hasPrefix(
                #"could not decode Author: scope not found: "writer" - available scopes: ["author"]"#) == true)

            let null = #expect(throws: RowDecodingError.self) {
                try row.decode(Author.self, forKey: "author")
            }
            #expect(null?.kind == .valueMismatch)
            #expect(null?.description.contains(#"scope "author" only contains null values"#) == true)

            let noPrefetch = #expect(throws: RowDecodingError.self) {
                try row.decode([Book].self, forKey: "books")
            }
            #expect(noPrefetch?.kind == .prefetchKeyNotFound)
            #expect(noPrefetch?.description.hasPrefix(
                    #"could not decode Array<Book>: key for prefetched rows not found: "books" - available keys: []"#)
                    == true)
            #expect(throws: RowDecodingError.self) {
                try row.decode(Set<Book>.self, forKey: "books")
            }

            // A Decodable record that needs a missing scope.
            struct Authorship: Decodable, FetchableRecord {
                var book: Book
                var author: Author
            }
            #expect(throws: (any Error).self) {
                try Book.all().asRequest(of: Authorship.self).fetchOne(db)
            }
        }
    }

    @Test func subscriptTrapsOnMissingScope() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try Library.makeDatabase()
            try dbQueue.read { db throws in
                let row = try Row.fetchOne(db, Library.Book.including(required: Library.Book.author))!
                _ = row["writer"] as Library.Author
            }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains(#"scope not found: "writer""#))
        }
    }

    @Test func rowsWithScopesCompareTheirScopes() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let request = Book.including(required: Book.author).orderByPrimaryKey()
            let rows = try Row.fetchAll(db, request)
            var copies: [Row] = []
            let cursor = try Row.fetchCursor(db, request)
            while let row = try cursor.next() {
                copies.append(row.copy())
            }
            #expect(rows == copies)
            #expect(Set(rows).count == 16)
            // Same book columns, other author scope.
            let namesOnly = try Row.fetchAll(
                db, Book.including(required: Book.author.select(\.name)).orderByPrimaryKey())
            #expect(rows[0].unscoped == namesOnly[0].unscoped)
            #expect(rows[0] != namesOnly[0])
        }
    }

    @Test func annotatedWithAssociationColumns() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            struct BookRow: Decodable, FetchableRecord, Equatable {
                var title: String
                var name: String?
            }
            let required = Book.annotated(withRequired: Book.author.select(\.name)).filter(key: 16)
            #expect(try sqlAndArguments(db, required).sql == """
                SELECT "book".*, "author"."name" FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" \
                WHERE "book"."id" = ?
                """)
            #expect(
                try required.asRequest(of: BookRow.self).fetchOne(db)
                    == BookRow(title: "Kafka on the Shore", name: "Haruki Murakami"))
            #expect(try Row.fetchOne(db, required)?.scopes.isEmpty == true)

            let optional = Book.annotated(withOptional: Book.author.filter(countryCode: "FR").select(\.name))
                .orderByPrimaryKey()
            #expect(try sqlAndArguments(db, optional).sql == """
                SELECT "book".*, "author"."name" FROM "book" \
                LEFT JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?) \
                ORDER BY "book"."id"
                """)
            #expect(
                try optional.asRequest(of: BookRow.self).fetchAll(db).compactMap(\.name) == [
                    "Victor Hugo", "Victor Hugo"
                ])
        }
    }
}
