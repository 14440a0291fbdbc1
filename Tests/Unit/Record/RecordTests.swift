import Foundation
import GRDBLite
import Testing

private class Person: Record {
    var id: Int64?
    var name: String
    var age: Int?
    /// The callbacks, in order, with `super` calls.
    var events: [String] = []

    init(id: Int64? = nil, name: String, age: Int? = nil) {
        self.id = id
        self.name = name
        self.age = age
        super.init()
    }

    override class var databaseTableName: String { "persons" }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"] ?? "(not fetched)"
        age = row["age"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["age"] = age
    }

    override func willSave(_ db: Database) throws {
        events.append("willSave")
        try super.willSave(db)
    }

    override func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        events.append("aroundSave enter")
        try super.aroundSave(db, save: save)
        events.append("aroundSave exit")
    }

    override func didSave(_ saved: PersistenceSuccess) {
        events.append("didSave")
        super.didSave(saved)
    }

    override func willInsert(_ db: Database) throws {
        events.append("willInsert")
        try super.willInsert(db)
    }

    override func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        events.append("aroundInsert enter")
        try super.aroundInsert(db, insert: insert)
        events.append("aroundInsert exit")
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        events.append("didInsert")
        id = inserted.rowID
    }

    override func willUpdate(_ db: Database, columns: Set<String>) throws {
        events.append("willUpdate \(columns.sorted())")
        try super.willUpdate(db, columns: columns)
    }

    override func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        events.append("aroundUpdate enter")
        try super.aroundUpdate(db, columns: columns, update: update)
        events.append("aroundUpdate exit")
    }

    override func didUpdate(_ updated: PersistenceSuccess) {
        events.append("didUpdate")
        super.didUpdate(updated)
    }

    override func willDelete(_ db: Database) throws {
        events.append("willDelete")
        try super.willDelete(db)
    }

    override func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        events.append("aroundDelete enter")
        try super.aroundDelete(db, delete: delete)
        events.append("aroundDelete exit")
    }

    override func didDelete(deleted: Bool) {
        events.append("didDelete \(deleted)")
        super.didDelete(deleted: deleted)
    }
}

/// A subclass of a subclass, with a column of its own.
private final class Employee: Person {
    var company: String?

    init(name: String, company: String?) {
        self.company = company
        super.init(name: name)
    }

    required init(row: Row) throws {
        company = row["company"]
        try super.init(row: row)
    }

    override func encode(to container: inout PersistenceContainer) throws {
        try super.encode(to: &container)
        container["company"] = company
    }
}

private final class IgnoredPerson: Person {
    override class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .ignore, update: .abort)
    }
}

private final class PersonName: Person {
    override class var databaseSelection: [any SQLSelectable] {
        [Column("id"), Column("name")]
    }
}

private final class DefaultNamedRecord: Record { }

private let schema = "CREATE TABLE persons (id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INT, company TEXT)"

@Suite struct RecordTests {
    // MARK: - Changes

    @Test func newRecordsHaveChangesWithUnknownFormerValues() throws {
        let person = Person(name: "Arthur", age: 41)
        #expect(person.hasDatabaseChanges)
        let changes = try person.databaseChanges
        #expect(changes.count == 3)
        #expect(changes.values.allSatisfy { $0 == nil })

        // A row built in code may not be the one in the database.
        let decoded = try Person(row: ["id": 1, "name": "Arthur", "age": 41])
        #expect(decoded.hasDatabaseChanges)
        #expect(try decoded.databaseChanges.keys.sorted() == ["age", "id", "name"])
    }

