// The English rules of GRDB's default inflections, which are Ruby on
// Rails' frozen set (activesupport/lib/active_support/inflections.rb,
// MIT license): the same rules give the same association keys and table
// names as GRDB.

extension Inflections {
    /// The inflections of association keys and table names: English
    /// rules, which you may extend early in the life of the application.
    ///
    /// ```swift
    /// Inflections.default.irregularSuffix("cactus", "cacti")
    /// ```
    // nonisolated(unsafe): a global setting, as in GRDB: change it once,
    // before any query, and never concurrently with database accesses.
    nonisolated(unsafe) public static var `default`: Inflections = .english

    /// Rails' English rules.
    private static var english: Inflections {
        var inflections = Inflections()
        // Plural rules, the most general first (the last added is tried first).
        let pluralRules: [(String, String)] = [
            ("$", "s"), ("s$", "s"), ("^(ax|test)is$", "$1es"), ("(octop|vir)us$", "$1i"),
            ("(octop|vir)i$", "$1i"), ("(alias|bias|canvas|focus|gas|lens|status)$", "$1es"),
            ("(bu)s$", "$1ses"), ("(buffal|tomat|her)o$", "$1oes"), ("([ti])um$", "$1a"),
            ("([ti])a$", "$1a"), ("sis$", "ses"), ("(?:([^f])fe|([lr])f)$", "$1$2ves"),
            ("(hive)$", "$1s"), ("([^aeiouy]|qu)y$", "$1ies"), ("(x|ch|ss|sh)$", "$1es"),
            ("(matr|vert|ind)(?:ix|ex)$", "$1ices"), ("^(m|l)ouse$", "$1ice"), ("^(m|l)ice$", "$1ice"),
            ("^(ox)$", "$1en"), ("^(oxen)$", "$1"), ("(quiz)$", "$1zes"), ("(canva)s$", "$1ses"),
        ]
        for (pattern, template) in pluralRules { inflections.plural(pattern, template) }

        let singularRules: [(String, String)] = [
            ("s$", ""), ("(ss)$", "$1"), ("(n)ews$", "$1ews"), ("([ti])a$", "$1um"),
            ("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
            ("(^analy)(sis|ses)$", "$1sis"), ("([^f])ves$", "$1fe"), ("(hive)s$", "$1"), ("(tive)s$", "$1"),
            ("([lr])ves$", "$1f"), ("([^aeiouy]|qu)ies$", "$1y"), ("(s)eries$", "$1eries"),
            ("(m)ovies$", "$1ovie"), ("(x|ch|ss|sh)es$", "$1"), ("^(m|l)ice$", "$1ouse"),
            ("(bus)(es)?$", "$1"), ("(o)es$", "$1"), ("(shoe)s$", "$1"), ("(cris|test)(is|es)$", "$1is"),
            ("^(a)x[ie]s$", "$1xis"), ("(octop|vir)(us|i)$", "$1us"),
            ("(alias|bias|canvas|focus|gas|lens|status)(es)?$", "$1"), ("^(ox)en$", "$1"),
            ("(vert|ind)ices$", "$1ex"), ("(matr)ices$", "$1ix"), ("(quiz)zes$", "$1"), ("(database)s$", "$1"),
        ]
        for (pattern, template) in singularRules { inflections.singular(pattern, template) }

        inflections.uncountableWords([
            "advice", "corps", "dice", "equipment", "fish", "information", "jeans", "kudos", "money",
            "offspring", "police", "rice", "sheep", "species",
        ])

        let irregulars: [(String, String)] = [
            ("child", "children"), ("foot", "feet"), ("leaf", "leaves"), ("man", "men"), ("move", "moves"),
            ("person", "people"), ("sex", "sexes"), ("specimen", "specimens"), ("zombie", "zombies"),
        ]
        for (singular, plural) in irregulars { inflections.irregularSuffix(singular, plural) }
        return inflections
    }
}
