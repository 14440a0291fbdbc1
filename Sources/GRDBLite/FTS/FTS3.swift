/// The FTS3 full-text module (https://www.sqlite.org/fts3.html).
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS3()) { t in
///     t.column("title")
///     t.tokenizer = .porter
/// }
/// ```
public struct FTS3: Sendable {
    /// How the `unicode61` tokenizer handles diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "é" and "e" are different.
        case keep
        /// Diacritics are removed from Latin script characters that have a
        /// single one (`remove_diacritics=1`, the default).
        case removeLegacy
        /// Diacritics are removed from all Latin script characters
        /// (`remove_diacritics=2`).
        case remove
    }

    /// The FTS3 module.
    public init() { }

    /// The tokens of `string`, as the tokenizer produces them (lowercased,
    /// stemmed...).
    ///
    /// ```swift
    /// try FTS3.tokenize("SQLite database")                       // ["sqlite", "database"]
    /// try FTS3.tokenize("SQLite database", withTokenizer: .porter) // ["sqlite", "databas"]
    /// ```
    public static func tokenize(
        _ string: String,
        withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) throws -> [String]
    {
        // SQLite's fts3tokenize module exposes the tokenizers of FTS3/FTS4.
        let arguments = ([tokenizer.name] + tokenizer.arguments.map { "\"\($0)\"" }).joined(separator: ", ")
        return try DatabaseQueue().inDatabase { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE tokenizer USING fts3tokenize(\(arguments))")
            let tokens = try DatabaseValue.fetchAll(
                db, sql: "SELECT token FROM tokenizer WHERE input = ? ORDER BY position",
                arguments: [string])
            // A tokenizer may cut a multi-byte character (porter does):
            // such a token is not valid UTF-8, and is repaired.
            return tokens.map { token in
                switch token.storage {
                case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
                default: String.fromDatabaseValue(token) ?? ""
                }
            }
        }
    }
}

extension FTS3: VirtualTableModule {
    /// `fts3`
    public var moduleName: String { "fts3" }

    /// A fresh FTS3 table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    /// The columns, then the tokenizer.
    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) -> [String] {
        var arguments = definition.columns
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.moduleArgument)
        }
        return arguments
    }

    /// Nothing to do after an FTS3 table is created.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition) { }
}

/// The definition of an FTS3 table, given to the closure of
/// `db.create(virtualTable:using:_:)`.
public final class FTS3TableDefinition {
    fileprivate var columns: [String] = []

    /// The tokenizer (`simple` when nil).
    public var tokenizer: FTS3TokenizerDescriptor?

    init() { }

    /// Adds a column.
    public func column(_ name: String) {
        columns.append(name)
    }
}

// A mutable class, used in the closure that defines a table only.
@available(*, unavailable)
extension FTS3TableDefinition: Sendable { }
