import GRDBLite
import Testing

private typealias Author = Library.Author
private typealias Book = Library.Book

/// Employees and their managers: an association of a table to itself.
private struct Employee: Codable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "employee"
    static let manager = belongsTo(Employee.self, key: "manager")
    static let subordinates = hasMany(Employee.self, key: "subordinates")

    var id: Int64
    var name: String
    var managerId: Int64?

    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "employee") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.belongsTo("manager", inTable: "employee")
            }
            for (id, name, managerId) in [(1, "Ann", nil), (2, "Bob", 1), (3, "Cid", 1), (4, "Dee", 2)]
                as [(Int64, String, Int64?)]
            {
                try Employee(id: id, name: name, managerId: managerId).insert(db)
            }
        }
        return dbQueue
    }
}

// Requests with joined associations: counting, existence, batch updates
// and deletes, grouping, table aliases, merged associations, and errors.
@Suite struct JoinedRequestTests {
    @Test func fetchCount() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let request = Book.including(required: Book.author.filter(countryCode: "DE"))
            var count = 0
            let statements = try recordedSQLWithWarmCache(db) {
                count = try request.fetchCount(db)
            }
            #expect(count == 4)
            #expect(statements == [
                #"SELECT COUNT(*) FROM (SELECT "book".*, "author".* FROM "book" "#
                    + #"JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?))"#,
            ])
            // A left join can multiply rows too.
            #expect(try Author.joining(optional: Author.books).fetchCount(db) == 18)
        }
    }

    @Test func existence() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let american = Book.joining(required: Book.author.filter(countryCode: "US"))
            var isEmpty = false
            let statements = try recordedSQLWithWarmCache(db) {
                isEmpty = try american.isEmpty(db)
            }
            #expect(isEmpty)
            #expect(statements == [
                #"SELECT EXISTS (SELECT "book".* FROM "book" "#
                    + #"JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?))"#,
            ])
            #expect(try !Book.joining(required: Book.author.filter(countryCode: "JP")).isEmpty(db))

            // A joined request as a subquery.
            let italianAuthorIds = Book.joining(required: Book.author.filter(countryCode: "IT")).select(\.authorId)
            let request = Author.filter { italianAuthorIds.contains($0.id) }
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT * FROM "author" WHERE "id" IN (SELECT "book"."authorId" FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?))
                """)
            #expect(try request.fetchAll(db) == [Library.author(6)])
        }
    }

    @Test func deleteWithJoins() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.write { db throws in
            var deleted = 0
            let statements = try recordedSQL(db) {
                deleted = try Book.joining(required: Book.author.filter(countryCode: "FR")).deleteAll(db)
            }.filter { $0.hasPrefix("DELETE") }
            #expect(deleted == 2)
            #expect(statements == [
                #"DELETE FROM "book" WHERE "id" IN (SELECT "book"."id" FROM "book" "#
                    + #"JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?))"#,
            ])
            #expect(try Book.fetchCount(db) == 14)
            #expect(try Book.filter { $0.authorId == 7 }.fetchCount(db) == 0)

            // Prefetched associations are ignored.
            #expect(try Author.filter(key: 11).including(all: Author.books).deleteAll(db) == 1)
        }
    }

    @Test func deleteWithJoinsFromATableWithoutRowIDAlias() throws {
        let dbQueue = try Travel.makeDatabase()
        try dbQueue.write { db throws in
            try Travel.Stamp.deleteAll(db)
            var deleted = 0
            let statements = try recordedSQL(db) {
                deleted = try Travel.Passport.joining(
                    required: Travel.Passport.citizen.filter(Column("name") == "Arthur")
                )
                    .deleteAll(db)
            }.filter { $0.hasPrefix("DELETE") }
            #expect(deleted == 2)
            #expect(statements == [
                #"DELETE FROM "passport" WHERE "rowid" IN (SELECT "passport"."rowid" FROM "passport" "#
                    + #"JOIN "citizen" ON ("citizen"."id" = "passport"."citizenId") AND ("citizen"."name" = ?))"#,
            ])
            #expect(try Travel.Passport.fetchCount(db) == 3)
        }
    }

    @Test func updateWithJoins() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.write { db throws in
            var updated = 0
            let statements = try recordedSQL(db) {
                updated = try Book
                    .joining(required: Book.author.filter(countryCode: "CO"))
                    .filter(kind: .novel)
                    .updateAll(db) { $0.year += 1000 }
            }.filter { $0.hasPrefix("UPDATE") }
            #expect(updated == 3)
            #expect(statements == [
                #"UPDATE "book" SET "year" = "year" + ? WHERE "id" IN (SELECT "book"."id" FROM "book" "#
                    + #"JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?) "#
                    + #"WHERE "book"."kind" = ?)"#,
            ])
            #expect(try Book.order(\.id).limit(4).fetchAll(db).map(\.year) == [2967, 2985, 1970, 2867])
        }
    }

    @Test func grouping() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let request = Book
                .joining(required: Book.author.filter(countryCode: "DE"))
                .group(\.authorId)
                .having { count($0.id) > 1 }
                .order(\.authorId)
                .select({ [$0.authorId, count($0.id).forKey("bookCount")] }, as: Row.self)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "book"."authorId", COUNT("book"."id") AS "bookCount" FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") AND ("author"."countryCode" = ?) \
                GROUP BY "book"."authorId" HAVING COUNT("book"."id") > ? ORDER BY "book"."authorId"
                """)
            #expect(try request.fetchAll(db) == [["authorId": 3, "bookCount": 2], ["authorId": 4, "bookCount": 2]])
        }
    }

    @Test func selfJoins() throws {
        let dbQueue = try Employee.makeDatabase()
        try dbQueue.read { db throws in
            struct EmployeeInfo: Decodable, FetchableRecord {
                var employee: Employee
                var manager: Employee?
            }
            let request = Employee.including(optional: Employee.manager).order(Column("id"))
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "employee1".*, "employee2".* FROM "employee" "employee1" \
                LEFT JOIN "employee" "employee2" ON "employee2"."id" = "employee1"."managerId" \
                ORDER BY "employee1"."id"
                """)
            let infos = try request.asRequest(of: EmployeeInfo.self).fetchAll(db)
            #expect(
                infos.map { "\($0.employee.name): \($0.manager?.name ?? "-")" } == [
                    "Ann: -", "Bob: Ann", "Cid: Ann", "Dee: Bob"
                ])

            // Two levels.
            let chain = Employee.including(required: Employee.manager.including(required: Employee.manager))
            #expect(try sqlAndArguments(db, chain).sql == """
                SELECT "employee1".*, "employee2".*, "employee3".* FROM "employee" "employee1" \
                JOIN "employee" "employee2" ON "employee2"."id" = "employee1"."managerId" \
                JOIN "employee" "employee3" ON "employee3"."id" = "employee2"."managerId"
                """)
            let row = try #require(try Row.fetchOne(db, chain))
            #expect(row["name"] as String == "Dee")
            #expect(row.scopes["manager"]?["name"] as String? == "Bob")
            #expect(row.scopes["manager"]?.scopes["manager"]?["name"] as String? == "Ann")

            // To many.
            let subordinates = Employee.including(all: Employee.subordinates.order(Column("name"))).order(Column("id"))
            #expect(try Row.fetchAll(db, subordinates).map { ($0["subordinates"] as [Employee]).map(\.name) }
                == [["Bob", "Cid"], ["Dee"], [], []])
            let counts = Employee.annotated(with: Employee.subordinates.count).order(Column("id"))
            #expect(try sqlAndArguments(db, counts).sql == """
                SELECT "employee1".*, COUNT(DISTINCT "employee2"."id") AS "subordinateCount" \
                FROM "employee" "employee1" \
                LEFT JOIN "employee" "employee2" ON "employee2"."managerId" = "employee1"."id" \
                GROUP BY "employee1"."id" ORDER BY "employee1"."id"
                """)
            #expect(try Row.fetchAll(db, counts).map { $0["subordinateCount"] as Int } == [2, 1, 0, 0])
        }
    }

    @Test func tableAliases() throws {
        let dbQueue = try Employee.makeDatabase()
        try dbQueue.read { db throws in
            // A named alias.
            let manager = TableAlias<Employee>(name: "m")
            let annsTeam = Employee
                .joining(required: Employee.manager.aliased(manager))
                .filter(manager[Column("name")] == "Ann")
            #expect(try sqlAndArguments(db, annsTeam).sql == """
                SELECT "employee".* FROM "employee" JOIN "employee" "m" ON "m"."id" = "employee"."managerId" \
                WHERE "m"."name" = ?
                """)
            #expect(try annsTeam.fetchAll(db).map(\.name).sorted() == ["Bob", "Cid"])

            // An anonymous alias, for the ordering of the base request.
            let boss = TableAlias<Employee>()
            let request = Employee
                .including(required: Employee.manager.aliased(boss))
                .order(boss[Column("name")].desc, Column("name"))
            #expect(try sqlAndArguments(db, request).sql.hasSuffix("""
                ORDER BY "employee2"."name" DESC, "employee1"."name"
                """))
            #expect(try request.fetchAll(db).map(\.name) == ["Dee", "Bob", "Cid"])

            // An alias of the base table, used by the association.
            let employee = TableAlias<Employee>()
            let sameInitial = Employee.aliased(employee)
                .joining(required: Employee.manager.filter(Column("name") > employee[Column("name")]))
            #expect(try sqlAndArguments(db, sameInitial).sql == """
                SELECT "employee1".* FROM "employee" "employee1" \
                JOIN "employee" "employee2" ON ("employee2"."id" = "employee1"."managerId") \
                AND ("employee2"."name" > "employee1"."name")
                """)
            #expect(try sameInitial.fetchAll(db).isEmpty)
        }
    }

    @Test func mergedAssociations() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            let twice = Book.including(required: Book.author).including(required: Book.author)
            #expect(try sqlAndArguments(db, twice).sql == """
                SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId"
                """)

            // Required wins over optional; filters add up; the selection of
            // an included association wins over a joined one.
            let merged = Book
                .including(optional: Book.author.filter { $0.name != "Anonymous" })
                .joining(required: Book.author.filter(countryCode: "ES"))
            #expect(try sqlAndArguments(db, merged).sql == """
                SELECT "book".*, "author".* FROM "book" \
                JOIN "author" ON ("author"."id" = "book"."authorId") \
                AND ("author"."name" <> ?) AND ("author"."countryCode" = ?)
                """)
            #expect(try merged.fetchAll(db).map(\.id) == [14, 15])

            // Aliases merge.
            let alias = TableAlias<Author>(name: "a")
            let aliased = Book
                .joining(required: Book.author.aliased(alias))
                .including(optional: Book.author.select(\.name))
                .filter(alias[Column("countryCode")] == "JP")
            #expect(try sqlAndArguments(db, aliased).sql == """
                SELECT "book".*, "a"."name" FROM "book" JOIN "author" "a" ON "a"."id" = "book"."authorId" \
                WHERE "a"."countryCode" = ?
                """)
        }
    }

    @Test func explicitForeignKeyDisambiguates() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE translation (
                    id INTEGER PRIMARY KEY,
                    authorId INTEGER REFERENCES author(id),
                    translatorId INTEGER REFERENCES author(id));
                INSERT INTO translation VALUES (1, 1, 6);
                """)
            struct Translation: TableRecord {
                static let author = belongsTo(Library.Author.self, using: ForeignKey(["authorId"]))
                static let translator = belongsTo(
                    Library.Author.self, key: "translator", using: ForeignKey(["translatorId"]))
            }
            let request = Translation.including(required: Translation.author).including(
                required: Translation.translator)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "translation".*, "author1".*, "author2".* FROM "translation" \
                JOIN "author" "author1" ON "author1"."id" = "translation"."authorId" \
                JOIN "author" "author2" ON "author2"."id" = "translation"."translatorId"
                """)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row["author"] as Library.Author == Library.author(1))
            #expect(row["translator"] as Library.Author == Library.author(6))
        }
    }

    @Test func missingTableThrows() throws {
        let dbQueue = try Library.makeDatabase()
        try dbQueue.read { db throws in
            struct Ghost: TableRecord {
                static let author = belongsTo(Library.Author.self)
            }
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, Ghost.including(required: Ghost.author))
            }
            #expect(error?.message == "no such table: ghost")
        }
    }

    // MARK: - Programmer errors

    @Test func missingForeignKeyTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Reader: TableRecord {
                static let books = hasMany(Library.Book.self)
            }
            let dbQueue = try Library.makeDatabase()
            try dbQueue.write { db throws in
                try db.execute(sql: "CREATE TABLE reader (id INTEGER PRIMARY KEY); INSERT INTO reader DEFAULT VALUES")
                _ = try Row.fetchAll(db, Reader.including(all: Reader.books))
            }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("""
                Could not infer foreign key from 'book' to 'reader'. \
                To fix this error, provide an explicit `ForeignKey` in the association definition.
                """))
        }
    }

    @Test func ambiguousForeignKeyTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            struct Translation: TableRecord {
                static let author = belongsTo(Library.Author.self)
            }
            let dbQueue = try Library.makeDatabase()
            try dbQueue.write { db throws in
                try db.execute(sql: """
                    CREATE TABLE translation (
                        authorId INTEGER REFERENCES author(id),
                        translatorId INTEGER REFERENCES author(id))
                    """)
                _ = try Row.fetchAll(db, Translation.joining(required: Translation.author))
            }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("""
                Ambiguous foreign key from 'translation' to 'author'. \
                To fix this error, provide an explicit `ForeignKey` in the association definition.
                """))
        }
    }

    @Test func ambiguousKeyTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Library.Author
                .including(required: Library.Author.books.forKey("works"))
                .including(all: Library.Author.books.forKey("work"))
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains(#"The association key "work" is ambiguous"#))
        }
    }

    @Test func requiredBehindOptionalTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try Library.makeDatabase()
            try dbQueue.read { db throws in
                _ = try Library.Book
                    .including(optional: Library.Book.author.including(required: Library.Author.books))
                    .fetchAll(db)
            }
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Not implemented: chaining a required association behind an optional association"))
        }
    }

    @Test func distinctJoinedAssociationTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Library.Book.including(required: Library.Book.author.distinct())
        }.map { result in
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("Not implemented: join an association that selects DISTINCT rows"))
        }
    }
}
