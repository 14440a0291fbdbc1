import Foundation
import GRDBLite
import Testing
import TestSupport

// The examples of the documentation catalog (Sources/GRDBLite/GRDBLite.docc)
// that the README never had, as written there (temporary paths aside), then
// what they should have done. The articles' other examples, which come from
// the README, run in ReadmeExamples*Tests. `everyExampleIsHeldByATest`
// checks that each line of each Swift example of the README and of the
// articles is in one of these files.

/// The landing page's player.
private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int
}

/// Getting Started's book.
private struct Book: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var title: String
    var year: Int?
}

@Suite struct DocumentationExamplesTests {
    /// GRDBLite.md, the landing page.
    @Test func landingPage() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
            try Player(id: 2, name: "Barbara", score: 1000).insert(db)
        }
        let best = try dbQueue.read { db in
            try Player.order(Column("score").desc).fetchOne(db)
        }
        #expect(best?.name == "Barbara")
    }

    /// GettingStarted.md.
    @Test func gettingStarted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try DatabaseQueue(path: directory.path("library.sqlite"))

        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS book (
                    id INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    year INTEGER)
                """)
            try db.execute(sql: "INSERT INTO book (title, year) VALUES (?, ?)", arguments: ["Dune", 1965])
            try db.execute(sql: "INSERT INTO book (title, year) VALUES (:title, :year)",
                           arguments: ["title": "Neuromancer", "year": 1984])
        }

        let bookCount = try dbQueue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book")!
        }
        #expect(bookCount == 2)

        var printed: [String] = []
        try dbQueue.read { db in
            let titles = try String.fetchAll(db, sql: "SELECT title FROM book ORDER BY year")
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM book")
            while let row = try rows.next() {
                let title: String = row["title"]
                let year: Int? = row["year"]
                print(title, year ?? 0, titles.count)
                printed.append("\(title) \(year ?? 0) \(titles.count)")
            }
        }
        #expect(printed == ["Dune 1965 2", "Neuromancer 1984 2"])

        let year = 1970
        let newer = try dbQueue.read { db in
            try String.fetchAll(db, SQLRequest<String>("SELECT title FROM book WHERE year > \(year)"))
        }
        #expect(newer == ["Neuromancer"])

        try dbQueue.write { db in
            try Book(id: 3, title: "Solaris", year: 1961).insert(db)
            let classics = try Book.filter(Column("year") < 1970).order(Column("year")).fetchAll(db)
            print(classics.map(\.title))
            #expect(classics.map(\.title) == ["Solaris", "Dune"])
        }
    }

    /// Migrations.md.
    @Test func migrations() throws {
        let dbQueue = try DatabaseQueue()

        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
            }
            try db.create(table: "member") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.belongsTo("team", onDelete: .cascade)
            }
        }
        migrator.registerMigration("v2") { db in
            try db.alter(table: "member") { t in
                t.add(column: "email", .text)
            }
            try db.create(index: "member_on_email", on: "member", columns: ["email"], options: .unique)
        }
        #if DEBUG
        migrator.eraseDatabaseOnSchemaChange = true
        #endif
        try migrator.migrate(dbQueue)

        let applied = try dbQueue.read { db in try migrator.appliedMigrations(db) }
        let completed = try dbQueue.read { db in try migrator.hasCompletedMigrations(db) }
        #expect(applied == ["v1", "v2"])
        #expect(completed)

        try dbQueue.read { db in
            let hasMembers = try db.tableExists("member")            // true
            let columns = try db.columns(in: "member").map(\.name)   // ["id", "name", "teamId", "email"]
            let primaryKey = try db.primaryKey("member").columns     // ["id"]
            let foreignKeys = try db.foreignKeys(on: "member")       // member.teamId -> team.id
            let indexes = try db.indexes(on: "member")               // member_on_email, and teamId's
            print(hasMembers, columns, primaryKey, foreignKeys.count, indexes.count)
            #expect(hasMembers)
            #expect(columns == ["id", "name", "teamId", "email"])
            #expect(primaryKey == ["id"])
            #expect(foreignKeys.map(\.destinationTable) == ["team"])
            #expect(Set(indexes.map(\.name)).contains("member_on_email"))
            #expect(indexes.count == 2)
        }
    }

    /// Records.md, "Timestamps and the transaction date".
    @Test func transactionClock() throws {
        var config = Configuration()
        config.transactionClock = .custom { _ in Date(timeIntervalSince1970: 1_000_000) }
        let dbQueue = try DatabaseQueue(configuration: config)
        let dates = try dbQueue.write { db in try [db.transactionDate, db.transactionDate] }
        #expect(dates == [Date(timeIntervalSince1970: 1_000_000), Date(timeIntervalSince1970: 1_000_000)])
    }

    /// BeyondOneMachine.md, "Setup": the configuration for Litestream
    /// (Tests/Reliability/LitestreamTests runs it under Litestream).
    @Test func litestreamConfiguration() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let databasePath = directory.path("app.sqlite")
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(5)
        let dbPool = try DatabasePool(path: databasePath, configuration: config)
        #expect(try dbPool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    /// Each line of each Swift example of the README and of the articles
    /// is in one of the examples tests, so that no example drifts from the
    /// API unnoticed. Comments at the end of a line, `private` and
    /// `fileprivate`, and lines of brackets alone don't count; a line that
    /// opens a file of /tmp/ is left out (the tests use temporary
    /// directories), and so is a block under a `<!-- Not run` comment.
    @Test func everyExampleIsHeldByATest() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = FileManager.default
        let unit = root.appendingPathComponent("Tests/Unit")
        let testFiles = try files.contentsOfDirectory(atPath: unit.path)
            .filter { $0.hasPrefix("ReadmeExamples") || $0 == "DocumentationExamplesTests.swift" }
        #expect(testFiles.count >= 5)
        // The record macros' examples run in Tests/Macros, whose target
        // depends on GRDBLiteMacros.
        let macros = root.appendingPathComponent("Tests/Macros")
        let macroFiles = try files.contentsOfDirectory(atPath: macros.path)
            .filter { $0.hasPrefix("ReadmeExamples") }.map { macros.appendingPathComponent($0) }
        var held = ""
        for file in testFiles.map({ unit.appendingPathComponent($0) }) + macroFiles {
            for line in try String(contentsOf: file, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            {
                var code = Self.code(of: Substring(line))
                for prefix in ["private ", "fileprivate "] where code.hasPrefix(prefix) {
                    code.removeFirst(prefix.count)
                }
                held += code + "\n"
            }
        }

        let catalog = root.appendingPathComponent("Sources/GRDBLite/GRDBLite.docc")
        let articles = try files.contentsOfDirectory(atPath: catalog.path)
            .filter { $0.hasSuffix(".md") }.sorted()
            .map { catalog.appendingPathComponent($0) }
        #expect(articles.count >= 10)
        var missing: [String] = []
        var exampleCount = 0
        for document in [root.appendingPathComponent("README.md")] + articles {
            let lines = try String(contentsOf: document, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            var inExample = false
            var inSkippedBlock = false
            var previous = ""
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("```") {
                    if inExample || inSkippedBlock {
                        inExample = false
                        inSkippedBlock = false
                    } else if trimmed == "```swift" {
                        if previous.hasPrefix("<!-- Not run") { inSkippedBlock = true } else {
                            inExample = true
                            exampleCount += 1
                        }
                    } else {
                        inSkippedBlock = true
                    }
                    continue
                }
                if !trimmed.isEmpty { previous = trimmed }
                guard inExample else { continue }
                let code = Self.code(of: line)
                if code.isEmpty || code.allSatisfy({ "{}()[]".contains($0) }) || code.contains("\"/tmp/") {
                    continue
                }
                if !held.contains(code) {
                    missing.append("\(document.lastPathComponent):\(index + 1): \(code)")
                }
            }
        }
        #expect(exampleCount >= 20)
        #expect(missing.isEmpty, "Example lines that no test holds:\n\(missing.joined(separator: "\n"))")
    }

    /// A line without its indentation and its trailing `//` comment.
    private static func code(of line: Substring) -> String {
        var code = line.trimmingCharacters(in: .whitespaces)
        var searchStart = code.startIndex
        while let range = code.range(of: "//", range: searchStart..<code.endIndex) {
            let before = code[..<range.lowerBound]
            if before.last.map({ $0 == " " }) ?? true, before.filter({ $0 == "\"" }).count % 2 == 0 {
                code = String(before).trimmingCharacters(in: .whitespaces)
                break
            }
            searchStart = range.upperBound
        }
        return code
    }
}
