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
            name: "bound LIMIT, OFFSET and NULL",
            reason: "Porting guide: the query interface binds LIMIT/OFFSET and NULL (`LIMIT ?`); "
                + "the expanded SQL is GRDB's.",
            matches: { difference in
                // Also in the SQL that a `RowDecodingError` quotes.
                func withoutSQL(_ text: String) -> Substring? {
                    text.range(of: ", sql: `").map { text[..<$0.lowerBound] }
                }
                func quotedSQL(_ text: String) -> Substring? {
                    guard let start = text.range(of: ", sql: `") else { return nil }
                    return text[start.upperBound...].prefix { $0 != "`" }
                }
                switch difference.kind {
                case "placeholders":
                    let (lite, grdb) = (difference.lite.split(separator: "\n"), difference.grdb.split(separator: "\n"))
                    return lite.count == grdb.count && zip(lite, grdb).allSatisfy(boundOnly)
                case "result":
                    guard difference.lite.contains("RowDecodingError"), let lite = quotedSQL(difference.lite),
                          let grdb = quotedSQL(difference.grdb)
                    else { return false }
                    return withoutSQL(difference.lite) == withoutSQL(difference.grdb) && boundOnly(lite, grdb)
                default:
                    return false
                }
            }),
        KnownDifference(
            name: "migrator reads grdb_migrations once",
            reason: "Porting guide: GRDB's `migrate` runs `SELECT identifier FROM grdb_migrations` twice "
                + "before migrating, GRDBLite once: seen only in the trace.",
            matches: { difference in
                let read = "SELECT identifier FROM grdb_migrations"
                func withoutReads(_ sql: String) -> [Substring] { sql.split(separator: "\n").filter { $0 != read } }
                return difference.kind == "sql" && difference.path == "schema"
                    && withoutReads(difference.lite) == withoutReads(difference.grdb)
            }),
        KnownDifference(
            name: "order of a composite key in RecordError",
            reason: "GRDB prints `recordNotFound`'s key from a dictionary, in an order that changes from "
                + "process to process; GRDBLite in the primary key's order.",
            matches: { difference in
                func parts(_ text: String) -> Set<Substring>? {
                    guard text.contains("RecordError: Key not found"), let open = text.lastIndex(of: "[")
                    else { return nil }
                    return Set(text[open...].dropFirst().dropLast().split(separator: " "))
                }
                return difference.kind == "result" && parts(difference.lite) != nil
                    && parts(difference.lite) == parts(difference.grdb)
            }),
        KnownDifference(
            name: "including(all:) of a missing table",
            reason: "Porting guide (found here): GRDB reads the schema of an `including(all:)` table "
                + "before the base query, and throws `no such table` at once; GRDBLite runs the base query "
                + "first, and throws only when it has rows (`fetchCount` never).",
            matches: { difference in
                guard difference.grdbResult.hasPrefix("error: DatabaseError(1/1): no such table") else { return false }
                let stoppedEarlier = difference.lite.hasPrefix(difference.grdb)
                    || difference.grdb == "ROLLBACK TRANSACTION" || difference.grdb.hasPrefix("ROLLBACK TO SAVEPOINT")
                    || difference.grdb == "BEGIN DEFERRED TRANSACTION\nROLLBACK TRANSACTION" // a pool's read
                return difference.kind == "sql" ? stoppedEarlier
                    : difference.kind == "result" && !difference.liteResult.hasPrefix("error")
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
                func normalized(_ sql: String) -> [String] {
                    sql.split(separator: "\n").filter { !none($0) }.map { line in
                        guard let open = line.range(of: " IN ("),
                              let close = line[open.upperBound...].firstIndex(of: ")")
                        else { return String(line) }
                        let keys = line[open.upperBound..<close].split(separator: ", ").sorted()
                        return line[..<open.upperBound] + keys.joined(separator: ", ") + line[close...]
                    }
                }
                return difference.kind == "sql" && normalized(difference.lite) == normalized(difference.grdb)
            }),
        KnownDifference(
            name: "order of ties with a bound LIMIT",
            reason: "With `LIMIT ?` (bound, see above) SQLite may pick another plan than with `LIMIT 3`, and "
                + "return rows that tie on ORDER BY in another order; without ORDER BY, the same rows in another "
                + "order, or another single row, which may fail to decode (seen with DISTINCT: an index scan "
                + "for `LIMIT ?`, a table scan for `LIMIT 3`). Any difference in the SQL stays unknown.",
            matches: { difference in
                guard difference.kind == "result", difference.grdbSQL.contains(" LIMIT ") else { return false }
                let (lite, grdb) = (difference.lite.split(separator: "\n"), difference.grdb.split(separator: "\n"))
                let databaseError = [lite, grdb].contains { $0.first?.hasPrefix("error: DatabaseError") == true }
                if difference.grdbSQL.contains("ORDER BY") {
                    return !difference.lite.hasPrefix("error") && !difference.grdb.hasPrefix("error")
                }
                return !databaseError && (lite.sorted() == grdb.sorted() || (lite.count == 1 && grdb.count == 1))
            }),
        KnownDifference(
            name: "end of a writing fetch (RETURNING), for observers",
            reason: "Porting guide: `fetchOne` of a statement that writes runs it to completion, and "
                + "observers get `databaseDidRollback` after rollbacks that SQLite forces. So an observer learns "
                + "the commit of `insertAndFetch` or `upsert` in their step (GRDB: at the next statement), and "
                + "the rollback of a failed `upsert` (GRDB: never); and the commit of a `deleteAndFetchAll` "
                + "whose record fails to decode (GRDB: never, though the rows are deleted: a GRDB defect; "
                + "soak seeds 7999 and 14698 of `--seed 4711`).",
            matches: { difference in
                let ends: Set<Substring> = ["didCommit", "didRollback"]
                let lite = difference.lite.split(separator: "\n")
                let grdb = difference.grdb.split(separator: "\n")
                guard difference.kind == "events",
                      lite.filter({ !ends.contains($0) }) == grdb.filter({ !ends.contains($0) })
                else { return false }
                let lateInGRDB = grdb.first.map(ends.contains) == true && lite.first != grdb.first
                return difference.grdbSQL.contains(" RETURNING ") || lateInGRDB
            }),
        KnownDifference(
            name: "didRollback after a failed statement",
            reason: "Porting guide: observers get `databaseDidRollback` after rollbacks that SQLite forces. "
                + "Seen after `insert(onConflict: .replace)` and `upsert` in autocommit mode that fail on a "
                + "foreign key after their change was told: GRDB tells nothing (a plain `insert` agrees).",
            matches: { difference in
                difference.kind == "events" && difference.liteResult.hasPrefix("error")
                    && difference.grdbResult.hasPrefix("error")
                    && difference.lite.split(separator: "\n").filter { $0 != "didRollback" }
                        == difference.grdb.split(separator: "\n").filter { $0 != "didRollback" }
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

    /// Whether GRDBLite's SQL is GRDB's with `?` where GRDB has a literal:
    /// an integer after `LIMIT ` or `OFFSET `, or `NULL`.
    static func boundOnly(_ lite: Substring, _ grdb: Substring) -> Bool {
        var (l, g) = (lite.startIndex, grdb.startIndex)
        while l < lite.endIndex && g < grdb.endIndex {
            if lite[l] == grdb[g] {
                (l, g) = (lite.index(after: l), grdb.index(after: g))
                continue
            }
            guard lite[l] == "?" else { return false }
            let literal: Substring
            if grdb[g...].hasPrefix("NULL") {
                literal = grdb[g...].prefix(4)
            } else if grdb[..<g].hasSuffix("LIMIT ") || grdb[..<g].hasSuffix("OFFSET ") {
                literal = grdb[g...].prefix { $0.isASCII && $0.isNumber }
            } else {
                return false
            }
            guard !literal.isEmpty else { return false }
            (l, g) = (lite.index(after: l), literal.endIndex)
        }
        return l == lite.endIndex && g == grdb.endIndex
    }

    /// The entry that explains the difference, if any.
    static func match(_ difference: Difference) -> KnownDifference? {
        all.first { $0.matches(difference) }
    }
}
