@testable import GRDBLite

// What differs between the SQLites that the suite runs on: Debian's 3.40.1
// (`Scripts/test.sh`) and 3.54.1 (`Scripts/test.sh --sqlite 3.54.1`). The
// tests that meet a difference state both behaviours with these.

/// Whether the SQLite that the tests run on has the `sqlite3_snapshot_*`
/// functions (`SQLITE_ENABLE_SNAPSHOT`): 3.54.1 from `sqlite-build.sh`
/// has them, Debian's 3.40.1 doesn't.
let sqliteHasSnapshots = SnapshotAPI.linked != nil

/// The function that JSON builders wrap the JSON values they are given in:
/// `JSON` before SQLite 3.45, `JSONB` since.
let jsonParser = Database.sqliteLibVersionNumber >= 3_045_000 ? "JSONB" : "JSON"

/// SQLite's message for an unknown column. Since SQLite 3.41, a
/// double-quoted name that is no column gets a hint (3.54.1:
/// `no such column: "foo" - should this be a string literal in
/// single-quotes?`); before (3.40.1), `no such column: foo`.
func noSuchColumnMessage(_ name: String, doubleQuoted: Bool) -> String {
    guard doubleQuoted, Database.sqliteLibVersionNumber >= 3_041_000 else {
        return "no such column: \(name)"
    }
    return #"no such column: "\#(name)" - should this be a string literal in single-quotes?"#
}

/// Whether `DELETE` and `UPDATE` accept `ORDER BY` and `LIMIT`
/// (`SQLITE_ENABLE_UPDATE_DELETE_LIMIT`): Debian builds its SQLite with
/// it; the amalgamation that `sqlite-build.sh` compiles can't have it (its
/// parser is generated without), and SQLite reports a syntax error.
let sqliteHasUpdateDeleteLimit: Bool = {
    let dbQueue = try? DatabaseQueue()
    let used = try? dbQueue?.read { db in
        try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('ENABLE_UPDATE_DELETE_LIMIT')")
    }
    return used == true
}()
