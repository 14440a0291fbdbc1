/// A full-text pattern for FTS3 and FTS4 tables
/// (https://www.sqlite.org/fts3.html#full_text_index_queries).
///
/// ```swift
/// let pattern = FTS3Pattern(matchingAllTokensIn: "SQLite database")
/// let books = try Book.matching(pattern).fetchAll(db)
/// ```
public struct FTS3Pattern: Sendable {
    /// The pattern, in the syntax of FTS3's MATCH operator.
    public let rawPattern: String

    /// A pattern written in FTS3's query syntax.
    ///
    /// - throws: A ``DatabaseError`` if SQLite refuses the pattern
    ///   (`"NOT"`, an unbalanced `"(`...).
    public init(rawPattern: String) throws {
        try Self.validate(rawPattern, module: "fts3", columns: [])
        self.rawPattern = rawPattern
    }

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

    /// The tokens of `string` for the `simple` tokenizer, or nil if none.
    private static func tokens(_ string: String) -> [String]? {
        guard let tokens = try? FTS3.tokenize(string), !tokens.isEmpty else { return nil }
        return tokens
    }

    /// Throws the error SQLite reports when a table of `module` with
    /// `columns` is matched against `rawPattern`. SQLite finds errors in
    /// a pattern when the query runs, not when it compiles: the query runs
    /// on an empty table of a private in-memory database.
    static func validate(_ rawPattern: String, module: String, columns: [String]) throws {
        do {
            try DatabaseQueue().inDatabase { db in
                let columnList = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                try db.execute(sql: "CREATE VIRTUAL TABLE document USING \(module)(\(columnList))")
                _ = try Row.fetchOne(
                    db, sql: "SELECT * FROM document WHERE document MATCH ?", arguments: [rawPattern])
            }
        } catch let error as DatabaseError {
            // The SQL of the private database is not the user's business.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
        }
    }
}

extension FTS3Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue {
        rawPattern.databaseValue
    }

    /// A pattern from text that SQLite accepts as a pattern; nil otherwise.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS3Pattern(rawPattern: $0) }
    }
}
