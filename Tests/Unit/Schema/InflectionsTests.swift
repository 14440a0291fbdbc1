import Testing
@testable import GRDBLite

@Suite struct InflectionsTests {
    @Test(arguments: [
        ("team", "teams"), ("country", "countries"), ("key", "keys"), ("person", "people"),
        ("child", "children"), ("man", "men"), ("mouse", "mice"), ("box", "boxes"), ("church", "churches"),
        ("dish", "dishes"), ("class", "classes"), ("status", "statuses"), ("bus", "buses"),
        ("analysis", "analyses"), ("knife", "knives"), ("wolf", "wolves"), ("leaf", "leaves"),
        ("hero", "heroes"), ("photo", "photos"), ("sheep", "sheep"), ("information", "information"),
        ("movie", "movies"), ("index", "indices"), ("quiz", "quizzes"),
        ("postalAddress", "postalAddresses"), ("user_category", "user_categories"), ("item2", "items2"),
        ("BookAuthor", "BookAuthors"), ("Person", "People"), ("httpRequest", "httpRequests"), ("", ""),
    ])
    func pluralAndSingular(_ singular: String, _ plural: String) {
        #expect(singular.pluralized == plural)
        #expect(plural.singularized == singular)
    }

    @Test func alreadyPluralOrSingular() {
        #expect("teams".pluralized == "teams")
        #expect("people".pluralized == "people")
        #expect("team".singularized == "team")
        #expect("person".singularized == "person")
        #expect("status".singularized == "status")
        #expect("houses".singularized == "house")
        #expect("databases".singularized == "database")
    }

    @Test func customRulesApplyTheMostRecentFirst() {
        var inflections = Inflections()
        #expect(inflections.pluralize("player") == "player", "no rule: unchanged")
        inflections.plural("$", "s")
        inflections.singular("s$", "")
        #expect(inflections.pluralize("player") == "players")
        #expect(inflections.pluralize("bestPlayer2") == "bestPlayers2")
        #expect(inflections.singularize("players") == "player")
        inflections.plural("(x)$", "$1es")
        #expect(inflections.pluralize("box") == "boxes")
        inflections.plural("^(ox)$", options: [], "$1en")
        #expect(inflections.pluralize("ox") == "oxen")
        #expect(inflections.pluralize("OX") == "OXes", "the rule is case-sensitive")
    }

    @Test func irregularSuffixesAndUncountableWords() {
        var inflections = Inflections()
        inflections.plural("$", "s")
        inflections.singular("s$", "")
        inflections.irregularSuffix("man", "men")
        #expect(inflections.pluralize("woman") == "women")
        #expect(inflections.pluralize("Man") == "Men")
        #expect(inflections.singularize("superMen") == "superMan")
        inflections.irregularSuffix("person", "people")
        #expect(inflections.pluralize("Person") == "People")
        #expect(inflections.singularize("people") == "person")
        inflections.irregularSuffix("cow", "kine")
        #expect(inflections.pluralize("Cow") == "Kine")
        #expect(inflections.singularize("kine") == "cow")
        inflections.uncountableWords(["sheep"])
        #expect(inflections.pluralize("blackSheep") == "blackSheep")
        #expect(inflections.pluralize("SHEEP") == "SHEEP")
        #expect(inflections.pluralize("nosheep") == "nosheeps", "an uncountable word starts a word")
    }

    @Test func defaultInflectionsAreGRDBs() {
        // Not modified here: other suites read the default inflections
        // concurrently.
        #expect(Inflections.default.pluralize("cactus") == "cactus")
        #expect(Inflections.default.pluralize("octopus") == "octopi")
        #expect(Inflections.default.singularize("octopi") == "octopus")
        #expect(Inflections.default.pluralize("specimen") == "specimens")
        #expect(Inflections.default.pluralize("bestSpecies") == "bestSpecies")
        #expect(Inflections.default.singularize("myHTTPRequests") == "myHTTPRequest")
    }
}
