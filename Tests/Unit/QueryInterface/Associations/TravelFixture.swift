import GRDBLite

// Countries, citizens and their passports: a to-one association (a
// country has one profile), associations through a pivot (a country has
// many citizens through passports), a text primary key, a composite
// primary key, and a composite foreign key (stamps of a passport).

enum Travel {
    struct Country: Codable, Hashable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "country"
        var code: String
        var name: String
    }

    struct CountryProfile: Codable, Hashable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "countryProfile"
        var countryCode: String
        var population: Int
    }

    struct Citizen: Codable, Hashable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "citizen"
        var id: Int64
        var name: String
        var birthCountryCode: String?
    }

    struct Passport: Codable, Hashable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "passport"
        var countryCode: String
        var citizenId: Int64
        var issueYear: Int
    }

    struct Stamp: Codable, Hashable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "stamp"
        var id: Int64
        var countryCode: String
        var citizenId: Int64
        var place: String
    }

    static let countries = [
        Country(code: "FR", name: "France"),
        Country(code: "DE", name: "Germany"),
        Country(code: "JP", name: "Japan"),
        Country(code: "CH", name: "Switzerland"),   // no profile, passport, native
    ]
    static let profiles = [
        CountryProfile(countryCode: "FR", population: 68),
        CountryProfile(countryCode: "DE", population: 84),
        CountryProfile(countryCode: "JP", population: 125),
    ]
    static let citizens = [
        Citizen(id: 1, name: "Arthur", birthCountryCode: "FR"),
        Citizen(id: 2, name: "Barbara", birthCountryCode: "DE"),
        Citizen(id: 3, name: "Craig", birthCountryCode: nil),
        Citizen(id: 4, name: "Diane", birthCountryCode: "JP"),
    ]
    static let passports = [
        Passport(countryCode: "FR", citizenId: 1, issueYear: 2010),
        Passport(countryCode: "DE", citizenId: 1, issueYear: 2015),
        Passport(countryCode: "DE", citizenId: 2, issueYear: 2012),
        Passport(countryCode: "JP", citizenId: 4, issueYear: 2020),
        Passport(countryCode: "FR", citizenId: 3, issueYear: 2018),
    ]
    static let stamps = [
        Stamp(id: 1, countryCode: "FR", citizenId: 1, place: "Paris"),
        Stamp(id: 2, countryCode: "FR", citizenId: 1, place: "Lyon"),
        Stamp(id: 3, countryCode: "DE", citizenId: 2, place: "Berlin"),
        Stamp(id: 4, countryCode: "JP", citizenId: 4, place: "Kyoto"),
    ]

    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT NOT NULL PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE countryProfile (
                    countryCode TEXT NOT NULL PRIMARY KEY REFERENCES country(code),
                    population INTEGER NOT NULL);
                CREATE TABLE citizen (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    birthCountryCode TEXT REFERENCES country(code));
                CREATE TABLE passport (
                    countryCode TEXT NOT NULL REFERENCES country(code),
                    citizenId INTEGER NOT NULL REFERENCES citizen(id),
                    issueYear INTEGER NOT NULL,
                    PRIMARY KEY (countryCode, citizenId));
                CREATE TABLE stamp (
                    id INTEGER PRIMARY KEY,
                    countryCode TEXT NOT NULL,
                    citizenId INTEGER NOT NULL,
                    place TEXT NOT NULL,
                    FOREIGN KEY (countryCode, citizenId) REFERENCES passport(countryCode, citizenId));
                """)
            for country in countries { try country.insert(db) }
            for profile in profiles { try profile.insert(db) }
            for citizen in citizens { try citizen.insert(db) }
            for passport in passports { try passport.insert(db) }
            for stamp in stamps { try stamp.insert(db) }
        }
        return dbQueue
    }
}

extension Travel.Country {
    static let profile = hasOne(Travel.CountryProfile.self)
    static let passports = hasMany(Travel.Passport.self)
    static let citizens = hasMany(Travel.Citizen.self, through: passports, using: Travel.Passport.citizen)
    static let natives = hasMany(Travel.Citizen.self, key: "natives")
}

extension Travel.Citizen {
    static let birthCountry = belongsTo(Travel.Country.self, key: "birthCountry")
    static let passports = hasMany(Travel.Passport.self)
    static let countries = hasMany(Travel.Country.self, through: passports, using: Travel.Passport.country)
}

extension Travel.Passport {
    static let country = belongsTo(Travel.Country.self)
    static let citizen = belongsTo(Travel.Citizen.self)
    static let stamps = hasMany(Travel.Stamp.self)
    static let birthCountry = hasOne(Travel.Country.self, through: citizen, using: Travel.Citizen.birthCountry)
}

extension Travel.Stamp {
    static let passport = belongsTo(Travel.Passport.self)
}
