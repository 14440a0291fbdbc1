import Foundation

/// Singular and plural forms of English identifiers, so that
/// `belongsTo(Team.self)` finds a `teams` table and `hasMany(Book.self)`
/// has the key `books`.
///
/// Only the last word of an identifier changes (`postalAddress` →
/// `postalAddresses`, `user_category` → `user_categories`), and trailing
/// digits are kept (`item2` → `items2`). An inflection is a list of rules,
/// each a regular expression and a replacement template; the rule added
/// last is tried first.
///
/// ```swift
/// Inflections.default.irregularSuffix("cactus", "cacti")
/// Inflections.default.uncountableWords(["metadata"])
/// ```
public struct Inflections: Sendable {
    /// A regular expression and its replacement template.
    // @unchecked Sendable: NSRegularExpression is immutable, and
    // Foundation documents it as safe to use from several threads.
    private struct Rule: @unchecked Sendable {
        let expression: NSRegularExpression
        let template: String
    }

    private var pluralRules: [Rule] = []
    private var singularRules: [Rule] = []
    /// Lowercased words that have no plural form.
    private var uncountableSet: Set<String> = []

    /// The uncountable words, lowercased.
    var uncountables: Set<String> { uncountableSet }

    /// An inflection without rules: words are left as they are.
    public init() { }

    // MARK: - Rules

    /// Adds a rule of plural forms: the words that match `pattern` get
    /// their match replaced by `template` (`$1` for the first group).
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.pluralize("player") // "players"
    /// ```
    public mutating func plural(
        _ pattern: String,
        options: NSRegularExpression.Options = [.caseInsensitive],
        _ template: String)
    {
        pluralRules.append(Self.rule(pattern, options, template))
    }

    /// Adds a rule of singular forms: the words that match `pattern` get
    /// their match replaced by `template` (`$1` for the first group).
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.singular("s$", "")
    /// inflections.singularize("players") // "player"
    /// ```
    public mutating func singular(
        _ pattern: String,
        options: NSRegularExpression.Options = [.caseInsensitive],
        _ template: String)
    {
        singularRules.append(Self.rule(pattern, options, template))
    }

    /// Adds words that stay as they are in both directions (`"sheep"`),
    /// also at the end of an identifier (`blackSheep`), whatever their case.
    public mutating func uncountableWords(_ words: [String]) {
        for word in words { uncountableSet.insert(word.lowercased()) }
    }

    /// Adds an irregular pair of forms, also as the end of longer words
    /// (`"man"`/`"men"` gives `"woman"`/`"women"`). The case of the first
    /// letter of the inflected word is kept.
    public mutating func irregularSuffix(_ singular: String, _ plural: String) {
        guard let singularHead = singular.first, let pluralHead = plural.first else { return }
        let singularTail = NSRegularExpression.escapedPattern(for: String(singular.dropFirst()))
        let pluralTail = NSRegularExpression.escapedPattern(for: String(plural.dropFirst()))
        let templateSingularTail = NSRegularExpression.escapedTemplate(for: String(singular.dropFirst()))
        let templatePluralTail = NSRegularExpression.escapedTemplate(for: String(plural.dropFirst()))
        if singularHead.uppercased() == pluralHead.uppercased() {
            // Same first letter: keep the one of the word.
            let head = NSRegularExpression.escapedPattern(for: String(singularHead))
            for tail in [singularTail, pluralTail] {
                self.plural("(\(head))\(tail)$", options: [.caseInsensitive], "$1\(templatePluralTail)")
                self.singular("(\(head))\(tail)$", options: [.caseInsensitive], "$1\(templateSingularTail)")
            }
        } else {
            // Different first letters: one rule per case of the first letter.
            for (from, tail) in [(singularHead, singularTail), (pluralHead, pluralTail)] {
                for upper in [true, false] {
                    let head = NSRegularExpression.escapedPattern(for: upper ? from.uppercased() : from.lowercased())
                    let pluralForm = (upper ? pluralHead.uppercased() : pluralHead.lowercased()) + templatePluralTail
                    let singularForm =
                        (upper ? singularHead.uppercased() : singularHead.lowercased()) + templateSingularTail
                    self.plural("\(head)(?i)\(tail)$", options: [], pluralForm)
                    self.singular("\(head)(?i)\(tail)$", options: [], singularForm)
                }
            }
        }
    }

    private static func rule(_ pattern: String, _ options: NSRegularExpression.Options, _ template: String) -> Rule {
        do {
            return try Rule(expression: NSRegularExpression(pattern: pattern, options: options), template: template)
        } catch {
            preconditionFailure("Invalid inflection pattern \(String(reflecting: pattern)): \(error)")
        }
    }

