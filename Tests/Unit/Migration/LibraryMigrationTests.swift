import Testing
import GRDBLite

// RecordRecommendedPractices: the library migration and records, as written.

private struct Author: Codable {
    var id: Int64?
    var name: String
    var countryCode: String?
}

private struct Book: Codable {
    var id: Int64?
    var authorId: Int64
    var title: String
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

@Suite struct LibraryMigrationTests {
    @Test func libraryMigration() throws {
        let dbQueue = try DatabaseQueue()

        var migrator = DatabaseMigrator()

        migrator.registerMigration("createLibrary") { db in
            try db.create(table: "author") { t in             // (1)
                t.autoIncrementedPrimaryKey("id")             // (2)
                t.column("name", .text).notNull()             // (3)
                t.column("countryCode", .text)                // (4)
            }

            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()            // (5)
                t.belongsTo("author", onDelete: .cascade)     // (6)
                    .notNull()                                // (7)
            }
        }

        try migrator.migrate(dbQueue)

        try dbQueue.write { db throws in
            // Insert and set author's id
            var author = Author(name: "Herman Melville", countryCode: "US")
            try author.insert(db)

            // Insert and set book's id
            var book = Book(authorId: author.id!, title: "Moby-Dick")
            try book.insert(db)
        }

        let books = try dbQueue.read { db throws in
            try Book.fetchAll(db)
        }
        #expect(books.map(\.title) == ["Moby-Dick"])
        #expect(books.map(\.authorId) == [1])

        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try db.indexes(on: "book").map(\.name) == ["book_on_authorId"])
        }

        // SQLite guarantees that all books have an author...
        try dbQueue.write { db throws in
            var orphan = Book(authorId: 42, title: "Ghost")
            let error = #expect(throws: DatabaseError.self) { try orphan.insert(db) }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
        // ... and deletes the books of a deleted author.
        try dbQueue.write { db throws in
            _ = try Author.deleteAll(db)
            #expect(try Book.fetchAll(db).isEmpty)
        }
    }
}
