/// The known differences' matchers, and the runner's normalizations, on
/// examples: for each entry, a difference seen in a run, which its matcher
/// must accept, and near misses (another value, count, kind, step or
/// order), which it must reject. `differential --self-test` runs them
/// (Scripts/differential.sh, before the programs).
enum KnownDifferenceTests {
    /// One example: the entry named must accept it, or must not.
    struct Example {
        var entry: String
        var accepts: Bool
        var note: String
        var difference: Difference
    }

    static var count: Int { examples.count + normalizations.count }

    /// The failed checks, described.
    static func run() -> [String] {
        var failures: [String] = []
        let names = Set(KnownDifference.all.map(\.name))
        for name in names {
            let own = examples.filter { $0.entry == name }
            if own.filter(\.accepts).isEmpty || own.filter({ !$0.accepts }).count < 2 {
                failures.append("\(name): needs an accepted example and 2 near misses")
            }
        }
        for example in examples {
            guard let entry = KnownDifference.all.first(where: { $0.name == example.entry }) else {
                failures.append("\(example.entry): no such entry")
                continue
            }
            if entry.matches(example.difference) != example.accepts {
                failures.append("\(example.entry) \(example.accepts ? "rejects" : "accepts") \(example.note)")
            }
        }
        for (note, passes) in normalizations where !passes() {
            failures.append("normalization: \(note)")
        }
        return failures
    }

    static func difference(
        _ kind: String, _ path: String = "3", lite: String, grdb: String, liteResult: String = "",
        grdbResult: String = "", grdbSQL: String = "", earlierError: Bool = false, lastValue: String? = nil
    ) -> Difference {
        Difference(kind: kind, path: path, lite: lite, grdb: grdb, liteResult: liteResult, grdbResult: grdbResult,
                   grdbSQL: grdbSQL, earlierError: earlierError, lastValue: lastValue)
    }

    static let examples: [Example] = boundSQL + compositeKey + prefetchKeys + returning
        + failedStatement + observationAgain + missingColumn + adaptedRow

    // MARK: The runner's normalizations

    static let read = Difference.migrationsRead
    static let create = "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)"

    static let normalizations: [(String, @Sendable () -> Bool)] = [
        ("GRDB's second read of grdb_migrations is dropped", {
            let grdb = [create, read, read, "BEGIN IMMEDIATE TRANSACTION"]
            let lite = [create, read, "BEGIN IMMEDIATE TRANSACTION"]
            return Difference.withoutSecondMigrationsRead(grdb, lite) == lite
        }),
        ("not when GRDBLite reads none", {
            let grdb = [create, read, read, "BEGIN IMMEDIATE TRANSACTION"]
            return Difference.withoutSecondMigrationsRead(grdb, [create, "BEGIN IMMEDIATE TRANSACTION"]) == grdb
        }),
        ("not when GRDBLite reads twice too", {
            let grdb = [create, read, read, "BEGIN IMMEDIATE TRANSACTION"]
            return Difference.withoutSecondMigrationsRead(grdb, grdb) == grdb
        }),
        ("not when GRDB reads once", {
            let grdb = [create, read, "BEGIN IMMEDIATE TRANSACTION"]
            return Difference.withoutSecondMigrationsRead(grdb, [create, "BEGIN IMMEDIATE TRANSACTION"]) == grdb
        }),
        ("a bound LIMIT and OFFSET compare equal", {
            Difference.boundOnly("SELECT * FROM \"player\" ORDER BY \"id\" LIMIT ? OFFSET ?",
                                 "SELECT * FROM \"player\" ORDER BY \"id\" LIMIT 3 OFFSET 1")
        }),
        ("a bound NULL compares equal", {
            Difference.boundOnly("SELECT * FROM \"team\" WHERE \"name\" IS ?",
                                 "SELECT * FROM \"team\" WHERE \"name\" IS NULL")
        }),
        ("not another bound value", {
            !Difference.boundOnly("SELECT * FROM \"team\" WHERE \"id\" = ?", "SELECT * FROM \"team\" WHERE \"id\" = 3")
        }),
        ("not another statement", {
            !Difference.boundOnly("SELECT * FROM \"team\" LIMIT ?", "SELECT * FROM \"player\" LIMIT 3")
        }),
    ]
}

// The examples: each accepted one was seen in a run (its seed), the near misses are edits of it.
extension KnownDifferenceTests {
    static func accepts(_ entry: String, _ note: String, _ difference: Difference) -> Example {
        Example(entry: entry, accepts: true, note: note, difference: difference)
    }

    static func rejects(_ entry: String, _ note: String, _ difference: Difference) -> Example {
        Example(entry: entry, accepts: false, note: note, difference: difference)
    }

