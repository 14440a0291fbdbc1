import Foundation
import Testing
import GRDBLite
import TestSupport

// The JSON example of the article "Full-Text Search and JSON", as
// written there, on a `DatabaseQueue` and on a `DatabasePool` (`dbQueue`
// is either).

private struct Address: Codable {
    var city: String
    var country: String
}

private struct Customer: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var address: Address // stored as JSON text

    enum Columns {
        static let name = Column(CodingKeys.name)
        static let address = JSONColumn(CodingKeys.address)
    }
}

@Suite struct ReadmeExamplesJSONTests {
    @Test(arguments: WriterKind.allCases)
    func json(kind: WriterKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try kind.make(directory)

        try dbQueue.write { db in
            try db.create(table: "customer") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("address", .jsonText).notNull()
            }
            try Customer(id: 1, name: "Arthur", address: Address(city: "Paris", country: "FR")).insert(db)
            try Customer(id: 2, name: "Barbara", address: Address(city: "Berlin", country: "DE")).insert(db)

            // SELECT * FROM customer WHERE address ->> 'country' = 'FR'
            let french = try Customer.filter { $0.address["country"] == "FR" }.fetchAll(db)

            // SELECT address ->> 'city' FROM customer ORDER BY name
            let cities = try Customer.order(\.name).select({ $0.address["city"] }, as: String.self).fetchAll(db)

            #expect(french.map(\.name) == ["Arthur"])
            #expect(french.first?.address.city == "Paris")
            #expect(cities == ["Paris", "Berlin"])
        }
    }
}
