/// A format that prints the rows of a statement, for the dump methods
/// such as ``Database/dumpSQL(_:format:to:)`` and
/// ``DatabaseReader/dumpContent(format:to:)``.
///
/// The built-in formats follow the output modes of the SQLite command line
/// tool: ``debug(header:separator:nullValue:)``, ``json(encoder:)``,
/// ``line(nullValue:)``, ``list(header:separator:nullValue:)``,
/// ``quote(header:separator:)``.
///
/// A dump iterates each statement and calls ``writeRow(_:statement:to:)``
/// for each row, with the statement on that row, then
/// ``finalize(_:statement:to:)`` once, on a fresh copy of the format for
/// each statement. Columns whose name starts with `grdb_` are GRDBLite's
/// own, and the built-in formats don't print them.
public protocol DumpFormat {
    /// Prints the current row of `statement`.
    mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream) throws

    /// Called after the last row of `statement` (if any).
    mutating func finalize(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
}

/// Where dumps print: a text stream (standard output by default) that can
/// insert an empty line between two blocks of text.
public struct DumpStream {
    private var base: any TextOutputStream
    private var needsMargin = false

    init(_ base: (any TextOutputStream)?) {
        self.base = base ?? StandardOutputStream()
    }

    /// Asks for an empty line before the next text, unless that text
    /// starts with one.
    public mutating func margin() {
        needsMargin = true
    }
}

extension DumpStream: TextOutputStream {
    /// Prints `string`, after the pending margin, if any.
    public mutating func write(_ string: String) {
        if string.isEmpty { return }
        if needsMargin {
            needsMargin = false
            if !string.hasPrefix("\n") { base.write("\n") }
        }
        base.write(string)
    }
}

extension DumpStream {
    /// Prints `string` and a newline.
    mutating func writeLine(_ string: String) {
        write(string)
        write("\n")
    }
}

/// Prints to standard output.
private struct StandardOutputStream: TextOutputStream {
    func write(_ string: String) {
        print(string, terminator: "")
    }
}

/// Whether ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``
/// prints the name of each table before its rows.
public enum DumpTableHeaderOptions: Sendable {
    /// Names are printed when there are several tables.
    case automatic

    /// Names are always printed.
    case always
}
