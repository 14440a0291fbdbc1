/// A full-text pattern for FTS5 tables
/// (https://www.sqlite.org/fts5.html#full_text_query_syntax).
///
/// ```swift
/// let pattern = FTS5Pattern(matchingAllPrefixesIn: "sqli datab")
/// let books = try Book.matching(pattern).order(Column.rank).fetchAll(db)
/// ```
public struct FTS5Pattern: Sendable {
    /// The pattern, in the syntax of FTS5's MATCH operator.
    public let rawPattern: String

    /// A pattern that matches rows that contain at least one of the tokens
    /// of `string`; nil if `string` has no token.
    public init?(matchingAnyTokenIn string: String) {
        guard let tokens = Self.tokens(string) else { return nil }
        try? self.init(rawPattern: tokens.joined(separator: " OR "))
    }

    /// A pattern that matches rows that contain all the tokens of
    /// `string`, in any order; nil if `string` has no token.
    public init?(matchingAllTokensIn string: String) {
        guard let tokens = Self.tokens(string) else { return nil }
        try? self.init(rawPattern: tokens.joined(separator: " "))
    }

    /// A pattern that matches rows that contain words that start with all
    /// the tokens of `string`; nil if `string` has no token.
    public init?(matchingAllPrefixesIn string: String) {
        guard let tokens = Self.tokens(string) else { return nil }
        try? self.init(rawPattern: tokens.map { $0 + "*" }.joined(separator: " "))
    }

    /// A pattern that matches rows that contain the tokens of `string`,
    /// next to each other and in order; nil if `string` has no token.
    public init?(matchingPhrase string: String) {
        guard let tokens = Self.tokens(string) else { return nil }
        try? self.init(rawPattern: "\"" + tokens.joined(separator: " ") + "\"")
    }

    /// A pattern that matches rows whose first tokens are the tokens of
    /// `string`, in order; nil if `string` has no token.
    public init?(matchingPrefixPhrase string: String) {
        guard let tokens = Self.tokens(string) else { return nil }
        try? self.init(rawPattern: "^\"" + tokens.joined(separator: " ") + "\"")
    }

    /// A pattern written in FTS5's query syntax.
    ///
    /// - parameter rawPattern: The pattern, in FTS5's query syntax.
    /// - parameter allowedColumns: The columns that column filters
    ///   (`title: moby`) may name.
    /// - throws: A ``DatabaseError`` if SQLite refuses the pattern.
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        // An FTS5 table needs a column: a name that no filter can mean.
        try FTS3Pattern.validate(
            rawPattern, module: "fts5", columns: allowedColumns.isEmpty ? ["__grdb__"] : allowedColumns)
        self.rawPattern = rawPattern
    }

    /// The tokens of `string` for the `ascii` tokenizer, or nil if none.
    private static func tokens(_ string: String) -> [String]? {
        guard let tokens = try? FTS5.tokenize(query: string), !tokens.isEmpty else { return nil }
        return tokens
    }
}

extension Database {
    /// A pattern written in FTS5's query syntax, whose column filters may
    /// name the columns of `table`.
    ///
    /// - throws: A ``DatabaseError`` if SQLite refuses the pattern, or if
    ///   the table does not exist.
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}

extension FTS5Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// A pattern from text that SQLite accepts as a pattern; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS5Pattern(rawPattern: $0) }
    }
}
