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
}
