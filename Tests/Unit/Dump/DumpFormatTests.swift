import Foundation
import GRDBLite
import Testing

/// A text stream that keeps what it is given.
final class DumpTestStream: TextOutputStream {
    var output = ""
    func write(_ string: String) { output += string }
}

/// Runs `sql` in a new in-memory database, and returns what
/// `dumpSQL(_:format:)` prints.
func dumpOutput(_ sql: SQL, setup: String = "", format: some DumpFormat) throws -> String {
    let dbQueue = try DatabaseQueue()
    return try dbQueue.write { db in
        if !setup.isEmpty { try db.execute(sql: setup) }
        let stream = DumpTestStream()
        try db.dumpSQL(sql, format: format, to: stream)
        return stream.output
    }
}

/// The values the formats print: one row per kind of value.
private let valuesSetup = """
    CREATE TABLE v(name, value);
    INSERT INTO v VALUES ('a null', NULL);
    INSERT INTO v VALUES ('b integer', -9223372036854775808);
    INSERT INTO v VALUES ('c real', 0.1);
    INSERT INTO v VALUES ('d real', 1e300);
    INSERT INTO v VALUES ('e text', 'it''s "é" 🙂');
    INSERT INTO v VALUES ('f text nul', CAST(X'61006263' AS TEXT));
    INSERT INTO v VALUES ('g blob utf8', CAST('abc' AS BLOB));
    INSERT INTO v VALUES ('h blob binary', X'80FF');
    INSERT INTO v VALUES ('i blob uuid', X'69BF8A9CD9F04777BD1193451D84CBCF');
    INSERT INTO v VALUES ('j blob nul', X'610062');
    """

/// The formats of dumps, with their options (after GRDB's DatabaseDumpTests).
@Suite struct DumpFormatTests {
    @Test func debugFormat() throws {
        let output = try dumpOutput("SELECT * FROM v ORDER BY name", setup: valuesSetup, format: .debug())
        #expect(output == """
            a null|
            b integer|-9223372036854775808
            c real|0.1
            d real|1e+300
            e text|it's "é" 🙂
            f text nul|a
            g blob utf8|abc
            h blob binary|X'80FF'
            i blob uuid|69BF8A9C-D9F0-4777-BD11-93451D84CBCF
            j blob nul|a\u{0}b

            """)
    }

    @Test func debugOptions() throws {
        let output = try dumpOutput(
            "SELECT 1 AS a, NULL AS b UNION ALL SELECT 2, 'x'",
            format: .debug(header: true, separator: ", ", nullValue: "NULL"))
        #expect(output == "a, b\n1, NULL\n2, x\n")
        #expect(try dumpOutput("SELECT 1 AS a WHERE 0", format: .debug(header: true)) == "")
    }

    @Test func listFormat() throws {
        let output = try dumpOutput("SELECT * FROM v ORDER BY name", setup: valuesSetup, format: .list())
        #expect(output == """
            a null|
            b integer|-9223372036854775808
            c real|0.1
            d real|1e+300
            e text|it's "é" 🙂
            f text nul|a
            g blob utf8|abc
            h blob binary|\u{fffd}\u{fffd}
            i blob uuid|i\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}Gw\u{fffd}\u{11}\u{fffd}E\u{1d}\u{fffd}\u{fffd}\u{fffd}
            j blob nul|a

            """)
    }

    @Test func listOptions() throws {
        let output = try dumpOutput(
            "SELECT 1 AS a, NULL AS b",
            format: .list(header: true, separator: ";", nullValue: "-"))
        #expect(output == "a;b\n1;-\n")
    }

    @Test func lineFormat() throws {
        let output = try dumpOutput(
            "SELECT 1 AS id, NULL AS teamName UNION ALL SELECT 2, 'x'; SELECT 3 AS n",
            format: .line(nullValue: "NULL"))
        #expect(output == """
                  id = 1
            teamName = NULL

                  id = 2
            teamName = x

            n = 3

            """)
        #expect(try dumpOutput("SELECT 1 WHERE 0; CREATE TABLE t(a)", format: .line()) == "")
    }

    @Test func quoteFormat() throws {
        let output = try dumpOutput("SELECT * FROM v ORDER BY name", setup: valuesSetup, format: .quote())
        #expect(output == """
            'a null',NULL
            'b integer',-9223372036854775808
            'c real',0.1
            'd real',1.0e+300
            'e text','it''s "é" 🙂'
            'f text nul','a'
            'g blob utf8',X'616263'
            'h blob binary',X'80FF'
            'i blob uuid',X'69BF8A9CD9F04777BD1193451D84CBCF'
            'j blob nul',X'610062'

            """)
        let headed = try dumpOutput("SELECT 1 AS \"it's\"", format: .quote(header: true, separator: ";"))
        #expect(headed == "'it''s'\n1\n")
    }

    @Test func jsonFormat() throws {
        let output = try dumpOutput("SELECT * FROM v ORDER BY name", setup: valuesSetup, format: .json())
        #expect(output == """
            [{"name":"a null","value":null},
            {"name":"b integer","value":-9223372036854775808},
            {"name":"c real","value":0.1},
            {"name":"d real","value":1e+300},
            {"name":"e text","value":"it's \\"é\\" 🙂"},
            {"name":"f text nul","value":"a"},
            {"name":"g blob utf8","value":"YWJj"},
            {"name":"h blob binary","value":"gP8="},
            {"name":"i blob uuid","value":"ab+KnNnwR3e9EZNFHYTLzw=="},
            {"name":"j blob nul","value":"YQBi"}]

            """)
    }

    @Test func jsonEmptyResultsAndStatementsWithoutColumns() throws {
        #expect(try dumpOutput("SELECT 1 AS a WHERE 0", format: .json()) == "[]\n")
        #expect(try dumpOutput("CREATE TABLE t(a)", format: .json()) == "")
    }

    @Test func jsonCustomEncoder() throws {
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.outputFormatting = .prettyPrinted
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "?")
        let output = try dumpOutput("SELECT 1 AS a, 9e999 AS b", format: .json(encoder: encoder))
        #expect(output == """
            [
              {
                "a":1,
                "b":"+∞"
              }
            ]

            """)
    }

    @Test func grdbColumnsAreNotPrinted() throws {
        #expect(try dumpOutput("SELECT 1 AS a, 2 AS grdb_b", format: .list()) == "1\n")
        #expect(try dumpOutput("SELECT 1 AS a, 2 AS grdb_b", format: .json()) == "[{\"a\":1}]\n")
        #expect(try dumpOutput("SELECT 1 AS a, 2 AS grdb_b", format: .quote()) == "1\n")
        #expect(try dumpOutput("SELECT 1 AS a, 2 AS grdb_b", format: .line()) == "a = 1\n")
    }

    /// A custom format: one character per row.
    private struct CountFormat: DumpFormat {
        var rows = 0
        mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
            rows += 1
            stream.write("*")
        }
        mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
            stream.write(" \(rows) in \(statement.sql)")
            stream.margin()
        }
    }

    @Test func customFormat() throws {
        let output = try dumpOutput("SELECT 1 UNION ALL SELECT 2; SELECT 3", format: CountFormat())
        #expect(output == "** 2 in SELECT 1 UNION ALL SELECT 2\n* 1 in SELECT 3")
    }
}
