import Foundation
import Testing
import GRDBLite

/// `ColumnInfo` and `ForeignKeyViolation` are records, fetched from SQL.
@Suite struct SchemaFetchableRecordTests {
    @Test func columnInfoFetchesFromTableInfo() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'x')")
            let columns = try ColumnInfo.fetchAll(db, sql: "PRAGMA table_info(player)")
            #expect(columns.map(\.name) == ["id", "name"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT"])
            #expect(columns[1].isNotNull)
            #expect(columns[1].defaultValueSQL == "'x'")
            #expect(columns[0].primaryKeyIndex == 1)
            let name = try ColumnInfo.fetchOne(db, sql: "SELECT * FROM pragma_table_info('player') WHERE name = ?",
                                               arguments: ["name"])
            #expect(name?.name == "name")
            #expect(try ColumnInfo.fetchCursor(db, sql: "PRAGMA table_info(player)").dropFirst().next()?.name == "name")
        }
    }

    @Test func foreignKeyViolationFetchesFromForeignKeyCheck() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        try DatabaseQueue(configuration: configuration).write { db throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (id INTEGER PRIMARY KEY, teamId REFERENCES team(id));
                INSERT INTO player VALUES (1, 42);
                """)
            let violations = try ForeignKeyViolation.fetchAll(db, sql: "PRAGMA foreign_key_check")
            #expect(violations.count == 1)
            #expect(violations[0].originTable == "player")
            #expect(violations[0].originRowID == 1)
            #expect(violations[0].destinationTable == "team")
        }
    }
}