    @Test(arguments: ["fetchOne", "fetchAll", "fetchCursor", "Row.fetchAll"])
    func fetchedRecordsHaveNoChange(_ method: String) throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            try Person(name: "Arthur", age: 41).insert(db)
            let sql = "SELECT *, 1 AS extra FROM persons"
            let person: Person = switch method {
            case "fetchOne": try #require(try Person.fetchOne(db, sql: sql))
            case "fetchAll": try #require(try Person.fetchAll(db, sql: sql).first)
            case "fetchCursor": try #require(try Person.fetchCursor(db, sql: sql).next())
            default: try Person(row: #require(try Row.fetchAll(db, sql: sql).first))
            }
            #expect(!person.hasDatabaseChanges)
            #expect(try person.databaseChanges.isEmpty)
        }
    }

    @Test func partiallyFetchedRecordsHaveChangesInTheMissingColumns() throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            try Person(name: "Arthur", age: 41).insert(db)
            let person = try #require(try Person.fetchOne(db, sql: "SELECT name FROM persons"))
            #expect(person.hasDatabaseChanges)
            let changes = try person.databaseChanges
            #expect(changes.keys.sorted() == ["age", "id"])
            #expect(changes.values.allSatisfy { $0 == nil })
        }
    }

    @Test func changesHaveTheFormerValues() throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            let person = Person(name: "Arthur")
            try person.insert(db)
            #expect(!person.hasDatabaseChanges)

            person.name = "Arthur" // same value
            person.age = nil
            #expect(!person.hasDatabaseChanges)

            person.name = "Barbara"
            person.age = 41
            let changes = try person.databaseChanges
            #expect(changes.count == 2)
            #expect(changes["name"] == .some("Arthur".databaseValue))
            #expect(changes["age"] == .some(.null))
        }
    }

    @Test func anIntegerEqualToAFetchedRealIsNoChange() throws {
        let dbQueue = try makeDatabase("CREATE TABLE persons (id INTEGER PRIMARY KEY, name TEXT, age REAL)")
        try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO persons (name, age) VALUES ('Arthur', 41)")
            let person = try #require(try Person.fetchOne(db, sql: "SELECT * FROM persons"))
            #expect(person.age == 41)
            #expect(!person.hasDatabaseChanges)
        }
    }

    @Test func columnsAreCaseInsensitive() throws {
        final class Shouting: Record {
            var id: Int64?
            var name: String
            init(name: String) {
                self.name = name
                super.init()
            }
            override class var databaseTableName: String { "persons" }
            required init(row: Row) throws {
                id = row["ID"]
                name = row["NAME"]
                try super.init(row: row)
            }
            override func encode(to container: inout PersistenceContainer) {
                container["ID"] = id
                container["NAME"] = name
            }
            override func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            let inserted = Shouting(name: "Arthur")
            try inserted.insert(db)
            #expect(inserted.id == 1)
            #expect(!inserted.hasDatabaseChanges)
            let fetched = try #require(try Shouting.fetchOne(db, sql: "SELECT * FROM persons"))
            #expect(!fetched.hasDatabaseChanges)
            fetched.name = "Barbara"
            #expect(try fetched.databaseChanges == ["NAME": "Arthur".databaseValue])
        }
    }

    @Test func savedRecordsHaveNoChangeDeletedOnesHaveAll() throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            let person = Person(name: "Arthur")
            try person.save(db)
            #expect(!person.hasDatabaseChanges)
            person.name = "Barbara"
            #expect(person.hasDatabaseChanges)
            try person.save(db)
            #expect(!person.hasDatabaseChanges)
            person.age = 3
            try person.update(db)
            #expect(!person.hasDatabaseChanges)
            try person.delete(db)
            #expect(person.hasDatabaseChanges)
            #expect(try person.databaseChanges.values.allSatisfy { $0 == nil })
            try person.upsert(db)
            #expect(!person.hasDatabaseChanges)
        }
    }

    @Test func insertedRecordsKeepTheirReferenceAfterOtherInserts() throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            let arthur = Person(name: "Arthur", age: 41)
            try arthur.insert(db)
            let barbara = Person(name: "Barbara", age: 42)
            try barbara.insert(db)
            #expect(!arthur.hasDatabaseChanges)
            arthur.age = 42
            #expect(try arthur.databaseChanges.mapValues { $0?.databaseValue } == ["age": 41.databaseValue])
            #expect(!barbara.hasDatabaseChanges)
        }
    }

    @Test func aFailedInsertKeepsTheChanges() throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            let person = Person(name: "Arthur")
            try person.insert(db)
            let duplicate = Person(id: person.id, name: "Barbara")
            #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
            #expect(duplicate.hasDatabaseChanges)
        }
    }

    // MARK: - updateChanges

    @Test func updateChangesUpdatesTheChangedColumns() throws {
        let recorder = SQLRecorder()
        let dbQueue = try makeDatabase(schema, recorder: recorder)
        try dbQueue.write { db throws in
            let person = Person(name: "Arthur", age: 41)
            #expect {
                try person.updateChanges(db)
            } throws: { error in
                guard case let RecordError.recordNotFound(table, key) = error else { return false }
                return table == "persons" && key == ["id": .null]
            }
            try person.insert(db)
            recorder.reset()
            #expect(try person.updateChanges(db) == false)
            person.age = 41
            #expect(try person.updateChanges(db) == false)
            #expect(recorder.sql.isEmpty)

            person.age = 42
            #expect(try person.updateChanges(db))
            person.name = "Barbara"
            person.age = 43
            #expect(try person.updateChanges(db))
            #expect(recorder.sql == [
                #"UPDATE "persons" SET "age"=? WHERE "id"=?"#,
                #"UPDATE "persons" SET "name"=?, "age"=? WHERE "id"=?"#,
            ])
            #expect(!person.hasDatabaseChanges)
            let fetched = try #require(try Person.fetchOne(db, key: 1))
            #expect(fetched.name == "Barbara")
            #expect(fetched.age == 43)
        }
    }

    // MARK: - Callbacks

    @Test func callbacksRunInOrderThroughSuper() throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            let person = Person(name: "Arthur")
            try person.insert(db)
            #expect(person.id == 1)
            #expect(person.events == [
                "willSave", "aroundSave enter", "willInsert", "aroundInsert enter", "aroundInsert exit",
                "didInsert", "aroundSave exit", "didSave",
            ])

            person.events = []
            person.age = 3
            try person.save(db)
            #expect(person.events == [
                    "willSave", "aroundSave enter", "willUpdate [\"age\", \"company\", \"id\", \"name\"]",
                    "aroundUpdate enter",
                "aroundUpdate exit", "didUpdate", "aroundSave exit", "didSave",
            ])

            person.events = []
            #expect(try person.delete(db))
            #expect(person.events == ["willDelete", "aroundDelete enter", "aroundDelete exit", "didDelete true"])

            // Saving a deleted record inserts it.
            person.events = []
            try person.save(db)
            #expect(person.events.contains("willInsert"))
            #expect(try Person.fetchCount(db) == 1)
        }
    }

    // MARK: - Subclasses

    @Test func subclassesOfSubclasses() throws {
        let dbQueue = try makeDatabase(schema)
        try dbQueue.write { db throws in
            let employee = Employee(name: "Arthur", company: "Acme")
            try employee.insert(db)
            #expect(employee.id == 1)
            #expect(employee.events.first == "willSave")

            let fetched = try #require(try Employee.fetchOne(db, key: 1))
            #expect(fetched.name == "Arthur")
            #expect(fetched.company == "Acme")
            #expect(!fetched.hasDatabaseChanges)
            fetched.company = nil
            #expect(try fetched.databaseChanges == ["company": "Acme".databaseValue])

            // The class is the one asked for, whatever the static type.
            let people: [Person] = try Employee.fetchAll(db)
            #expect(people.count == 1)
            #expect(people[0] is Employee)
        }
    }

    @Test func classPropertiesAreOverridable() throws {
        let recorder = SQLRecorder()
        let dbQueue = try makeDatabase(schema, recorder: recorder)
        try dbQueue.write { db throws in
            try Person(id: 1, name: "Arthur").insert(db)
            // INSERT OR IGNORE
            try IgnoredPerson(id: 1, name: "Barbara").insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM persons") == ["Arthur"])

            recorder.reset()
            let name = try #require(try PersonName.fetchOne(db))
            #expect(name.age == nil)
            #expect(recorder.sql == [#"SELECT "id", "name" FROM "persons" LIMIT 1"#])
        }
    }

    @Test func tableNames() {
        final class PlayerScore: Record { }
        #expect(Person.databaseTableName == "persons")
        #expect(Employee.databaseTableName == "persons")
        #expect(DefaultNamedRecord.databaseTableName == "defaultNamedRecord")
        #expect(PlayerScore.databaseTableName == "playerScore")
        func tableName<T: TableRecord>(_ type: T.Type) -> String { T.databaseTableName }
        #expect(tableName(DefaultNamedRecord.self) == "defaultNamedRecord")
        #expect(tableName(Employee.self) == "persons")
    }

    @Test func aRecordWithoutColumnsIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE defaultNamedRecord (a)")
                try DefaultNamedRecord().insert(db)
            }
        }
    }
}