    // MARK: - Inflecting

    /// The plural form of the last word of `string`:
    /// `Inflections.default.pluralize("bookAuthor")` is `"bookAuthors"`.
    public func pluralize(_ string: String) -> String {
        inflect(string, with: pluralRules)
    }

    /// The singular form of the last word of `string`:
    /// `Inflections.default.singularize("people")` is `"person"`.
    public func singularize(_ string: String) -> String {
        inflect(string, with: singularRules)
    }

    private func inflect(_ string: String, with rules: [Rule]) -> String {
        let wordStart = Self.startIndexOfLastWord(string)
        let radicalEnd = Self.endIndexOfDigitlessRadical(string)
        guard wordStart < radicalEnd else { return string }
        let word = String(string[wordStart..<radicalEnd])
        if isUncountable(word) { return string }
        return string[..<wordStart] + Self.apply(rules, to: word) + string[radicalEnd...]
    }

    /// Whether the word ends with an uncountable word, which starts a word.
    private func isUncountable(_ word: String) -> Bool {
        let lowercased = word.lowercased()
        for uncountable in uncountableSet where lowercased.hasSuffix(uncountable) {
            let start = lowercased.index(lowercased.endIndex, offsetBy: -uncountable.count)
            if start == lowercased.startIndex || !Self.isWordCharacter(lowercased[lowercased.index(before: start)]) {
                return true
            }
        }
        return false
    }

    /// The word, rewritten by the most recent rule that matches it.
    private static func apply(_ rules: [Rule], to word: String) -> String {
        let range = NSRange(word.startIndex..., in: word)
        for rule in rules.reversed() where rule.expression.firstMatch(in: word, range: range) != nil {
            return rule.expression.stringByReplacingMatches(in: word, range: range, withTemplate: rule.template)
        }
        return word
    }

    // MARK: - Words

    /// Where the last word of an identifier starts: after the last space
    /// or punctuation (`best player` → `player`), after the last
    /// underscore (`best_player` → `player`), or at the last capitalized
    /// word of camel case (`bestPlayer` → `Player`, `myHTTPRequest` →
    /// `HTTPRequest`).
    static func startIndexOfLastWord(_ string: String) -> String.Index {
        var candidates: [String.Index] = []
        // After the last character that is not part of a word.
        if let last = string.last, isWordCharacter(last) {
            candidates.append(string.lastIndex { !isWordCharacter($0) }.map(string.index(after:)) ?? string.startIndex)
        }
        // After the last underscore, if a word follows.
        if let underscore = string.lastIndex(of: "_"), string.index(after: underscore) < string.endIndex {
            candidates.append(string.index(after: underscore))
        }
        // Camel case: lowercase letters and digits (not 0) at the end, after
        // uppercase letters, after anything else.
        let tailStart = string.lastIndex { !isCamelTail($0) }.map(string.index(after:)) ?? string.startIndex
        if tailStart < string.endIndex, tailStart > string.startIndex {
            let capitalsStart =
                string[..<tailStart].lastIndex { !isASCIIUppercase($0) }.map(string.index(after:)) ?? string.startIndex
            if capitalsStart < tailStart, capitalsStart > string.startIndex {
                candidates.append(capitalsStart)
            }
        }
        return candidates.max() ?? string.startIndex
    }

    /// Where the trailing digits of a string start: `item12` → `12`.
    static func endIndexOfDigitlessRadical(_ string: String) -> String.Index {
        string.lastIndex { !("0"..."9").contains($0) }.map(string.index(after:)) ?? string.startIndex
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    private static func isASCIIUppercase(_ character: Character) -> Bool {
        ("A"..."Z").contains(character)
    }

    private static func isCamelTail(_ character: Character) -> Bool {
        ("a"..."z").contains(character) || ("1"..."9").contains(character)
    }
}

extension String {
    /// The plural of the last word, by ``Inflections/default``:
    /// `"team"` → `"teams"`.
    var pluralized: String { Inflections.default.pluralize(self) }

    /// The singular of the last word, by ``Inflections/default``:
    /// `"teams"` → `"team"`.
    var singularized: String { Inflections.default.singularize(self) }

    /// The string without its trailing digits: `"item12"` → `"item"`.
    var digitlessRadical: String {
        String(self[..<Inflections.endIndexOfDigitlessRadical(self)])
    }

    /// The string with an uppercase first character: `"id"` → `"Id"`.
    var uppercasingFirstCharacter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
