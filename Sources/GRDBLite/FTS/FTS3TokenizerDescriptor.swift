/// A tokenizer of FTS3 and FTS4 tables
/// (https://www.sqlite.org/fts3.html#tokenizer).
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.tokenizer = .unicode61(diacritics: .keep)
/// }
/// ```
public struct FTS3TokenizerDescriptor: Sendable {
    let name: String
    let arguments: [String]

    init(_ name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The `simple` tokenizer: ASCII letters and digits, lowercased.
    public static let simple = FTS3TokenizerDescriptor("simple")

    /// The `porter` tokenizer: `simple`, then English stemming
    /// ("database" gives "databas").
    public static let porter = FTS3TokenizerDescriptor("porter")

    /// The `unicode61` tokenizer: Unicode letters and digits, case
    /// folded, with diacritics removed or kept.
    ///
    /// - parameters:
    ///   - diacritics: How diacritics are handled.
    ///   - separators: Characters that separate tokens, besides spaces and
    ///     punctuation.
    ///   - tokenCharacters: Characters that belong to tokens, besides
    ///     letters and digits.
    public static func unicode61(
        diacritics: FTS3.Diacritics = .removeLegacy,
        separators: Set<Character> = [],
        tokenCharacters: Set<Character> = []) -> FTS3TokenizerDescriptor
    {
        var arguments: [String] = []
        switch diacritics {
        case .removeLegacy: break
        case .keep: arguments.append("remove_diacritics=0")
        case .remove: arguments.append("remove_diacritics=2")
        }
        if !separators.isEmpty {
            arguments.append("separators=" + String(separators.sorted()))
        }
        if !tokenCharacters.isEmpty {
            arguments.append("tokenchars=" + String(tokenCharacters.sorted()))
        }
        return FTS3TokenizerDescriptor("unicode61", arguments: arguments)
    }

    /// The `tokenize=...` argument of a CREATE VIRTUAL TABLE statement.
    var moduleArgument: String {
        ([ "tokenize=" + name] + arguments.map { "\"\($0)\"" }).joined(separator: " ")
    }
}
