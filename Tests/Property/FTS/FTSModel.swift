import PropertyBased

/// A word of the generated documents: how it is written, and the term a
/// tokenizer makes of it (the reference model knows it by heart).
struct FTSWord: Sendable, Hashable, CustomStringConvertible {
    var text: String
    var term: String
    var description: String { text }
}

/// How a query is built from its words.
enum FTSQueryKind: String, Sendable, CaseIterable {
    case anyToken, allTokens, phrase, allPrefixes
}

struct FTSQuery: Sendable, CustomStringConvertible {
    var kind: FTSQueryKind
    var words: [FTSWord]
    /// For prefix queries: how many characters of each term are kept.
    var prefixLengths: [Int]

    /// The text given to the pattern initializer.
    var text: String {
        switch kind {
        case .allPrefixes:
            zip(words, prefixLengths).map { String($0.text.prefix($1)) }.joined(separator: " ")
        default:
            words.map(\.text).joined(separator: " ")
        }
    }

    var description: String { "\(kind)(\(text))" }
}

struct FTSCase: Sendable, CustomStringConvertible {
    var documents: [[FTSWord]]
    var queries: [FTSQuery]

    var description: String {
        "documents:\n"
            + documents.enumerated().map { "  #\($0.offset + 1): \($0.element.map(\.text).joined(separator: " "))" }
            .joined(separator: "\n")
            + "\nqueries: " + queries.map(\.description).joined(separator: ", ")
    }
}

/// The reference model: which documents (1-based row ids) a query finds,
/// computed from the terms of the words.
enum FTSModel {
    static func matches(_ query: FTSQuery, in documents: [[FTSWord]]) -> Set<Int64> {
        var result: Set<Int64> = []
        for (index, document) in documents.enumerated() {
            let terms = document.map(\.term)
            let queryTerms = query.words.map(\.term)
            let found: Bool
            switch query.kind {
            case .anyToken:
                found = queryTerms.contains(where: terms.contains)
            case .allTokens:
                found = queryTerms.allSatisfy(terms.contains)
            case .phrase:
                found = terms.count >= queryTerms.count && (0...(terms.count - queryTerms.count)).contains { start in
                    Array(terms[start..<(start + queryTerms.count)]) == queryTerms
                }
            case .allPrefixes:
                // The prefix of the term as written, folded as the term is.
                let prefixes = zip(query.words, query.prefixLengths).map { word, length in
                    String(word.term.prefix(length))
                }
                found = prefixes.allSatisfy { prefix in terms.contains { $0.hasPrefix(prefix) } }
            }
            if found { result.insert(Int64(index + 1)) }
        }
        return result
    }
}

enum FTSGenerators {
    /// Words for FTS5's `unicode61` with diacritics removed: the term is
    /// the lowercase ASCII word (accented letters are 2-byte UTF-8, and
    /// written words keep their length so that prefixes line up).
    static let unicode61Words: [FTSWord] = [
        ("mars", "mars"), ("Mars", "mars"), ("MARS", "mars"),
        ("venus", "venus"), ("Vénus", "venus"),
        ("cafe", "cafe"), ("café", "cafe"), ("CAFÉ", "cafe"),
        ("eden", "eden"), ("Éden", "eden"), ("élan", "elan"), ("elan", "elan"),
        ("naïve", "naive"), ("sea", "sea"), ("seal", "seal"), ("season", "season"),
        ("red", "red"), ("redo", "redo"), ("a", "a"), ("über", "uber"),
    ].map { FTSWord(text: $0.0, term: $0.1) }

    /// Words for FTS4's `porter`: families that share a stem (the term).
    static let porterWords: [FTSWord] = [
        ("connect", "connect"), ("connected", "connect"), ("connecting", "connect"),
        ("connection", "connect"), ("connections", "connect"),
        ("run", "run"), ("running", "run"), ("runs", "run"),
        ("database", "databas"), ("databases", "databas"),
        ("happy", "happi"), ("happiness", "happi"),
        ("mars", "mar"), ("red", "red"), ("sea", "sea"), ("seas", "sea"),
    ].map { FTSWord(text: $0.0, term: $0.1) }

    static func fts5Case() -> Generator<FTSCase, [FTSCase]> {
        ftsCase(words: unicode61Words, kinds: FTSQueryKind.allCases)
    }

    static func porterCase() -> Generator<FTSCase, [FTSCase]> {
        ftsCase(words: porterWords, kinds: [.anyToken, .allTokens, .phrase])
    }

    private static func ftsCase(words: [FTSWord], kinds: [FTSQueryKind]) -> Generator<FTSCase, [FTSCase]> {
        generator(
            run: { r in
                let documents = (0..<r.int(0...12)).map { _ in (0..<r.int(0...6)).map { _ in r.pick(words) } }
                let queries = (0..<r.int(1...6)).map { _ -> FTSQuery in
                    let kind = r.pick(kinds)
                    let queryWords: [FTSWord] = (0..<r.int(1...3)).map { _ in
                        // Phrases are more interesting taken from a document.
                        if kind == .phrase, let document = documents.randomElement(using: &r), !document.isEmpty,
                            r.chance(0.5)
                        {
                            return r.pick(document)
                        }
                        return r.pick(words)
                    }
                    // Prefixes of ASCII terms only: a cut inside a folded
                    // accent is not a prefix the model can tell.
                    let lengths = queryWords.map { word in
                        word.text == word.term ? r.int(1...word.text.count) : word.text.count
                    }
                    return FTSQuery(kind: kind, words: queryWords, prefixLengths: lengths)
                }
                return FTSCase(documents: documents, queries: queries)
            },
            shrink: { testCase in
                var candidates: [FTSCase] = []
                for index in testCase.documents.indices {
                    var smaller = testCase
                    smaller.documents.remove(at: index)
                    candidates.append(smaller)
                }
                if testCase.queries.count > 1 {
                    for index in testCase.queries.indices {
                        var smaller = testCase
                        smaller.queries.remove(at: index)
                        candidates.append(smaller)
                    }
                }
                return candidates
            })
    }
}
