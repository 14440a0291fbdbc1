import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing

/// Table and column names with quotes, spaces and non-ASCII characters
/// round-trip through statements and records, and values only ever reach
/// SQLite as bound arguments: never in the SQL text.
@Suite struct IdentifierTests {
    static let table = #"my "odd" table ✨"#
    static let idColumn = #"the "id""#
    static let nameColumn = "näme with space"
    static let emailColumn = "e-mail;--"

    struct Item: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        static let databaseTableName = IdentifierTests.table
        var id: Int64?
        var name: String
        var email: String

        enum CodingKeys: String, CodingKey {
            case id = #"the "id""#
            case name = "näme with space"
            case email = "e-mail;--"
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    /// Values that would break SQL if they were pasted into it.
    static let nastyValues = [
        "Robert'); DROP TABLE students;--",
        #"" OR 1=1 --"#,
        "ünïcødé ✨ \u{202E}",
        "nul\0char",
        "?",
        ":name",
        "",
    ]

    private func makeDatabase(recordingInto recorder: SQLRecorder) throws -> DatabaseQueue {
        var config = Configuration()
        config.trace = { recorder.record($0) }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(literal: """
                CREATE TABLE \(identifier: Self.table) (
                    \(identifier: Self.idColumn) INTEGER PRIMARY KEY,
                    \(identifier: Self.nameColumn) TEXT NOT NULL,
                    \(identifier: Self.emailColumn) TEXT NOT NULL UNIQUE)
                """)
        }
        return dbQueue
    }

    @Test func identifiersRoundTripAndValuesAreBound() throws {
        let recorder = SQLRecorder()
        let dbQueue = try makeDatabase(recordingInto: recorder)
        try dbQueue.write { db in
            // Introspection
            #expect(try db.tableExists(Self.table))
            #expect(try db.primaryKey(Self.table).columns == [Self.idColumn])

            // Records
            var items: [Item] = []
            for (index, value) in Self.nastyValues.enumerated() {
                var item = Item(id: nil, name: value, email: "\(index) \(value)")
                try item.insert(db)
                items.append(item)
            }
            #expect(try Item.fetchAll(db) == items)
            #expect(try Item.fetchCount(db) == Self.nastyValues.count)
            var first = try #require(try Item.fetchOne(db, key: items[0].id))
            #expect(first == items[0])
            #expect(try Item.fetchOne(db, key: [Self.emailColumn: items[1].email]) == items[1])
            #expect(try Item.exists(db, key: items[2].id!))
            try first.updateChanges(db) { $0.name = Self.nastyValues[1] }
            #expect(try Item.find(db, key: first.id!).name == Self.nastyValues[1])
            var upserted = Item(id: items[3].id, name: "upserted '", email: items[3].email)
            try upserted.upsert(db)
            #expect(try Item.find(db, key: items[3].id!) == upserted)
            #expect(try items[4].delete(db))
            #expect(try Item.deleteOne(db, key: [Self.emailColumn: items[5].email]))
            #expect(try Item.fetchCount(db) == Self.nastyValues.count - 2)

            // Rows, by name
            let row = try #require(
                try Row.fetchOne(
                    db.makeStatement(
                        literal:
                            "SELECT * FROM \(identifier: Self.table) WHERE \(identifier: Self.idColumn) = \(items[0].id!)"
                    )))
            #expect(row[Self.nameColumn] as String == Self.nastyValues[1])
            #expect(row[Self.emailColumn] as String == items[0].email)
            #expect(row.columnNames == [Self.idColumn, Self.nameColumn, Self.emailColumn])

            // SQL literals: values become arguments
            let value = Self.nastyValues[0]
            let count = try Int.fetchOne(
                db.makeStatement(
                    literal:
                        "SELECT COUNT(*) FROM \(identifier: Self.table) WHERE \(identifier: Self.nameColumn) = \(value)"
                ))
            #expect(count == 0) // the first item was renamed above
        }
        // The SQL text never contains a value.
        let statements = recorder.sql
        #expect(statements.contains { $0.hasPrefix("INSERT INTO") })
        for sql in statements {
            for value in Self.nastyValues where !value.isEmpty && value != "?" {
                #expect(!sql.contains(value), "value in SQL: \(sql)")
            }
            #expect(!sql.contains("upserted"), "value in SQL: \(sql)")
        }
    }

    @Test func identifiersInErrorsAreQuoted() throws {
        let recorder = SQLRecorder()
        let dbQueue = try makeDatabase(recordingInto: recorder)
        try dbQueue.write { db in
            var item = Item(id: 1, name: "a", email: "same")
            try item.insert(db)
            var duplicate = Item(id: 2, name: "b", email: "same")
            do {
                try duplicate.insert(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
                #expect(error.message == "UNIQUE constraint failed: \(Self.table).\(Self.emailColumn)")
                #expect(
                    error.sql
                        == #"INSERT INTO "my ""odd"" table ✨" ("the ""id""", "näme with space", "e-mail;--") VALUES (?,?,?)"#
                )
                #expect(error.arguments == [2, "b", "same"])
            }
            do {
                _ = try Item.find(db, key: 42)
                Issue.record("expected an error")
            } catch let error as RecordError {
                #expect("\(error)" == "Key not found in table \(Self.table): [\(Self.idColumn):42]")
            }
        }
    }

    @Test func namesOfUnusualTablesInRawSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            for name in ["select", "table with spaces", #"quote""d"#, "日本語", "a.b", "[brackets]", "`backticks`"] {
                try db.execute(literal: "CREATE TABLE \(identifier: name) (\(identifier: name) TEXT)")
                try db.execute(literal: "INSERT INTO \(identifier: name) (\(identifier: name)) VALUES (\(name))")
                let value = try String.fetchOne(
                    db.makeStatement(literal: "SELECT \(identifier: name) FROM \(identifier: name)"))
                #expect(value == name)
                #expect(try db.tableExists(name))
            }
        }
    }
}