    static let boundSQL: [Example] = {
        let name = "bound LIMIT, OFFSET and NULL in a RowDecodingError"
        let message = "error: RowDecodingError: could not decode Int64: column not found: \"score\" - available "
            + "columns: \"id\", row: [id:1], sql: "
        func result(lite: String, grdb: String) -> Difference {
            difference("result", lite: message + "`SELECT \"id\" FROM \"player\" \(lite)`, arguments: [1]",
                       grdb: message + "`SELECT \"id\" FROM \"player\" \(grdb)`, arguments: []")
        }
        return [
            accepts(name, "a bound LIMIT (its shape: the porting guide's)", result(lite: "LIMIT ?", grdb: "LIMIT 1")),
            rejects(name, "another limit", result(lite: "LIMIT ?", grdb: "LIMIT 1 OFFSET 2")),
            rejects(name, "another statement", result(lite: "WHERE id = ? LIMIT ?", grdb: "LIMIT 1")),
            rejects(name, "the same SQL", result(lite: "LIMIT 1", grdb: "LIMIT 1")),
        ]
    }()

    static let compositeKey: [Example] = {
        let name = "order of a composite key in RecordError"
        func result(_ lite: String, _ grdb: String) -> Difference {
            difference("result", lite: "error: RecordError: Key not found in table \(lite)",
                       grdb: "error: RecordError: Key not found in table \(grdb)")
        }
        return [
            accepts(name, "seed 4739", result("team: [id:2 name:NULL]", "team: [name:NULL id:2]")),
            rejects(name, "another table", result("player: [id:2 name:NULL]", "team: [name:NULL id:2]")),
            rejects(name, "another value", result("team: [id:2 name:NULL]", "team: [name:NULL id:3]")),
            rejects(name, "a part missing", result("team: [id:2]", "team: [name:NULL id:2]")),
            rejects(name, "in the events", difference("events", lite: "team: [id:2 name:NULL]",
                                                      grdb: "team: [name:NULL id:2]")),
        ]
    }()

    static let prefetchKeys: [Example] = {
        let name = "prefetch keys: order, none"
        let base = "SELECT \"id\", \"teamId\", \"name\" FROM \"player\" WHERE \"name\" >= 'a'"
        let none = "SELECT \"player\".*, \"team\".\"id\" AS \"grdb_id\" FROM \"player\" JOIN \"team\" ON "
            + "(\"team\".\"id\" = \"player\".\"teamId\") AND 0 ORDER BY \"player\".\"id\""
        let keys = "SELECT * FROM \"player\" WHERE \"teamId\" IN ("
        return [
            accepts(name, "seed 4717: GRDB's query of no key", difference("sql", lite: base, grdb: base + "\n" + none)),
            accepts(name, "keys in another order", difference("sql", lite: keys + "1, 2)", grdb: keys + "2, 1)")),
            rejects(name, "GRDBLite's query of no key", difference("sql", lite: base + "\n" + none, grdb: base)),
            rejects(name, "another key", difference("sql", lite: keys + "1, 3)", grdb: keys + "2, 1)")),
            rejects(name, "another base query", difference("sql", lite: base + " ORDER BY \"id\"",
                                                           grdb: base + "\n" + none)),
        ]
    }()

    static let returning: [Example] = {
        let name = "end of a writing fetch (RETURNING), for observers"
        let sql = "INSERT INTO \"team\" (\"id\", \"name\", \"city\") VALUES (3,'b','y') RETURNING *"
        let team = "Team(id: 3, name: \"b\", city: \"y\")"
        let failure = "error: DatabaseError(19/787): FOREIGN KEY constraint failed"
        func events(_ lite: String, _ grdb: String, results: (String, String) = (team, team),
                    sql: String = sql) -> Difference {
            difference("events", lite: lite, grdb: grdb, liteResult: results.0, grdbResult: results.1, grdbSQL: sql)
        }
        return [
            accepts(name, "seed 4719: the commit",
                    events("insert team 3\nwillCommit\ndidCommit", "insert team 3\nwillCommit")),
            accepts(name, "seed 4418: the rollback of a failure",
                    events("insert player 1\ndidRollback", "insert player 1", results: (failure, failure))),
            rejects(name, "a rollback of a success",
                    events("insert team 3\nwillCommit\ndidRollback", "insert team 3\nwillCommit")),
            rejects(name, "a commit of a failure",
                    events("insert player 1\ndidCommit", "insert player 1", results: (failure, failure))),
            rejects(name, "two commits", events("insert team 3\nwillCommit\ndidCommit\ndidCommit",
                                                 "insert team 3\nwillCommit")),
            rejects(name, "another change",
                    events("insert team 4\nwillCommit\ndidCommit", "insert team 3\nwillCommit")),
            rejects(name, "no RETURNING", events("insert team 3\nwillCommit\ndidCommit", "insert team 3\nwillCommit",
                                                 sql: "INSERT INTO \"team\" (\"id\") VALUES (3)")),
            rejects(name, "a commit GRDB told", events("insert team 3\nwillCommit\ndidCommit",
                                                       "insert team 3\nwillCommit\ndidCommit\ndidCommit")),
        ]
    }()

