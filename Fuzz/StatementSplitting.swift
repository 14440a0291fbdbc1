import CSQLite
import Foundation
import GRDBLite

// Fuzz target: how GRDBLite splits SQL into statements
// (`Database.allStatements(sql:)` and the single statement of
// `Database.makeStatement(sql:)`) against a `sqlite3_prepare_v3` tail loop
// on a private connection with the same schema. The input is the SQL,
// decoded as UTF-8 (invalid bytes repaired). Statements are compiled,
// never run: SQL from the fuzzer could write files (ATTACH, VACUUM INTO).
//
// The agreement checked:
// 1. `allStatements(sql:)` gives the statements the tail loop compiles, in
//    order, with the same SQL (without the white space and semicolons
//    around it), and then fails with the loop's error code, or ends where
//    the loop finds no more statement (only white space, comments and
//    semicolons left).
// 2. `makeStatement(sql:)` succeeds exactly when the loop compiles one
//    statement and finds nothing after it, with the same SQL; else its
//    error is the loop's first error, or `SQLITE_MISUSE` (no statement, or
//    several; a statement after the first that fails to compile counts).
// 3. Every error is a `DatabaseError`. SQL with a NUL character is
//    refused (`SQLITE_MISUSE`) by both, without compiling.

/// The schema of both connections.
private let schema = """
    CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT, teamId INT REFERENCES team(id));
    CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT UNIQUE);
    CREATE INDEX player_score ON player(score);
    CREATE VIEW ranking AS SELECT name, score FROM player ORDER BY score DESC;
    CREATE TRIGGER team_delete AFTER DELETE ON team BEGIN DELETE FROM player WHERE teamId = OLD.id; END;
    """

private let dbQueue: DatabaseQueue = {
    do {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: schema) }
        return dbQueue
    } catch {
        fatalError("setup: \(error)")
    }
}()

/// The private connection of the tail loop, with GRDBLite's settings that
/// change compilation (no double-quoted strings).
nonisolated(unsafe) private let reference: OpaquePointer = {
    var connection: OpaquePointer?
    guard sqlite3_open(":memory:", &connection) == SQLITE_OK, let connection,
          sqlite3_exec(connection, schema, nil, nil, nil) == SQLITE_OK
    else { fatalError("can't open the reference connection") }
    grdblite_disable_dqs(connection)
    return connection
}()

/// What the tail loop compiles: the SQL of each statement, then the
/// extended code of the error that stopped it, if any.
private func referenceSplit(_ sql: String) -> (statements: [String], error: CInt?) {
    var statements: [String] = []
    return sql.withCString { start in
        var current = start
        while current.pointee != 0 {
            var statement: OpaquePointer?
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(reference, current, -1, 0, &statement, &tail)
            if code != SQLITE_OK { return (statements, sqlite3_extended_errcode(reference)) }
            guard let statement else { break }
            statements.append(trimmed(String(cString: sqlite3_sql(statement))))
            sqlite3_finalize(statement)
            guard let tail else { break }
            current = tail
        }
        return (statements, nil)
    }
}

/// Without the white space and semicolons around it.
private func trimmed(_ sql: String) -> String {
    let isTrimmed = { (byte: UInt8) in byte == 0x3B || byte == 0x20 || (0x09...0x0D).contains(byte) }
    let utf8 = Array(sql.utf8)
    guard let first = utf8.firstIndex(where: { !isTrimmed($0) }),
          let last = utf8.lastIndex(where: { !isTrimmed($0) })
    else { return "" }
    return String(decoding: utf8[first...last], as: UTF8.self)
}

/// Traps with the input and the disagreement.
private func disagreement(_ sql: String, _ message: String) -> Never {
    fatalError("\(message): \(sql.debugDescription)")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let sql = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let hasNUL = sql.utf8.contains(0)
    let expected = hasNUL ? (statements: [], error: SQLITE_MISUSE) : referenceSplit(sql)
    dbQueue.inDatabase { db in
        // 1. allStatements(sql:)
        var statements: [String] = []
        var errorCode: CInt?
        do {
            let cursor = try db.allStatements(sql: sql)
            while let statement = try cursor.next() {
                statements.append(statement.sql)
            }
        } catch let error as DatabaseError {
            errorCode = error.extendedResultCode.rawValue
        } catch {
            disagreement(sql, "allStatements: not a DatabaseError: \(error)")
        }
        if statements != expected.statements || errorCode != expected.error {
            disagreement(sql, """
                allStatements: \(statements) then \(String(describing: errorCode)), \
                tail loop: \(expected.statements) then \(String(describing: expected.error))
                """)
        }
        // 2. makeStatement(sql:)
        do {
            let statement = try db.makeStatement(sql: sql)
            guard expected.error == nil, expected.statements == [statement.sql] else {
                disagreement(sql, "makeStatement compiles \(statement.sql.debugDescription), tail loop: \(expected)")
            }
        } catch let error as DatabaseError {
            let code = error.extendedResultCode.rawValue
            let single = expected.statements.count == 1 && expected.error == nil
            let firstFails = expected.statements.isEmpty && expected.error != nil
            if single || (firstFails && code != expected.error) || (!firstFails && code != SQLITE_MISUSE) {
                disagreement(sql, "makeStatement fails with \(code), tail loop: \(expected)")
            }
        } catch {
            disagreement(sql, "makeStatement: not a DatabaseError: \(error)")
        }
    }
    return 0
}
