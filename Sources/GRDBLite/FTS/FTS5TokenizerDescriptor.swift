/// A tokenizer of FTS5 tables
/// (https://www.sqlite.org/fts5.html#tokenizers): its name and arguments.
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = .porter(wrapping: .unicode61(diacritics: .remove))
///     t.column("title")
/// }
/// ```
public struct FTS5TokenizerDescriptor: Sendable {
    /// The name of the tokenizer, then its arguments:
    /// `["unicode61", "remove_diacritics", "0"]`.
    public let components: [String]

    var name: String { components[0] }
    var arguments: [String] { Array(components.dropFirst()) }

    /// A tokenizer from its name and arguments.
    ///
    /// - precondition: `components` is not empty.
    public init(components: [String]) {
        precondition(!components.isEmpty, "FTS5TokenizerDescriptor requires at least one component")
        self.components = components
    }

    /// The `ascii` tokenizer: ASCII letters and digits, lowercased.
    public static func ascii(
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor
    {
        FTS5TokenizerDescriptor(
            components: ["ascii"] + characterArguments(separators: separators, tokenCharacters: tokenCharacters))
    }

    /// The `porter` tokenizer: English stemming of the tokens of another
    /// tokenizer (`unicode61` when nil).
    public static func porter(wrapping base: FTS5TokenizerDescriptor? = nil) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: ["porter"] + (base?.components ?? []))
    }

    /// The `unicode61` tokenizer: Unicode letters and digits, case folded,
    /// with diacritics removed or kept.
    ///
    /// - parameters:
    ///   - diacritics: How diacritics are handled.
    ///   - categories: The Unicode categories of token characters
    ///     (`"L* N* Co"`), or empty for SQLite's default.
    ///   - separators: Characters that separate tokens.
    ///   - tokenCharacters: Characters that belong to tokens.
    public static func unicode61(
        diacritics: FTS5.Diacritics = .removeLegacy,
        categories: String = "",
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS5TokenizerDescriptor
    {
        var components = ["unicode61"]
        switch diacritics {
        case .removeLegacy: break
        case .keep: components += ["remove_diacritics", "0"]
        case .remove: components += ["remove_diacritics", "2"]
        }
        if !categories.isEmpty {
            components += ["categories", categories]
        }
        components += characterArguments(separators: separators, tokenCharacters: tokenCharacters)
        return FTS5TokenizerDescriptor(components: components)
    }

    /// The `trigram` tokenizer (SQLite 3.34+): every sequence of three
    /// characters is a token, so that patterns match substrings.
    ///
    /// - parameter caseSensitive: Whether matches are case sensitive.
    @_spi(GRDBLite) public static func trigram(caseSensitive: Bool = false) -> FTS5TokenizerDescriptor {
        FTS5TokenizerDescriptor(components: caseSensitive ? ["trigram", "case_sensitive", "1"] : ["trigram"])
    }

    private static func characterArguments(separators: Set<Character>, tokenCharacters: Set<Character>) -> [String] {
        var arguments: [String] = []
        if !separators.isEmpty {
            arguments += ["separators", String(separators.sorted())]
        }
        if !tokenCharacters.isEmpty {
            arguments += ["tokenchars", String(tokenCharacters.sorted())]
        }
        return arguments
    }
}
