import GRDBLite
import Testing

private typealias Author = Library.Author
private typealias Book = Library.Book

@Suite struct AssociationAggregateTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try Library.makeDatabase()
    }

    /// The values of `column` in the rows of `request`, by author id.
    private func values<T: DatabaseValueConvertible>(
        _ db: Database,
        _ request: QueryInterfaceRequest<Author>,
        _ column: String,
        as type: T.Type = T.self) throws -> [Int64: T?]
    {
        try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, request).map { ($0["id"] as Int64, $0[column] as T?) })
    }

    @Test func defaultKeys() throws {
        try dbQueue.read { db throws in
            let cases: [(AssociationAggregate<Author>, String)] = [
                (Author.books.count, #"COUNT(DISTINCT "book"."id") AS "bookCount""#),
                (Author.books.isEmpty, #"COUNT(DISTINCT "book"."id") = 0 AS "hasNoBook""#),
                (Author.books.min(Column("year")), #"MIN("book"."year") AS "minBookYear""#),
                (Author.books.max { $0.year }, #"MAX("book"."year") AS "maxBookYear""#),
                (Author.books.average(Column("year")), #"AVG("book"."year") AS "averageBookYear""#),
                (Author.books.sum(Column("year")), #"SUM("book"."year") AS "bookYearSum""#),
                (Author.books.total { $0.year }, #"TOTAL("book"."year") AS "bookYearSum""#),
                // Not a column: no default key.
                (Author.books.max(Column("year") + 1), #"MAX("book"."year" + ?)"#),
                (Author.books.forKey("works").count, #"COUNT(DISTINCT "book"."id") AS "workCount""#),
                (Author.books.count.forKey("numberOfBooks"), #"COUNT(DISTINCT "book"."id") AS "numberOfBooks""#),
            ]
            for (aggregate, selection) in cases {
                #expect(try sqlAndArguments(db, Author.annotated(with: aggregate)).sql == """
                    SELECT "author".*, \(selection) FROM "author" \
                    LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id"
                    """)
            }
        }
    }

    @Test func values() throws {
        try dbQueue.read { db throws in
            let request = Author.annotated(with:
                Author.books.count,
                Author.books.isEmpty,
                Author.books.min(Column("year")),
                Author.books.max(Column("year")),
                Author.books.average(Column("year")),
                Author.books.sum(Column("year")),
                Author.books.total(Column("year")))
            // All aggregates of one association share its join.
            #expect(try sqlAndArguments(db, request).sql.components(separatedBy: "LEFT JOIN").count == 2)

            #expect(try values(db, request, "bookCount", as: Int.self)
                == [1: 3, 2: 1, 3: 2, 4: 2, 5: 0, 6: 3, 7: 2, 8: 1, 9: 1, 10: 1, 11: 0])
            #expect(try values(db, request, "hasNoBook", as: Bool.self)
                    == [
                        1: false, 2: false, 3: false, 4: false, 5: true, 6: false, 7: false, 8: false, 9: false,
                        10: false, 11: true
                    ])
            #expect(try values(db, request, "minBookYear", as: Int.self)
                == [1: 1967, 2: 1867, 3: 1901, 4: 1922, 5: nil, 6: 1972, 7: 1830, 8: 1605, 9: 1932, 10: 2002, 11: nil])
            #expect(try values(db, request, "maxBookYear", as: Int.self)
                == [1: 1985, 2: 1867, 3: 1924, 4: 1927, 5: nil, 6: 1988, 7: 1862, 8: 1605, 9: 1932, 10: 2002, 11: nil])
            let averages = try values(db, request, "averageBookYear", as: Double.self)
            #expect(averages[1] == 1974.0)
            #expect(averages[5] == .some(nil))
            #expect(try values(db, request, "bookYearSum", as: Int.self)[1] == 5922)
            // TOTAL, selected after SUM under the same name, is 0.0 without book.
            let totals = try Row.fetchAll(db, request).map { $0.databaseValues.last! }
            #expect(totals.contains(0.0.databaseValue))
        }
    }

    @Test func castKeepsTheKeyOfTheAggregate() throws {
        try dbQueue.read { db throws in
            let request = Author.annotated(with: cast(Author.books.count, as: .real))
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "author".*, CAST(COUNT(DISTINCT "book"."id") AS REAL) AS "bookCount" FROM "author" \
                LEFT JOIN "book" ON "book"."authorId" = "author"."id" GROUP BY "author"."id"
                """)
            let row = try #require(try Row.fetchOne(db, request.filter(Column("id") == 1)))
            #expect(row["bookCount"] as DatabaseValue == 3.0.databaseValue)
            let renamed = Author.annotated(with: cast(Author.books.count, as: .text).forKey("n"))
            #expect(try sqlAndArguments(db, renamed).sql.contains(#"CAST(COUNT(DISTINCT "book"."id") AS TEXT) AS "n""#))
        }
    }

    @Test func decodingAnnotatedRecords() throws {
        try dbQueue.read { db throws in
            struct AuthorInfo: Decodable, FetchableRecord {
                var author: Author
                var bookCount: Int
                var maxBookYear: Int?
            }
            let infos = try Author.all()
                .filter(countryCode: "DE")
                .orderByName()
                .annotated(with: Author.books.count, Author.books.max(Column("year")))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.author.name) == ["christa Wolf", "Hermann Hesse", "Thomas Mann"])
            #expect(infos.map(\.bookCount) == [0, 2, 2])
            #expect(infos.map(\.maxBookYear) == [nil, 1927, 1924])
        }
    }

    @Test func aggregatesOfDistinctKeysHaveDistinctJoins() throws {
        try dbQueue.read { db throws in
            let request = Author.annotated(with:
                Author.books.filter(kind: .novel).forKey("novels").count,
                Author.books.count)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "author".*, COUNT(DISTINCT "book1"."id") AS "novelCount", \
                COUNT(DISTINCT "book2"."id") AS "bookCount" FROM "author" \
                LEFT JOIN "book" "book1" ON ("book1"."authorId" = "author"."id") AND ("book1"."kind" = ?) \
                LEFT JOIN "book" "book2" ON "book2"."authorId" = "author"."id" \
                GROUP BY "author"."id"
                """)
            #expect(try values(db, request, "novelCount", as: Int.self)
                == [1: 2, 2: 1, 3: 2, 4: 2, 5: 0, 6: 2, 7: 1, 8: 1, 9: 0, 10: 1, 11: 0])
            #expect(try values(db, request, "bookCount", as: Int.self)[1] == 3)
        }
    }

    @Test func having() throws {
        try dbQueue.read { db throws in
            let prolific = Author.having(Author.books.count > 2)
            #expect(try sqlAndArguments(db, prolific).sql == """
                SELECT "author".* FROM "author" \
                LEFT JOIN "book" ON "book"."authorId" = "author"."id" \
                GROUP BY "author"."id" HAVING COUNT(DISTINCT "book"."id") > ?
                """)
            #expect(try prolific.fetchAll(db).map(\.id) == [1, 6])
            #expect(try prolific.fetchCount(db) == 2)

            #expect(try Author.having(Author.books.isEmpty).fetchAll(db).map(\.id) == [5, 11])
            #expect(try Author.having(!Author.books.isEmpty).fetchCount(db) == 9)
            for request in [Author.having(!Author.books.isEmpty), Author.having(Author.books.isEmpty == false),
                            Author.having(Author.books.isEmpty != true)]
            {
                #expect(try sqlAndArguments(db, request).sql.hasSuffix(#"HAVING COUNT(DISTINCT "book"."id") > 0"#))
                #expect(try request.fetchCount(db) == 9)
            }
            #expect(try sqlAndArguments(db, Author.having(Author.books.isEmpty == true)).sql.hasSuffix(
                #"HAVING COUNT(DISTINCT "book"."id") = 0"#))

            let modern = Author.all().having(Author.books.count >= 2 && Author.books.max(Column("year")) > 1925)
            #expect(try sqlAndArguments(db, modern).sql.hasSuffix("""
                HAVING (COUNT(DISTINCT "book"."id") >= ?) AND (MAX("book"."year") > ?)
                """))
            #expect(try modern.fetchAll(db).map(\.id) == [1, 4, 6])

            // Annotations and conditions on the same association.
            let request = Author.all()
                .annotated(with: Author.books.count)
                .having(Author.books.count == 1)
            #expect(try values(db, request, "bookCount", as: Int.self) == [2: 1, 8: 1, 9: 1, 10: 1])
        }
    }

    @Test func operators() throws {
        try dbQueue.read { db throws in
            let careerLength = (Author.books.max(Column("year")) - Author.books.min(Column("year"))).forKey(
                "careerLength")
            let request = Author.annotated(with: careerLength)
            #expect(try sqlAndArguments(db, request).sql.hasPrefix("""
                SELECT "author".*, MAX("book"."year") - MIN("book"."year") AS "careerLength"
                """))
            #expect(try values(db, request, "careerLength", as: Int.self)
                == [1: 18, 2: 0, 3: 23, 4: 5, 5: nil, 6: 16, 7: 32, 8: 0, 9: 0, 10: 0, 11: nil])

            // `??` keeps the key.
            let sum = Author.books.sum(Column("year")) ?? 0
            let sumRequest = Author.annotated(with: sum)
            #expect(try sqlAndArguments(db, sumRequest).sql.hasPrefix("""
                SELECT "author".*, IFNULL(SUM("book"."year"), ?) AS "bookYearSum"
                """))
            #expect(try values(db, sumRequest, "bookYearSum", as: Int.self)[5] == 0)

            // Values on the left.
            let prolific = Author.having(2 < Author.books.count)
            #expect(try sqlAndArguments(db, prolific).sql.hasSuffix(#"HAVING ? < COUNT(DISTINCT "book"."id")"#))
            #expect(try prolific.fetchAll(db).map(\.id) == [1, 6])
            #expect(try Author.having(Author.books.isEmpty == false).fetchCount(db) == 9)
            #expect(try Author.having(nil === Author.books.max(Column("year"))).fetchAll(db).map(\.id) == [5, 11])
            let plusOne = Author.annotated(with: (1 + Author.books.count).forKey("n"))
            #expect(try values(db, plusOne, "n", as: Int.self)[5] == 1)

            let doubled = Author.annotated(with: (Author.books.count * 2).forKey("twice"))
            #expect(try values(db, doubled, "twice", as: Int.self)[1] == 6)
            let mixed = Author.annotated(with: (abs(-Author.books.count) + Author.books.count).forKey("n"))
            #expect(try values(db, mixed, "n", as: Int.self)[6] == 6)
        }
    }

    @Test func rowidOfTablesWithoutIntegerPrimaryKey() throws {
        let dbQueue = try Travel.makeDatabase()
        try dbQueue.read { db throws in
            let request = Travel.Country.annotated(with: Travel.Country.passports.count).orderByPrimaryKey()
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "country".*, COUNT(DISTINCT "passport"."rowid") AS "passportCount" FROM "country" \
                LEFT JOIN "passport" ON "passport"."countryCode" = "country"."code" \
                GROUP BY "country"."rowid" ORDER BY "country"."code"
                """)
            #expect(try Row.fetchAll(db, request).map { $0["passportCount"] as Int } == [0, 2, 2, 1])
        }
    }
}
