import GRDBLite
import Testing

private struct Word: Decodable, FetchableRecord, MutablePersistableRecord, Equatable {
    var word: String
    var kind: String
    var isTainted: Bool
    var count: Int?
    /// Not a column.
    var rowID: Int64?

    enum CodingKeys: String, CodingKey { case word, kind, isTainted, count }

    func encode(to container: inout PersistenceContainer) {
        container["word"] = word
        container["kind"] = kind
        container["isTainted"] = isTainted
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        rowID = inserted.rowID
    }
}

private struct Phone: Codable, FetchableRecord, PersistableRecord, Equatable {
    var name: String
    var number: String
}

@Suite struct MutablePersistableRecordUpsertAndFetchTests {
    let recorder = SQLRecorder()
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try makeDatabase("""
            CREATE TABLE word (word TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, isTainted BOOLEAN NOT NULL, count INT DEFAULT 1);
            CREATE TABLE phone (name TEXT PRIMARY KEY, number TEXT NOT NULL);
            INSERT INTO word VALUES ('jovial', 'adjective', 1, 1);
            INSERT INTO phone VALUES ('Alice', 'unknown');
            """, recorder: recorder)
    }

    @Test func assignmentsAndNoOverwrite() throws {
        try dbQueue.write { db throws in
            var word = Word(word: "jovial", kind: "noun", isTainted: false)
            let upserted = try word.upsertAndFetch(db, onConflict: ["word"]) { _ in
                [Column("count") += 1, Column("isTainted").noOverwrite]
            }
            #expect(recorder.sql.last == """
                INSERT INTO "word" ("word", "kind", "isTainted") VALUES (?,?,?) ON CONFLICT("word") \
                DO UPDATE SET "count" = "count" + ?, "kind" = "excluded"."kind" RETURNING *, "rowid"
                """)
            #expect(upserted.kind == "noun")
            #expect(upserted.isTainted)
            #expect(upserted.count == 2)
            #expect(word.rowID == 1)

            // Nothing to update: the row is returned unchanged.
            var ignored = Word(word: "jovial", kind: "verb", isTainted: false)
            let unchanged = try ignored.upsertAndFetch(db, onConflict: ["word"]) { _ in
                [Column("kind").noOverwrite, Column("isTainted").noOverwrite, Column("count").noOverwrite]
            }
            #expect(unchanged.kind == "noun")
            #expect(unchanged.count == 2)
            #expect(ignored.rowID == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM word") == 1)

            // A new row is inserted.
            var new = Word(word: "fresh", kind: "adjective", isTainted: false)
            let inserted = try new.upsertAndFetch(db, onConflict: ["word"]) { _ in [Column("count") += 1] }
            #expect(inserted.count == 1)
            #expect(new.rowID == 2)
        }
    }

    @Test func excludedValuesAndUpdateStrategy() throws {
        try dbQueue.write { db throws in
            let phone = Phone(name: "Alice", number: "704-555-1212")
            let upserted = try phone.upsertAndFetch(db, onConflict: ["name"], updating: .noColumnUnlessSpecified) {
                excluded in
                [Column("number").set(to: excluded["number"])]
            }
            #expect(upserted == Phone(name: "Alice", number: "704-555-1212"))
            #expect(recorder.sql.last == """
                INSERT INTO "phone" ("name", "number") VALUES (?,?) ON CONFLICT("name") \
                DO UPDATE SET "number" = "excluded"."number" RETURNING *, "rowid"
                """)

            // No assignment, and no column overwritten: the row is kept.
            let kept = try Phone(name: "Alice", number: "ignored").upsertAndFetch(
                db, updating: .noColumnUnlessSpecified)
            #expect(kept == upserted)
            #expect(try Phone.fetchAll(db) == [upserted])
            // By default, other columns are overwritten.
            let overwritten = try Phone(name: "Alice", number: "new").upsertAndFetch(db, as: Phone.self)
            #expect(overwritten.number == "new")
        }
    }
}
