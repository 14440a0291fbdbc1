import DifferentialProgram

/// One way the two outcomes of a program differ.
struct Difference: CustomStringConvertible {
    /// What differs: `steps` (how many), `sql` (expanded statements),
    /// `placeholders` (statements as sent, the expanded ones equal),
    /// `events` (a transaction observer's), `values` (a `ValueObservation`'s),
    /// `result`, `content`.
    var kind: String
    /// The step: `schema`, `3`, `3.1`, or `end`.
    var path: String
    var lite: String
    var grdb: String
    /// The step's results, for the known differences that depend on them.
    var liteResult = ""
    var grdbResult = ""
    /// The statements GRDB ran for the step, expanded.
    var grdbSQL = ""
    /// Whether a step before this one failed, on GRDB.
    var earlierError = false
    /// The value GRDB's `ValueObservation` notified last before this step.
    var lastValue: String?

    var description: String {
        var text = "step \(path), \(kind):\n  GRDBLite: \(indent(lite))\n  GRDB:     \(indent(grdb))"
        if kind != "result" && path != "end" {
            text += "\n  (results: GRDBLite \(indent(liteResult)), GRDB \(indent(grdbResult)))"
        }
        return text
    }

    private func indent(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "\n            ")
    }

    /// The differences between GRDBLite's outcome and GRDB's, step by step,
    /// up to the first step whose results differ in a way no known
    /// difference explains (what follows it is a consequence).
    static func between(lite: Outcome, grdb: Outcome) -> [Difference] {
        var differences: [Difference] = []
        var earlierError = false
        var lastValue: String?
        func append(_ kind: String, _ path: String, _ lite: String, _ grdb: String, _ results: Results) {
            differences.append(Difference(kind: kind, path: path, lite: lite, grdb: grdb,
                                          liteResult: results.lite, grdbResult: results.grdb,
                                          grdbSQL: results.grdbSQL,
                                          earlierError: earlierError, lastValue: lastValue))
        }
        for (lite, grdb) in zip(lite.steps, grdb.steps) {
            let grdbStatements = withoutSecondMigrationsRead(grdb.expandedSQL, lite.expandedSQL)
            let results = Results(lite: lite.result, grdb: grdb.result, grdbSQL: grdbStatements.joined(separator: "\n"),
                                  liteSQL: lite.expandedSQL.joined(separator: "\n"))
            if lite.path != grdb.path {
                append("steps", lite.path, lite.path, grdb.path, results)
                return differences
            }
            let grdbSent = withoutSecondMigrationsRead(grdb.sql, lite.sql)
            if lite.expandedSQL != grdbStatements {
                append("sql", lite.path, results.liteSQL, results.grdbSQL, results)
            } else if lite.sql.count != grdbSent.count || !zip(lite.sql, grdbSent).allSatisfy(boundOnly) {
                append("placeholders", lite.path, lite.sql.joined(separator: "\n"),
                       grdbSent.joined(separator: "\n"), results)
            }
            if lite.events != grdb.events {
                append("events", lite.path, lite.events.joined(separator: "\n"),
                       grdb.events.joined(separator: "\n"), results)
            }
            if lite.values != grdb.values {
                append("values", lite.path, lite.values.joined(separator: "\n"),
                       grdb.values.joined(separator: "\n"), results)
            }
            if lite.result != grdb.result {
                append("result", lite.path, lite.result, grdb.result, results)
                // What follows an unknown difference is a consequence: compare no further.
                if KnownDifference.match(differences[differences.count - 1]) == nil { return differences }
            }
            earlierError = earlierError || grdb.result.hasPrefix("error")
            lastValue = grdb.values.last ?? lastValue
        }
        if lite.steps.count != grdb.steps.count {
            append("steps", "end", "\(lite.steps.count) steps", "\(grdb.steps.count) steps", Results())
        }
        if lite.finalContent != grdb.finalContent {
            append("content", "end", lite.finalContent, grdb.finalContent, Results())
        }
        return differences
    }

    /// A step's results and statements.
    struct Results {
        var lite = ""
        var grdb = ""
        var grdbSQL = ""
        var liteSQL = ""
    }

    static let migrationsRead = "SELECT identifier FROM grdb_migrations"

    /// GRDB's statements without the second of two reads of `grdb_migrations`
    /// in a row, when GRDBLite made one read there (porting guide: GRDB's
    /// `migrate` reads twice before migrating, GRDBLite once).
    static func withoutSecondMigrationsRead(_ grdb: [String], _ lite: [String]) -> [String] {
        guard let index = grdb.indices.dropLast().first(where: {
            grdb[$0] == migrationsRead && grdb[$0 + 1] == migrationsRead
        }) else { return grdb }
        var result = grdb
        result.remove(at: index + 1)
        return lite.count == result.count && lite[index] == migrationsRead
            && (index + 1 == lite.count || lite[index + 1] != migrationsRead) ? result : grdb
    }

    /// Whether GRDBLite's statement is GRDB's with `?` where GRDB has a
    /// literal: an integer after `LIMIT ` or `OFFSET `, or `NULL` (porting
    /// guide: the query interface binds them). The expanded statements are
    /// compared before.
    static func boundOnly(_ lite: String, _ grdb: String) -> Bool {
        boundOnly(Substring(lite), Substring(grdb))
    }

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
}
