import GRDBLite
import Testing

private typealias Country = Travel.Country
private typealias CountryProfile = Travel.CountryProfile

private struct CountryInfo: Decodable, FetchableRecord, Equatable {
    var country: Country
    var countryProfile: CountryProfile?
}

@Suite struct HasOneAssociationTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try Travel.makeDatabase()
    }

    @Test func includingOptional() throws {
        try dbQueue.read { db throws in
            let request = Country.including(optional: Country.profile).orderByPrimaryKey()
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "country".*, "countryProfile".* FROM "country" \
                LEFT JOIN "countryProfile" ON "countryProfile"."countryCode" = "country"."code" \
                ORDER BY "country"."code"
                """)
            let infos = try request.asRequest(of: CountryInfo.self).fetchAll(db)
            #expect(infos == [
                CountryInfo(country: Travel.countries[3], countryProfile: nil),
                CountryInfo(country: Travel.countries[1], countryProfile: Travel.profiles[1]),
                CountryInfo(country: Travel.countries[0], countryProfile: Travel.profiles[0]),
                CountryInfo(country: Travel.countries[2], countryProfile: Travel.profiles[2]),
            ])
        }
    }

    @Test func includingRequiredWithFilter() throws {
        try dbQueue.read { db throws in
            let request = Country
                .including(required: Country.profile.filter(Column("population") > 80).forKey("profile"))
                .orderByPrimaryKey()
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "country".*, "countryProfile".* FROM "country" \
                JOIN "countryProfile" ON ("countryProfile"."countryCode" = "country"."code") \
                AND ("countryProfile"."population" > ?) \
                ORDER BY "country"."code"
                """)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["name"] as String } == ["Germany", "Japan"])
            #expect(rows.map { ($0["profile"] as CountryProfile).population } == [84, 125])
        }
    }

    @Test func requestForRecord() throws {
        try dbQueue.read { db throws in
            let request = Travel.countries[2].request(for: Country.profile)
            // The primary key of the profile is the foreign key: no LIMIT.
            #expect(try sqlAndArguments(db, request, singleResult: true).sql == """
                SELECT * FROM "countryProfile" WHERE "countryCode" = ?
                """)
            #expect(try request.fetchOne(db) == Travel.profiles[2])
            #expect(try Travel.countries[3].request(for: Country.profile).fetchOne(db) == nil)
        }
    }
}
