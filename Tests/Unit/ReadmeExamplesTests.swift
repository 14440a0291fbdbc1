import Dispatch
import Foundation
import Testing
import GRDBLite
import TestSupport

// The README's quick example and the examples that the articles of the
// documentation catalog (Sources/GRDBLite/GRDBLite.docc) took from it, as
// written there (temporary paths aside), so that they cannot drift from the
// API (`DocumentationExamplesTests.everyExampleIsHeldByATest` checks that
// they are here). Each runs on a `DatabaseQueue` and on a `DatabasePool`
// (the articles say one can replace the other): there,
// `dbQueue` is either.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
    var id: Int64?
    var name: String
    var score: Int
    var creationDate: Date?

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }

    mutating func willInsert(_ db: Database) throws {
        if creationDate == nil { creationDate = try db.transactionDate }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct Author: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var countryCode: String?
    enum Columns {
        static let countryCode = Column(CodingKeys.countryCode)
    }
}

private struct Book: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var authorId: Int64
    var title: String
}

extension Book {
    static let author = belongsTo(Author.self)
}

extension Author {
    static let books = hasMany(Book.self)
}

extension DerivableRequest<Author> {
    fileprivate func filter(countryCode: String) -> Self {
        filter { $0.countryCode == countryCode }
    }
}

private struct Authorship: Decodable, FetchableRecord {
    var book: Book
    var author: Author
}

private struct LiteraryCareer: Decodable, FetchableRecord {
    var author: Author
    var books: [Book]
}

private struct AuthorInfo: Decodable, FetchableRecord {
    var author: Author
    var bookCount: Int
}

private final class PlayerObserver: TransactionObserver {
    var changes: [(DatabaseEvent.Kind, Int64)] = []
    var committed: [[(DatabaseEvent.Kind, Int64)]] = []

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        eventKind.tableName == "player"
    }
    func databaseDidChange(with event: DatabaseEvent) {
        changes.append((event.kind, event.rowID))
    }
    func databaseWillCommit() throws { }
    func databaseDidCommit(_ db: Database) { committed.append(changes); changes = [] }
    func databaseDidRollback(_ db: Database) { changes = [] }
}

private final class Place: Record {
    var id: Int64?
    var title: String

    init(title: String) {
        self.title = title
        super.init()
    }

    override class var databaseTableName: String { "place" }

