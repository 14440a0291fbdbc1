/// English singular and plural forms of identifiers, so that
/// `belongsTo("team")` finds a `teams` table.
///
/// Only the last word of an identifier changes (`postalAddress` →
/// `postalAddresses`, `user_category` → `user_categories`), and trailing
/// digits are kept (`item2` → `items2`). The rules cover regular English
/// nouns and the common irregular ones; they are not a dictionary.
enum Inflections {
    /// Words whose plural is themselves.
    private static let uncountables: Set<String> = [
        "advice", "data", "equipment", "feedback", "fish", "information", "metadata",
        "money", "news", "police", "rice", "series", "sheep", "species", "software",
    ]

    /// Irregular singular → plural.
    private static let irregulars: [String: String] = [
        "child": "children", "foot": "feet", "goose": "geese", "man": "men",
        "mouse": "mice", "ox": "oxen", "person": "people", "tooth": "teeth",
        "woman": "women", "leaf": "leaves", "index": "indices", "matrix": "matrices",
        "vertex": "vertices", "quiz": "quizzes", "criterion": "criteria",
    ]

    private static let singularOfIrregular: [String: String] =
        Dictionary(uniqueKeysWithValues: irregulars.map { ($1, $0) })

    /// Words in -o that take -es.
    private static let oesWords: Set<String> = ["buffalo", "echo", "hero", "potato", "tomato", "veto"]

    /// Words in -s that take -es.
    private static let sesWords: Set<String> = [
        "alias", "bias", "bonus", "bus", "campus", "canvas", "census", "focus",
        "gas", "lens", "status", "virus",
    ]

    /// Greek and Latin words in -sis, plural -ses.
    private static let sisWords: Set<String> = [
        "analysis", "axis", "basis", "crisis", "diagnosis", "ellipsis", "hypothesis",
        "oasis", "parenthesis", "prognosis", "synopsis", "synthesis", "thesis",
    ]

    static func pluralize(_ string: String) -> String {
        inflectLastWord(of: string, with: pluralizeWord)
    }

    static func singularize(_ string: String) -> String {
        inflectLastWord(of: string, with: singularizeWord)
    }

    /// Applies `inflect` to the lowercased last word, and restores the
    /// case of its first letter.
    private static func inflectLastWord(of string: String, with inflect: (String) -> String) -> String {
        let radicalEnd = string.lastIndex { !$0.isNumber }.map { string.index(after: $0) } ?? string.startIndex
        let radical = string[..<radicalEnd]
        var wordStart = radical.startIndex
        var previous: Character?
        for index in radical.indices {
            let character = radical[index]
            if character == "_" || character == " " || character == "-" {
                wordStart = radical.index(after: index)
            } else if character.isUppercase, let previous, !previous.isUppercase, previous != "_" {
                wordStart = index
            }
            previous = character
        }
        let word = String(radical[wordStart...])
        guard let first = word.first else { return string }
        var inflected = inflect(word.lowercased())
        if first.isUppercase, let head = inflected.first {
            inflected = head.uppercased() + inflected.dropFirst()
        }
        return radical[..<wordStart] + inflected + string[radicalEnd...]
    }

    private static func pluralizeWord(_ word: String) -> String {
        if uncountables.contains(word) || singularOfIrregular[word] != nil { return word }
        if let plural = irregulars[word] { return plural }
        if sisWords.contains(word) { return word.dropLast(2) + "es" }
        if oesWords.contains(word) { return word + "es" }
        if sesWords.contains(word) || word.hasSuffix("ss") || word.hasSuffix("x")
            || word.hasSuffix("z") || word.hasSuffix("ch") || word.hasSuffix("sh")
        {
            return word + "es"
        }
        if word.hasSuffix("s") { return word } // already plural
        if word.hasSuffix("y"), let beforeY = word.dropLast().last, !"aeiou".contains(beforeY) {
            return word.dropLast() + "ies"
        }
        if word.hasSuffix("fe"), !word.hasSuffix("ffe") { return word.dropLast(2) + "ves" }
        if word.hasSuffix("lf") || word.hasSuffix("rf") { return word.dropLast() + "ves" }
        return word + "s"
    }

    private static func singularizeWord(_ word: String) -> String {
        if uncountables.contains(word) || irregulars[word] != nil { return word }
        if let singular = singularOfIrregular[word] { return singular }
        if word.hasSuffix("ses"), sisWords.contains(word.dropLast(2) + "is") { return word.dropLast(2) + "is" }
        if word.hasSuffix("oes"), oesWords.contains(String(word.dropLast(2))) { return String(word.dropLast(2)) }
        if word.hasSuffix("es"), sesWords.contains(String(word.dropLast(2))) { return String(word.dropLast(2)) }
        if word.hasSuffix("ovies") { return String(word.dropLast()) }
        if word.hasSuffix("ies"), word.count > 4 { return word.dropLast(3) + "y" }
        if word.hasSuffix("lves") || word.hasSuffix("rves") { return word.dropLast(3) + "f" }
        if word.hasSuffix("ives"), !word.hasSuffix("tives"), !word.hasSuffix("hives") {
            return word.dropLast(3) + "fe"
        }
        for suffix in ["sses", "xes", "ches", "shes"] where word.hasSuffix(suffix) {
            return String(word.dropLast(2))
        }
        if word.hasSuffix("ss") || word.hasSuffix("us") || word.hasSuffix("is") { return word }
        if word.hasSuffix("s") { return String(word.dropLast()) }
        return word
    }
}

extension String {
    /// The English plural of the last word: `"team"` → `"teams"`.
    var pluralized: String { Inflections.pluralize(self) }

    /// The English singular of the last word: `"teams"` → `"team"`.
    var singularized: String { Inflections.singularize(self) }

    /// The string with an uppercase first character: `"id"` → `"Id"`.
    var uppercasingFirstCharacter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