    static let failedStatement: [Example] = {
        let name = "didRollback after a failed statement"
        let failure = "error: DatabaseError(19/787): FOREIGN KEY constraint failed"
        let sql = "UPDATE \"player\" SET \"teamId\" = 0"
        func events(_ lite: String, _ grdb: String, path: String = "2",
                    results: (String, String) = (failure, failure), sql: String = sql) -> Difference {
            difference("events", path, lite: lite, grdb: grdb, liteResult: results.0, grdbResult: results.1,
                       grdbSQL: sql)
        }
        return [
            accepts(name, "seed 60", events("update player 1\ndidRollback", "update player 1")),
            accepts(name, "seed 709 (UNIQUE)", events("update team 1\ndidRollback", "update team 1",
                results: ("error: DatabaseError(19/2067): UNIQUE constraint failed: team.name",
                          "error: DatabaseError(19/2067): UNIQUE constraint failed: team.name"))),
            rejects(name, "no change told", events("didRollback", "")),
            rejects(name, "in a transaction", events("update player 1\ndidRollback", "update player 1", path: "2.1")),
            rejects(name, "GRDB succeeded", events("update player 1\ndidRollback", "update player 1",
                                                   results: (failure, "changes: 1"))),
            rejects(name, "another error", events("update player 1\ndidRollback", "update player 1",
                                                  results: (failure, "error: ProgramFailure"))),
            rejects(name, "two rollbacks", events("update player 1\ndidRollback\ndidRollback", "update player 1")),
            rejects(name, "a commit", events("update player 1\ndidCommit", "update player 1")),
        ]
    }()

    static let observationAgain: [Example] = {
        let name = "ValueObservation fetches again after a failed statement"
        let insert = "INSERT INTO \"team\" (\"id\", \"name\", \"city\") VALUES (1,'b','x')"
        let fetch = "BEGIN DEFERRED TRANSACTION\nSELECT teamId, SUM(score) FROM player GROUP BY teamId ORDER BY teamId"
            + "\nCOMMIT TRANSACTION"
        let value = "[teamId:NULL SUM(score):NULL]"
        return [
            accepts(name, "seed 5241: a fetch more", difference("sql", "11", lite: insert, grdb: insert + "\n" + fetch,
                                                              earlierError: true)),
            accepts(name, "seed 5241: the value again", difference("values", "11", lite: "", grdb: value,
                                                                 earlierError: true, lastValue: value)),
            rejects(name, "no failure before", difference("sql", "11", lite: insert, grdb: insert + "\n" + fetch)),
            rejects(name, "a fetch less", difference("sql", "11", lite: insert + "\n" + fetch, grdb: insert,
                                                     earlierError: true)),
            rejects(name, "another value", difference("values", "11", lite: "", grdb: "[teamId:1 SUM(score):2]",
                                                      earlierError: true, lastValue: value)),
        ]
    }()

    static let missingColumn: [Example] = {
        let name = "RowDecodingError of a missing column"
        let lite = "error: RowDecodingError: could not decode Int64: column not found: \"score\" - available columns: "
            + "\"c\", \"b\", row: [c:1 b:2.0]"
        func grdb(_ column: String, _ row: String) -> String {
            "error: RowDecodingError: column not found: \"\(column)\" - row: [\(row)]"
        }
        return [
            accepts(name, "seed 4417", difference("result", lite: lite, grdb: grdb("score", "c:1 b:2.0"))),
            rejects(name, "another column", difference("result", lite: lite, grdb: grdb("name", "c:1 b:2.0"))),
            rejects(name, "another row", difference("result", lite: lite, grdb: grdb("score", "c:1 b:3.0"))),
        ]
    }()

    static let adaptedRow: [Example] = {
        let name = "RowDecodingError of an adapted row quotes its SQL"
        let grdb = "error: RowDecodingError: could not decode String from database value NULL - column: \"name\", "
            + "column index: 1, row: [id:1 name:NULL]"
        let sql = ", sql: `SELECT id, name FROM team ORDER BY id`, arguments: []"
        return [
            accepts(name, "its shape: the porting guide's", difference("result", lite: grdb + sql, grdb: grdb)),
            rejects(name, "GRDB quotes it too", difference("result", lite: grdb + sql, grdb: grdb + sql)),
            rejects(name, "another message", difference("result", lite: grdb.replacing("1", with: "2") + sql,
                                                        grdb: grdb)),
        ]
    }()
}
