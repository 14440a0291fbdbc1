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
    /// up to the first step whose results differ.
    static func between(lite: Outcome, grdb: Outcome) -> [Difference] {
        var differences: [Difference] = []
        var earlierError = false
        var lastValue: String?
        func append(
            _ kind: String, _ path: String, _ lite: String, _ grdb: String, _ results: (String, String, String)
        ) {
            differences.append(Difference(kind: kind, path: path, lite: lite, grdb: grdb,
                                          liteResult: results.0, grdbResult: results.1, grdbSQL: results.2,
                                          earlierError: earlierError, lastValue: lastValue))
        }
        for (lite, grdb) in zip(lite.steps, grdb.steps) {
            let results = (lite.result, grdb.result, grdb.expandedSQL.joined(separator: "\n"))
            if lite.path != grdb.path {
                append("steps", lite.path, lite.path, grdb.path, results)
                return differences
            }
            if lite.expandedSQL != grdb.expandedSQL {
                append("sql", lite.path, lite.expandedSQL.joined(separator: "\n"),
                       grdb.expandedSQL.joined(separator: "\n"), results)
            } else if lite.sql != grdb.sql {
                append("placeholders", lite.path, lite.sql.joined(separator: "\n"),
                       grdb.sql.joined(separator: "\n"), results)
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
                // What follows is a consequence: compare no further.
                append("result", lite.path, lite.result, grdb.result, results)
                return differences
            }
            earlierError = earlierError || grdb.result.hasPrefix("error")
            lastValue = grdb.values.last ?? lastValue
        }
        if lite.steps.count != grdb.steps.count {
            append("steps", "end", "\(lite.steps.count) steps", "\(grdb.steps.count) steps", ("", "", ""))
        }
        if lite.finalContent != grdb.finalContent {
            append("content", "end", lite.finalContent, grdb.finalContent, ("", "", ""))
        }
        return differences
    }
}
