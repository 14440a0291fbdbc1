/// A difference GRDBLite makes on purpose (or a bug not fixed yet), with
/// its reason: the runner counts it, and doesn't fail on it.
struct KnownDifference {
    var name: String
    var reason: String
    var matches: @Sendable (Difference) -> Bool

    /// The list. A new entry needs a reason: the porting guide's
    /// (DifferencesFromGRDB.md), or an issue's.
    static let all: [KnownDifference] = [
        KnownDifference(
            name: "bound LIMIT, OFFSET and NULL in a RowDecodingError",
            reason: "Porting guide: the query interface binds LIMIT/OFFSET and NULL (`LIMIT ?`), and a "
                + "`RowDecodingError` quotes the statement as sent. (In the trace, the runner compares the "
                + "statements with their arguments filled in.)",
            matches: { difference in
                func withoutSQL(_ text: String) -> Substring? {
                    text.range(of: ", sql: `").map { text[..<$0.lowerBound] }
                }
                func quotedSQL(_ text: String) -> Substring? {
                    guard let start = text.range(of: ", sql: `") else { return nil }
                    return text[start.upperBound...].prefix { $0 != "`" }
                }
                guard difference.kind == "result", difference.lite.hasPrefix("error: RowDecodingError"),
                      let lite = quotedSQL(difference.lite), let grdb = quotedSQL(difference.grdb)
                else { return false }
                return lite != grdb && withoutSQL(difference.lite) == withoutSQL(difference.grdb)
                    && Difference.boundOnly(lite, grdb)
            }),
        KnownDifference(
            name: "order of a composite key in RecordError",
            reason: "GRDB prints `recordNotFound`'s key from a dictionary, in an order that changes from "
                + "process to process; GRDBLite in the primary key's order.",
            matches: { difference in
                /// The text before the key, and the key's `column: value` parts, sorted.
                func parts(_ text: String) -> (Substring, [Substring])? {
                    guard text.hasPrefix("error: RecordError: Key not found"), let open = text.lastIndex(of: "["),
                          text.hasSuffix("]")
                    else { return nil }
                    return (text[..<open], text[open...].dropFirst().dropLast().split(separator: " ").sorted())
                }
                guard difference.kind == "result", let lite = parts(difference.lite),
                      let grdb = parts(difference.grdb)
                else { return false }
                return lite.0 == grdb.0 && lite.1 == grdb.1
            }),
        KnownDifference(
            name: "prefetch keys: order, none",
            reason: "GRDB collects `including(all:)`'s keys in a set: their order in `IN (...)` changes from "
                + "process to process, and it runs `WHERE 0` (through a pivot, `JOIN ... ON ... AND 0`) when no "
                + "key is non-NULL; GRDBLite keeps the rows' order, and skips the query.",
            matches: { difference in
                func none(_ line: Substring) -> Bool {
                    line.contains("grdb_") && (line.contains(" WHERE 0") || line.contains(") AND 0 "))
                }
                func normalized(_ sql: String, skipping: Bool) -> [String] {
                    sql.split(separator: "\n").filter { !skipping || !none($0) }.map { line in
                        guard let open = line.range(of: " IN ("),
                              let close = line[open.upperBound...].firstIndex(of: ")")
                        else { return String(line) }
                        let keys = line[open.upperBound..<close].split(separator: ", ").sorted()
                        return line[..<open.upperBound] + keys.joined(separator: ", ") + line[close...]
                    }
                }
                return difference.kind == "sql"
                    && normalized(difference.lite, skipping: false) == normalized(difference.grdb, skipping: true)
            }),
        KnownDifference(
            name: "end of a writing fetch (RETURNING), for observers",
            reason: "Porting guide: `fetchOne` of a statement that writes runs it to completion, and "
                + "observers get `databaseDidRollback` after rollbacks that SQLite forces. So an observer learns "
                + "the commit of `insertAndFetch` or `upsert` in their step (GRDB: at the next statement), and "
                + "the rollback of a failed `upsert` (GRDB: never); and the commit of a `deleteAndFetchAll` "
                + "whose record fails to decode (GRDB: never, though the rows are deleted: a GRDB defect; "
                + "soak seeds 7999 and 14698 of `--seed 4711`). So in the step of a RETURNING statement, "
                + "GRDBLite's events are GRDB's then `didCommit` (the statement succeeded), or then `didRollback` "
                + "(it failed in SQLite, on both).",
            matches: { difference in
                guard difference.kind == "events", difference.grdbSQL.contains(" RETURNING ") else { return false }
                let lite = difference.lite.split(separator: "\n")
                let grdb = difference.grdb.split(separator: "\n")
                let failed = difference.liteResult.hasPrefix("error: DatabaseError")
                if failed && !difference.grdbResult.hasPrefix("error: DatabaseError") { return false }
                return lite == grdb + [failed ? "didRollback" : "didCommit"]
            }),
        KnownDifference(
            name: "didRollback after a failed statement",
            reason: "Porting guide: observers get `databaseDidRollback` after rollbacks that SQLite forces. "
                + "Seen after a statement in autocommit mode (`insert(onConflict: .replace)`, `updateAll`...) "
                + "that fails on a constraint (a foreign key, UNIQUE) after its change was told: GRDB tells "
                + "nothing more (a plain `insert` agrees: its change isn't told). GRDBLite tells every observer, "
                + "even one told of no change, when one was: the generator gives the programs with a "
                + "`ValueObservation` an observer of every table, so the observer's last event is a change.",
            matches: { difference in
                let lite = difference.lite.split(separator: "\n")
                let grdb = difference.grdb.split(separator: "\n")
                return difference.kind == "events" && !difference.path.contains(".")
                    && !difference.grdbSQL.contains(" RETURNING ")
                    && difference.grdbResult.hasPrefix("error: DatabaseError(19/")
                    && difference.liteResult == difference.grdbResult
                    && lite == grdb + ["didRollback"]
                    && grdb.last.map { ["insert ", "update ", "delete "].contains(where: $0.hasPrefix) } == true
            }),
        KnownDifference(
            name: "ValueObservation fetches again after a failed statement",
            reason: "Porting guide, as the entry above: GRDB's `ValueObservation` of a queue is told the change of "
                + "an `insert(onConflict: .replace)` that then fails in autocommit mode, not the rollback: the "
                + "next commit, even of no change, makes it fetch, and notify the same value again unless "
                + "`removeDuplicates()` (then the new value, if that commit changed it). (The generator keeps "
                + "the steps of RETURNING (`insertAndFetch`, `upsert`...), whose commit GRDB ends at a later "
                + "statement, out of the programs that observe.)",
            matches: { difference in
                let fetches = ["SELECT * FROM \"player\"", "SELECT COUNT(*) FROM \"player\"",
                               "SELECT * FROM \"team\" WHERE \"city\" = ", "SELECT teamId, SUM(score) "]
                /// The lines without the observation's fetches (BEGIN DEFERRED, a fetch, COMMIT), and their count.
                func withoutFetches(_ text: String) -> (lines: [Substring], fetches: Int) {
                    var lines = text.split(separator: "\n")
                    var (index, count) = (0, 0)
                    while index + 2 < lines.count {
                        if lines[index] == "BEGIN DEFERRED TRANSACTION", lines[index + 2] == "COMMIT TRANSACTION",
                           fetches.contains(where: lines[index + 1].hasPrefix) {
                            lines.removeSubrange(index...index + 2)
                            count += 1
                        } else {
                            index += 1
                        }
                    }
                    return (lines, count)
                }
                guard difference.earlierError else { return false }
                switch difference.kind {
                case "sql", "placeholders":
                    let (lite, grdb) = (withoutFetches(difference.lite), withoutFetches(difference.grdb))
                    return lite.lines == grdb.lines && lite.fetches < grdb.fetches
                case "values":
                    // The former value again, then GRDBLite's values (if the commit changed it).
                    guard let last = difference.lastValue else { return false }
                    let values = difference.lite.isEmpty ? [] : [difference.lite]
                    return (1...3).contains { count in
                        difference.grdb == (Array(repeating: last, count: count) + values).joined(separator: "\n")
                    }
                default:
                    return false
                }
            }),
        KnownDifference(
            name: "RowDecodingError of a missing column",
            reason: "Porting guide: a `RowDecodingError` of a missing column names the requested type and the "
                + "row's columns, and quotes the SQL of an adapted row's statement (GRDB: "
                + "`column not found: \"score\" - row: [id:1]`).",
            matches: { difference in
                let grdbPrefix = "error: RowDecodingError: column not found: "
                guard difference.kind == "result", difference.grdb.hasPrefix(grdbPrefix),
                      difference.lite.hasPrefix("error: RowDecodingError: could not decode "),
                      let rowStart = difference.grdb.range(of: " - row: ")
                else { return false }
                let column = difference.grdb[..<rowStart.lowerBound].dropFirst(grdbPrefix.count)
                let row = difference.grdb[rowStart.upperBound...]
                return difference.lite.contains(": column not found: \(column) - available columns: ")
                    && (difference.lite.hasSuffix(", row: \(row)") || difference.lite.contains(", row: \(row), sql: `"))
            }),
        KnownDifference(
            name: "RowDecodingError of an adapted row quotes its SQL",
            reason: "Porting guide: a `RowDecodingError` of a row read through a row adapter or an association "
                + "quotes the SQL and arguments of its statement; GRDB's message has none for an adapted row.",
            matches: { difference in
                difference.kind == "result" && difference.grdb.hasPrefix("error: RowDecodingError: ")
                    && !difference.grdb.contains(", sql: `") && difference.lite.hasPrefix(difference.grdb + ", sql: `")
            }),
    ]

    /// The entry that explains the difference, if any.
    static func match(_ difference: Difference) -> KnownDifference? {
        all.first { $0.matches(difference) }
    }
}
