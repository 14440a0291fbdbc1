import GRDBLite
import Testing

// The "Record Requests" section of GRDB's "Recommended Practices for
// Designing Record Types", as written there.

private struct Author: Codable, Equatable {
    var id: Int64?
    var name: String
    var countryCode: String?
}

private struct Book: Codable, Equatable {
    enum Kind: String, Codable {
        case essay, novel, poetry, theater
    }
    var id: Int64?
    var authorId: Int64
    var title: String
    var kind: Kind
}

extension Author: FetchableRecord, MutablePersistableRecord {
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Book: FetchableRecord, MutablePersistableRecord {
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Book.Kind: DatabaseValueConvertible { }

// HOW TO define columns for a Codable record
extension Author {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let countryCode = Column(CodingKeys.countryCode)
    }
}

extension Book {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let authorId = Column(CodingKeys.authorId)
        static let title = Column(CodingKeys.title)
        static let kind = Column(CodingKeys.kind)
    }
}

// Author requests
extension DerivableRequest<Author> {
    /// Order authors by name, in a localized case-insensitive fashion
    func orderByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters authors from a country
    func filter(countryCode: String) -> Self {
        filter { $0.countryCode == countryCode }
    }
}

// Book requests
extension DerivableRequest<Book> {
    /// Order books by title, in a localized case-insensitive fashion
    func orderByTitle() -> Self {
        order { $0.title.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters books by kind
    fileprivate func filter(kind: Book.Kind) -> Self {
        filter { $0.kind == kind }
    }
}

extension QueryInterfaceRequest<Author> {
    // Selects authors' name
    func selectName() -> QueryInterfaceRequest<String> {
        select(\.name)
    }
}

/// A non-Codable record, with columns declared by name.
private struct Country: FetchableRecord, TableRecord {
    var code: String
    var name: String

    init(row: Row) {
        code = row[Columns.code]
        name = row[Columns.name]
    }

    // HOW TO define columns for a non-Codable record
    enum Columns {
        static let code = Column("code")
        static let name = Column("name")
    }
}

@Suite struct RecordRequestsTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE author (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    countryCode TEXT);
                CREATE TABLE book (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    title TEXT NOT NULL,
                    authorId INTEGER NOT NULL REFERENCES author(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL);
                CREATE INDEX book_on_authorId ON book(authorId);
                CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
                INSERT INTO country VALUES ('ES', 'Spain'), ('FR', 'France'), ('JP', 'Japan');
                """)
            let authors: [(String, String?, [(String, Book.Kind)])] = [
                ("Miguel de Cervantes", "ES", [("Don Quixote", .novel)]),
                ("émile Zola", "FR", [("Germinal", .novel), ("J'accuse…!", .essay)]),
                (
                    "Victor Hugo", "FR",
                    [("les Misérables", .novel), ("Hernani", .theater), ("Les Contemplations", .poetry)]
                ),
                ("Haruki Murakami", "JP", [("Kafka on the Shore", .novel)]),
                ("Yukio Mishima", "JP", [("The Sound of Waves", .novel)]),
                ("Federico García Lorca", "ES", [("Bodas de sangre", .theater)]),
                ("anonymous", nil, []),
            ]
            for (name, countryCode, books) in authors {
                var author = Author(name: name, countryCode: countryCode)
                try author.insert(db)
                for (title, kind) in books {
                    var book = Book(authorId: author.id!, title: title, kind: kind)
                    try book.insert(db)
                }
            }
        }
    }

    @Test func columnsAndRequests() throws {
        try dbQueue.read { db throws in
            // Fetch all authors, ordered by name,
            // in a localized case-insensitive fashion
            let request = Author.all().order { $0.name.collating(.localizedCaseInsensitiveCompare) }
            #expect(try sqlAndArguments(db, request).sql
                == #"SELECT * FROM "author" ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#)
            let sortedAuthors: [Author] = try request.fetchAll(db)
            #expect(sortedAuthors.map(\.name) == [
                "anonymous", "émile Zola", "Federico García Lorca", "Haruki Murakami",
                "Miguel de Cervantes", "Victor Hugo", "Yukio Mishima",
            ])

            // Count French authors
            var frenchAuthorCount = 0
            let sql = try recordedSQL(db) {
                frenchAuthorCount = try Author.all().filter { $0.countryCode == "FR" }.fetchCount(db)
            }
            #expect(sql == [#"SELECT COUNT(*) FROM "author" WHERE "countryCode" = ?"#])
            #expect(frenchAuthorCount == 2)
        }
    }

    @Test func commonlyUsedRequestsAsMethods() throws {
        try dbQueue.read { db throws in
            let spanish = Author.all().filter(countryCode: "ES").orderByName()
            let (sql, arguments) = try sqlAndArguments(db, spanish)
            #expect(sql == #"""
                SELECT * FROM "author" WHERE "countryCode" = ? \#
                ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare
                """#)
            #expect(arguments == ["ES"])
            let sortedSpanishAuthors: [Author] = try spanish.fetchAll(db)
            #expect(sortedSpanishAuthors.map(\.name) == ["Federico García Lorca", "Miguel de Cervantes"])

            var novelCount = 0
            let countSQL = try recordedSQL(db) {
                novelCount = try Book.all().filter(kind: .novel).fetchCount(db)
            }
            #expect(countSQL == [#"SELECT COUNT(*) FROM "book" WHERE "kind" = ?"#])
            #expect(novelCount == 5)

            let titles = try Book.all().filter(kind: .novel).orderByTitle().fetchAll(db).map(\.title)
            #expect(titles == ["Don Quixote", "Germinal", "Kafka on the Shore", "les Misérables", "The Sound of Waves"])

            // The methods also extend the static shortcuts' requests.
            #expect(try Book.filter { $0.title.like("%the%") }.filter(kind: .novel).fetchCount(db) == 2)
        }
    }

    @Test func enumsAsValues() throws {
        try dbQueue.read { db throws in
            // Fetch all novels
            let novels = try Book.filter { $0.kind == Book.Kind.novel }.fetchAll(db)
            #expect(novels.count == 5)
            #expect(novels.allSatisfy { $0.kind == .novel })

            let kinds = try Book.order(\.kind).select(\.kind, as: Book.Kind.self).distinct().fetchAll(db)
            #expect(kinds == [.essay, .novel, .poetry, .theater])
            #expect(try Book.filter { [Book.Kind.poetry, .theater].contains($0.kind) }.fetchCount(db) == 3)
        }
    }

    @Test func requestsOfAnotherType() throws {
        try dbQueue.read { db throws in
            let request = Author.all().filter(countryCode: "JP").selectName()
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT "name" FROM "author" WHERE "countryCode" = ?"#)
            #expect(arguments == ["JP"])

            // The names of Japanese authors
            let names: Set<String> = try request.fetchSet(db)
            #expect(names == ["Haruki Murakami", "Yukio Mishima"])
        }
    }

    @Test func nonCodableRecordColumns() throws {
        try dbQueue.read { db throws in
            let countries = try Country.filter { $0.code != "FR" }.order { $0.name.desc }.fetchAll(db)
            #expect(countries.map(\.name) == ["Spain", "Japan"])
            #expect(try Country.filter(key: "JP").fetchOne(db)?.name == "Japan")
        }
    }

    @Test func batchUpdatesAndDeletesOfRecords() throws {
        try dbQueue.write { db throws in
            let count = try Book.all().filter(kind: .poetry).updateAll(db) { $0.kind.set(to: Book.Kind.essay) }
            #expect(count == 1)
            #expect(try Book.all().filter(kind: .essay).fetchCount(db) == 2)

            // Deleting French authors deletes their books (ON DELETE CASCADE).
            #expect(try Author.all().filter(countryCode: "FR").deleteAll(db) == 2)
            #expect(try Book.fetchCount(db) == 4)
        }
    }
}