    required init(row: Row) throws {
        id = row["id"]
        title = row["title"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["title"] = title
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}

@Suite struct ReadmeExamplesTests {
    /// A queue or a pool, on a file of `directory`.
    private static func database(
        _ kind: WriterKind,
        _ directory: TemporaryDirectory,
        configuration: Configuration = Configuration()) throws -> any DatabaseWriter
    {
        try kind.make(directory, configuration: configuration)
    }

    @Test(arguments: WriterKind.allCases)
    func quickExample(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        let dbQueue: any DatabaseWriter = kind == .queue ? try DatabaseQueue(path: path) : try DatabasePool(path: path)

        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    score INTEGER NOT NULL)
                """)
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (:name, :score)",
                           arguments: ["name": "Barbara", "score": 1200])
        }

        let best = try dbQueue.read { db -> String? in
            try String.fetchOne(db, sql: "SELECT name FROM player ORDER BY score DESC")
        }
        #expect(best == "Barbara")

        var seen: [String: Int] = [:]
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
            while let row = try rows.next() {
                let name: String = row["name"]
                let score: Int = row["score"]
                print(name, score)
                seen[name] = score
            }
        }
        #expect(seen == ["Arthur": 1000, "Barbara": 1200])
    }

    @Test(arguments: WriterKind.allCases)
    func recordsAndMigrations(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var config = Configuration()
        config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 1_000_000) }
        let dbQueue = try Self.database(kind, directory, configuration: config)

        var migrator = DatabaseMigrator()
        migrator.registerMigration("createPlayer") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("creationDate", .datetime).notNull()
            }
        }
        try migrator.migrate(dbQueue)

        try dbQueue.write { db in
            var player = Player(name: "Arthur", score: 1000)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(player.creationDate == Date(timeIntervalSince1970: 1_000_000))
            let didUpdate = try player.updateChanges(db) { $0.score += 10 }
            #expect(didUpdate)
            let arthur = try Player.find(db, key: player.id!)
            #expect(arthur.score == 1010)
            #expect(arthur.creationDate == Date(timeIntervalSince1970: 1_000_000))
            let best = try Player
                .filter { $0.score > 500 }
                .order { $0.score.desc }
                .limit(10)
                .fetchAll(db)
            #expect(best.map(\.name) == ["Arthur"])
            #expect(try arthur.delete(db))
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func associations(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try Self.database(kind, directory)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createLibrary") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("countryCode", .text)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.belongsTo("author", onDelete: .cascade).notNull()
            }
        }
        try migrator.migrate(dbQueue)

        try dbQueue.write { db in
            try Author(id: 1, name: "Gabriel García Márquez", countryCode: "CO").insert(db)
            try Author(id: 2, name: "Thomas Mann", countryCode: "DE").insert(db)
            try Author(id: 3, name: "Hermann Hesse", countryCode: "DE").insert(db)
            try Book(id: 1, authorId: 1, title: "Cien años de soledad").insert(db)
            try Book(id: 2, authorId: 2, title: "Der Zauberberg").insert(db)
            try Book(id: 3, authorId: 2, title: "Buddenbrooks").insert(db)
        }

        try dbQueue.read { db in
            let authorships = try Book
                .including(required: Book.author.filter(countryCode: "CO"))
                .asRequest(of: Authorship.self)
                .fetchAll(db)
            #expect(authorships.map(\.book.title) == ["Cien años de soledad"])
            #expect(authorships.map(\.author.id) == [1])

            let careers = try Author.all()
                .filter(countryCode: "DE")
                .including(all: Author.books)
                .asRequest(of: LiteraryCareer.self)
                .fetchAll(db)
            #expect(careers.map(\.author.id) == [2, 3])
            #expect(careers.map { $0.books.map(\.id) } == [[2, 3], []])

            let infos = try Author
                .annotated(with: Author.books.count)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.author.id) == [1, 2, 3])
            #expect(infos.map(\.bookCount) == [1, 2, 0])

            let author = try Author.find(db, key: 1)
            let books = try author.request(for: Author.books).fetchAll(db)
            #expect(books.map(\.title) == ["Cien años de soledad"])
        }

        // onDelete: .cascade from the article's belongsTo.
        try dbQueue.write { db in
            _ = try Author.deleteOne(db, key: 2)
            #expect(try Book.fetchCount(db) == 1)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func transactionObserver(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try Self.database(kind, directory)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE TABLE other (id INTEGER PRIMARY KEY)")
        }
        let observer = PlayerObserver()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
            try db.execute(sql: "INSERT INTO other (id) VALUES (1)")
            try db.execute(sql: "UPDATE player SET name = 'Barbara' WHERE id = 1")
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(observer.committed.count == 1)
        #expect(observer.committed[0].map(\.0) == [.insert, .update, .delete])
        #expect(observer.committed[0].map(\.1) == [1, 1, 1])
    }

    @Test(arguments: WriterKind.allCases)
    func notifyChangesKinds(kind: WriterKind) throws {
        final class Counter: TransactionObserver {
            var unknownChanges = 0
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange() { unknownChanges += 1 }
            func databaseDidChange(with event: DatabaseEvent) { }
            func databaseDidCommit(_ db: Database) { }
            func databaseDidRollback(_ db: Database) { }
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try Self.database(kind, directory)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        let counter = Counter()
        dbQueue.add(transactionObserver: counter)
        try dbQueue.write { db in
            try db.notifyChanges(in: .fullDatabase)
            try db.notifyChanges(in: Table("sqlite_master"))
            try db.notifyChanges(in: Table("player"))
            try db.notifyChanges(in: Table("missing"))
        }
        #expect(counter.unknownChanges == 3)
    }

    /// The "Database pool" section.
    @Test func databasePool() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path("players.sqlite"))
        try blocking {
            try dbPool.write { db in
                try db.execute(
                    sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
            }

            try dbPool.write { db in
                try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Arthur", 1000])
            }
            let count = try dbPool.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            #expect(count == 1)
        }
        let names = try await dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
        #expect(names == ["Arthur"])

        let concurrentCount = try await onThread {
            let done = DispatchSemaphore(value: 0)
            let seen = LockedValue<Int?>(nil)
            try dbPool.writeWithoutTransaction { db in
                try db.execute(sql: "DELETE FROM player")
                dbPool.asyncConcurrentRead { dbResult in
                    let count = try? Int.fetchOne(dbResult.get(), sql: "SELECT COUNT(*) FROM player") // 0
                    seen.update { $0 = count }
                    done.signal()
                }
                try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Barbara', 1200)")
            }
            try done.waitOrThrow()
            return seen.value
        }
        #expect(concurrentCount == 0)

        try blocking {
            try dbPool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            let walSize = try FileManager.default.attributesOfItem(atPath: dbPool.path + "-wal")[.size] as? Int
            #expect(walSize == 0)

            let snapshot = try dbPool.makeSnapshot()
            try dbPool.write { try $0.execute(sql: "DELETE FROM player") }
            #expect(try snapshot.read { try String.fetchAll($0, sql: "SELECT name FROM player") } == ["Barbara"])
        }
    }
}

// MARK: - Value observation

extension ReadmeExamplesTests {
    @Test func valueObservation() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, creationDate DATETIME);
                INSERT INTO player (name, score) VALUES ('Arthur', 1000);
                """)
        }
        let observation = ValueObservation.tracking { db in
            try Player.order(Player.Columns.score.desc).fetchAll(db)
        }

