import GRDBLite
import Testing

private typealias Country = Travel.Country
private typealias Citizen = Travel.Citizen
private typealias Passport = Travel.Passport

// hasMany(_:through:using:) and hasOne(_:through:using:)
@Suite struct ThroughAssociationTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try Travel.makeDatabase()
    }

    @Test func joinedThroughThePivot() throws {
        try dbQueue.read { db throws in
            struct Citizenship: Decodable, FetchableRecord {
                var country: Country
                var citizen: Citizen
            }
            let request = Country.including(required: Country.citizens)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "country".*, "citizen".* FROM "country" \
                JOIN "passport" ON "passport"."countryCode" = "country"."code" \
                JOIN "citizen" ON "citizen"."id" = "passport"."citizenId"
                """)
            // The scope of the citizen is inside the scope of the pivot.
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes.names == ["passport"])
            #expect(row.scopes["passport"]?.count == 0)
            #expect(row.scopes["passport"]?.scopes.names == ["citizen"])
            #expect(row.scopesTree["citizen"] != nil)

            let pairs = try request.asRequest(of: Citizenship.self).fetchAll(db)
                .map { "\($0.country.code) \($0.citizen.name)" }
            #expect(pairs.sorted() == ["DE Arthur", "DE Barbara", "FR Arthur", "FR Craig", "JP Diane"])
        }
    }

    @Test func includingThePivotToo() throws {
        try dbQueue.read { db throws in
            let request = Country
                .including(required: Country.citizens)
                .including(required: Country.passports)
                .filter(key: "JP")
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "country".*, "passport".*, "citizen".* FROM "country" \
                JOIN "passport" ON "passport"."countryCode" = "country"."code" \
                JOIN "citizen" ON "citizen"."id" = "passport"."citizenId" \
                WHERE "country"."code" = ?
                """)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row["passport"] as Passport == Travel.passports[3])
            #expect(row["citizen"] as Citizen == Travel.citizens[3])
        }
    }

    @Test func prefetchedThroughThePivot() throws {
        try dbQueue.read { db throws in
            struct CountryCitizens: Decodable, FetchableRecord {
                var country: Country
                var citizens: [Citizen]
            }
            let request = Country.including(all: Country.citizens.order(Column("name"))).orderByPrimaryKey()
            var careers: [CountryCitizens] = []
            let statements = try recordedSQLWithWarmCache(db) {
                careers = try request.asRequest(of: CountryCitizens.self).fetchAll(db)
            }
            #expect(statements == [
                #"SELECT * FROM "country" ORDER BY "code""#,
                #"SELECT "citizen".*, "passport"."countryCode" AS "grdb_countryCode" FROM "citizen" "#
                    + #"JOIN "passport" ON ("passport"."citizenId" = "citizen"."id") "#
                    + #"AND ("passport"."countryCode" IN (?, ?, ?, ?)) ORDER BY "citizen"."name""#,
            ])
            #expect(careers.map(\.country.code) == ["CH", "DE", "FR", "JP"])
            #expect(
                careers.map { $0.citizens.map(\.name) } == [[], ["Arthur", "Barbara"], ["Arthur", "Craig"], ["Diane"]])
        }
    }

    /// As GRDB: two prefetches through pivots of the same key share their
    /// pivots' filters (GRDB joins them as one pivot); pivots of distinct
    /// keys keep their own.
    @Test func prefetchesThroughPivotsOfOneKeyShareTheirFilters() throws {
        try dbQueue.read { db throws in
            func citizens(through passports: HasManyAssociation<Country, Passport>, key: String)
                -> HasManyThroughAssociation<Country, Citizen>
            {
                Country.hasMany(Citizen.self, through: passports, using: Passport.citizen).forKey(key)
            }
            func prefetch(_ old: HasManyAssociation<Country, Passport>, _ recent: HasManyAssociation<Country, Passport>)
                throws -> (statements: [String], rows: [Row])
            {
                let request = Country
                    .including(all: citizens(through: old, key: "old").orderByPrimaryKey())
                    .including(all: citizens(through: recent, key: "recent").orderByPrimaryKey())
                    .filter(key: "DE")
                var rows: [Row] = []
                let statements = try recordedSQLWithWarmCache(db) { rows = try Row.fetchAll(db, request) }
                return (statements, rows)
            }
            let old = Country.passports.filter(Column("issueYear") < 2014)
            let recent = Country.passports.filter(Column("issueYear") >= 2014)
            let shared = try prefetch(old, recent)
            #expect(shared.statements.count == 3)
            for statement in shared.statements.dropFirst() {
                #expect(statement.contains(#"AND ("passport"."issueYear" < ?) AND ("passport"."issueYear" >= ?) AND"#))
            }
            #expect(shared.rows.map { $0.prefetchedRows["old"]?.count } == [0])
            #expect(shared.rows.map { $0.prefetchedRows["recent"]?.count } == [0])

            let apart = try prefetch(old.forKey("oldPassports"), recent.forKey("recentPassports"))
            #expect(apart.statements.dropFirst().map { $0.contains(#""issueYear" >= ?"#) } == [false, true])
            #expect(apart.rows.map { ($0["old"] as [Citizen]).map(\.name) } == [["Barbara"]])
            #expect(apart.rows.map { ($0["recent"] as [Citizen]).map(\.name) } == [["Arthur"]])
        }
    }

    @Test func prefetchedFromTheOtherSide() throws {
        try dbQueue.read { db throws in
            let request = Citizen.including(all: Citizen.countries).orderByPrimaryKey()
            let rows = try Row.fetchAll(db, request)
            #expect(
                rows.map { ($0["countries"] as [Country]).map(\.code).sorted() } == [
                    ["DE", "FR"], ["DE"], ["FR"], ["JP"]
                ])
        }
    }

    @Test func requestForRecord() throws {
        try dbQueue.read { db throws in
            let france = Travel.countries[0]
            let request = france.request(for: Country.citizens)
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "citizen".* FROM "citizen" \
                JOIN "passport" ON ("passport"."citizenId" = "citizen"."id") AND ("passport"."countryCode" = ?)
                """)
            #expect(try request.order(Column("id")).fetchAll(db) == [Travel.citizens[0], Travel.citizens[2]])
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func aggregateThroughThePivot() throws {
        try dbQueue.read { db throws in
            let request = Country.annotated(with: Country.citizens.count).orderByPrimaryKey()
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "country".*, COUNT(DISTINCT "citizen"."id") AS "citizenCount" FROM "country" \
                LEFT JOIN "passport" ON "passport"."countryCode" = "country"."code" \
                LEFT JOIN "citizen" ON "citizen"."id" = "passport"."citizenId" \
                GROUP BY "country"."rowid" ORDER BY "country"."code"
                """)
            #expect(try Row.fetchAll(db, request).map { $0["citizenCount"] as Int } == [0, 2, 2, 1])
        }
    }

    @Test func hasOneThrough() throws {
        try dbQueue.read { db throws in
            struct PassportInfo: Decodable, FetchableRecord {
                var passport: Passport
                var birthCountry: Country?
            }
            let request = Passport.including(optional: Passport.birthCountry).order(Column("issueYear"))
            #expect(try sqlAndArguments(db, request).sql == """
                SELECT "passport".*, "country".* FROM "passport" \
                LEFT JOIN "citizen" ON "citizen"."id" = "passport"."citizenId" \
                LEFT JOIN "country" ON "country"."code" = "citizen"."birthCountryCode" \
                ORDER BY "passport"."issueYear"
                """)
            let infos = try request.asRequest(of: PassportInfo.self).fetchAll(db)
            #expect(infos.map { "\($0.passport.issueYear) \($0.birthCountry?.code ?? "-")" } == [
                "2010 FR", "2012 DE", "2015 FR", "2018 -", "2020 JP",
            ])

            let passport = Travel.passports[2]
            let countryRequest = passport.request(for: Passport.birthCountry)
            #expect(try sqlAndArguments(db, countryRequest).sql == """
                SELECT "country".* FROM "country" \
                JOIN "citizen" ON ("citizen"."birthCountryCode" = "country"."code") AND ("citizen"."id" = ?)
                """)
            #expect(try countryRequest.fetchOne(db) == Travel.countries[1])
        }
    }

    @Test func keyOfThroughAssociation() throws {
        try dbQueue.read { db throws in
            let residents = Country.hasMany(
                Citizen.self, through: Country.passports, using: Passport.citizen, key: "residents")
            let row = try #require(try Row.fetchOne(db, Country.including(all: residents).filter(key: "DE")))
            #expect(row.prefetchedRows.keys == ["residents"])
            #expect((row["residents"] as [Citizen]).count == 2)
        }
    }
}
