import Foundation
import Testing
import GRDBLite
import TestSupport

/// The schema cache forgets what statements and rollbacks change.
@Suite struct SchemaCacheTests {
    @Test func rollbackForgetsUndoneSchemaChanges() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.inTransaction {
                try db.execute(sql: "ALTER TABLE t ADD COLUMN b; CREATE TABLE u (a)")
                #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
                #expect(try db.tableExists("u"))
                return .rollback
            }
            #expect(try db.columns(in: "t").map(\.name) == ["a"])
            #expect(try !db.tableExists("u"))
        }
    }

    @Test func savepointRollbackForgetsUndoneSchemaChanges() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "CREATE TABLE u (a)")
                #expect(try db.tableExists("u"))
                return .rollback
            }
            #expect(try !db.tableExists("u"))
        }
    }

    @Test func errorRollbackForgetsUndoneSchemaChanges() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a INTEGER UNIQUE ON CONFLICT ROLLBACK); INSERT INTO t VALUES (1)")
            try db.execute(sql: "BEGIN; CREATE TABLE u (a)")
            #expect(try db.tableExists("u"))
            // ON CONFLICT ROLLBACK: SQLite rolls the transaction back.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(!db.isInsideTransaction)
            #expect(try !db.tableExists("u"))
        }
    }

    @Test func clearSchemaCacheSeesOtherConnections() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        let dbQueue1 = try DatabaseQueue(path: path)
        let dbQueue2 = try DatabaseQueue(path: path)
        try dbQueue1.inDatabase { db throws in #expect(try !db.tableExists("t")) }
        try dbQueue2.inDatabase { db in try db.execute(sql: "CREATE TABLE t (a)") }
        try dbQueue1.inDatabase { db throws in
            #expect(try !db.tableExists("t")) // cached
            db.clearSchemaCache()
            #expect(try db.tableExists("t"))
        }
    }
}