        // In a task: the current value, then a fresh value after each change.
        var names: [[String]] = []
        for try await players in observation.values(in: dbQueue) {
            print("Fresh players:", players.map(\.name))
            names.append(players.map(\.name))
            if players.count == 2 { break }
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Barbara', 1200)")
            }
        }
        #expect(names == [["Arthur"], ["Barbara", "Arthur"]])

        // With callbacks: until the cancellable is cancelled or deinitialized.
        let cancellable = observation.start(
            in: dbQueue,
            scheduling: .async(onQueue: DispatchQueue(label: "players")),
            onError: { error in print("Observation failed:", error) },
            onChange: { players in print("Fresh players:", players.map(\.name)) })
        cancellable.cancel()

        // The same, checked.
        let received = LockedValue<[[String]]>([])
        let done = DispatchSemaphore(value: 0)
        let checked = observation.start(
            in: dbQueue,
            scheduling: .async(onQueue: DispatchQueue(label: "players")),
            onError: { error in print("Observation failed:", error) },
            onChange: { players in
                received.update { $0.append(players.map(\.name)) }
                done.signal()
            })
        try await onThread { try done.waitOrThrow("the initial value") }
        checked.cancel()
        #expect(received.value == [["Barbara", "Arthur"]])

        // Right after each commit that changes the player table, on the writer.
        let regionCancellable = DatabaseRegionObservation(tracking: Player.all())
            .start(in: dbQueue, onError: { error in print(error) }, onChange: { db in print("Players changed") })
        let changes = LockedValue(0)
        let checkedRegion = DatabaseRegionObservation(tracking: Player.all())
            .start(in: dbQueue, onError: { error in print(error) }, onChange: { _ in changes.update { $0 += 1 } })
        try await dbQueue.write { db in try db.execute(sql: "DELETE FROM player") }
        #expect(changes.value == 1)
        regionCancellable.cancel()
        checkedRegion.cancel()
    }

    /// The shared observation of the "Value observation" section.
    @Test func sharedValueObservation() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, creationDate DATETIME);
                INSERT INTO player (name, score) VALUES ('Arthur', 1000);
                """)
        }
        let sharedPlayers = ValueObservation
            .tracking { db in try Player.fetchAll(db) }
            .shared(in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "shared")))
        let task = Task {
            for try await players in sharedPlayers.values() { print(players.count) }
        }
        // The loop runs until its task is cancelled.
        task.cancel()
        _ = await task.result

        var counts: [Int] = []
        for try await players in sharedPlayers.values() {
            counts.append(players.count)
            break
        }
        #expect(counts == [1])
    }

    @Test(arguments: WriterKind.allCases)
    func recordClass(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try Self.database(kind, directory)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
            let place = Place(title: "Paris")
            try place.insert(db)
            #expect(place.id == 1)
            #expect(!place.hasDatabaseChanges)
            place.title = "Paris, France"
            print(place.hasDatabaseChanges)   // true
            #expect(place.hasDatabaseChanges)
            #expect(try place.databaseChanges.keys.sorted() == ["title"])
            var updated = false
            let sql = try recordedSQL(db) { updated = try place.updateChanges(db) }
            #expect(updated)
            #expect(sql == [#"UPDATE "place" SET "title"=? WHERE "id"=?"#])
            #expect(try String.fetchAll(db, sql: "SELECT title FROM place") == ["Paris, France"])
        }
    }

    @Test(arguments: WriterKind.allCases)
    func commonTableExpressions(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try Self.database(kind, directory)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, creationDate DATETIME);
                INSERT INTO player (name, score) VALUES ('A', 10), ('B', 40), ('C', 30), ('D', 20), ('E', 50);
                """)
            let counter = CommonTableExpression<Int>(
                recursive: true, named: "counter", columns: ["n"],
                literal: "SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 5")
            let numbers = try counter.all().with(counter).fetchAll(db)  // [1, 2, 3, 4, 5]
            #expect(numbers == [1, 2, 3, 4, 5])

            let bestIds = CommonTableExpression(
                named: "bestId",
                request: Player.select(Column("id")).order { $0.score.desc }.limit(3))
            let bestPlayers = try Player.with(bestIds).filter(bestIds.contains(Column("id"))).fetchAll(db)
            #expect(Set(bestPlayers.map(\.name)) == ["B", "C", "E"])
        }
    }
}
