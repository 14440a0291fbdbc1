import Foundation
import Testing
import GRDBLite

/// An encodable record that can't be persisted: `recordNotFound(_:)`
/// comes from `TableRecord` and `EncodableRecord`, as in GRDB.
private struct Reference: TableRecord, EncodableRecord {
    static let databaseTableName = "item"
    var id: Int64
    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
    }
}

/// A `Record` subclass with an id: `selectID()` applies to it.
private final class Item: Record, Identifiable {
    var id: Int64 = 0
    override class var databaseTableName: String { "item" }
    required init(row: Row) throws {
        id = row["id"]
        try super.init(row: row)
    }
}

@Suite struct TableRecordRecordNotFoundTests {
    @Test func recordNotFoundNamesThePrimaryKey() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY)")
            let error = Reference(id: 42).recordNotFound(db)
            guard case let RecordError.recordNotFound(databaseTableName: table, key: key) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(table == "item")
            #expect(key == ["id": 42.databaseValue])
            // Without the table, the error that prevented reading the key.
            try db.execute(sql: "DROP TABLE item")
            #expect(Reference(id: 1).recordNotFound(db) is DatabaseError)
        }
    }

    @Test func recordSubclassesSelectTheirIDs() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY); INSERT INTO item VALUES (2), (1)")
            #expect(try Item.selectID().order(Column("id")).fetchAll(db) == [1, 2])
            #expect(try Item.fetchAll(db).map(\.id).sorted() == [1, 2])
        }
    }

    @Test func derivableRequestsDeclareCommonTableExpressions() throws {
        // Generic code over DerivableRequest reaches `with(_:)`.
        func withAnswer<R: DerivableRequest>(_ request: R) -> R {
            request.with(CommonTableExpression(named: "answer", sql: "SELECT 42 AS value"))
        }
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY); INSERT INTO item VALUES (1)")
            let request = withAnswer(Table("item").all())
                .select(SQL("(SELECT value FROM answer)").sqlExpression, as: Int.self)
            #expect(try request.fetchOne(db) == 42)
            let (sql, _) = try sqlAndArguments(db, request)
            #expect(sql.hasPrefix(#"WITH "answer" AS (SELECT 42 AS value) SELECT"#))
        }
    }
}
