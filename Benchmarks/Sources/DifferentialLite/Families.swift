#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram
import Foundation

// MARK: Row adapters

enum AdaptedFetches {
    static func adapter(_ use: AdapterUse) -> any RowAdapter {
        switch use {
        case .suffix(let index): return SuffixRowAdapter(fromIndex: index)
        case let .range(lower, upper): return RangeRowAdapter(lower..<upper)
        case .columnMapping(let mapping): return ColumnMapping(mapping)
        case .scopeWithBase:
            return ScopeAdapter(base: RangeRowAdapter(0..<5), scopes: ["team": SuffixRowAdapter(fromIndex: 5)])
        case .scopes:
            return ScopeAdapter(["player": RangeRowAdapter(0..<5), "team": SuffixRowAdapter(fromIndex: 5)])
        case .nestedScopes:
            return ScopeAdapter(["team": ScopeAdapter(
                base: SuffixRowAdapter(fromIndex: 5), scopes: ["place": ColumnMapping(["town": "city"])])])
        case .splitting(let counts):
            let adapters = splittingRowAdapters(columnCounts: counts)
            var scopes: [String: any RowAdapter] = [:]
            for (index, adapter) in adapters.enumerated().dropFirst() { scopes["s\(index)"] = adapter }
            return ScopeAdapter(base: adapters[0], scopes: scopes)
        case .empty: return EmptyRowAdapter()
        case .addingScopes: return RangeRowAdapter(0..<5).addingScopes(["team": SuffixRowAdapter(fromIndex: 5)])
        case .renameColumns(let uppercased):
            return uppercased ? RenameColumnAdapter { $0.uppercased() } : RenameColumnAdapter { "t_" + $0 }
        }
    }

    static func fetch(_ fetch: AdaptedFetch, _ db: Database) throws -> String {
        let sql = AdaptedFetch.sql
        let arguments: StatementArguments = [fetch.minimumScore]
        let adapter = adapter(fetch.adapter)
        switch fetch.fetch {
        case .rows:
            return try Row.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter)
                .map(Canonical.text).joined(separator: "\n")
        case .row:
            guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments, adapter: adapter) else { return "nil" }
            return Canonical.text(row) + " unadapted: " + Canonical.text(row.unadapted)
        case .cursor:
            return try Array(Row.fetchCursor(db, sql: sql, arguments: arguments, adapter: adapter).map { $0.copy() })
                .map(Canonical.text).joined(separator: "\n")
        case .players:
            return try Player.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter)
                .map(Canonical.text).joined(separator: "\n")
        case .teams:
            return try Team.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter)
                .map(Canonical.text).joined(separator: "\n")
        case .request:
            return try SQLRequest<Row>(sql: sql, arguments: arguments, adapter: adapter).fetchAll(db)
                .map(Canonical.text).joined(separator: "\n")
        case .adaptedTwice:
            let first = ScopeAdapter(["first": RangeRowAdapter(0..<1)])
            return try SQLRequest<Row>(sql: sql, arguments: arguments, adapter: first).adapted { _ in adapter }
                .fetchAll(db).map(Canonical.text).joined(separator: "\n")
        case .playerInfos:
            return try PlayerInfo.fetchAll(db, sql: sql, arguments: arguments, adapter: adapter)
                .map(\.text).joined(separator: "\n")
        }
    }
}

/// A `Decodable` record of records: each from the scope of its name.
struct PlayerInfo: Decodable, FetchableRecord {
    var player: Player
    var team: TeamInfo?

    var text: String {
        "PlayerInfo(player: \(Canonical.text(player)), team: \(team.map { "\($0)" } ?? "nil"))"
    }
}

/// The `Decodable` team of a ``PlayerInfo``.
struct TeamInfo: Decodable, FetchableRecord {
    var id: Int64?
    var name: String?
    var city: String?
}

// MARK: Codable strategies

/// The strategies of one `Stamp` type.
protocol StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy
    static var dataEncoding: DatabaseDataEncodingStrategy { get }
    static var dataDecoding: DatabaseDataDecodingStrategy { get }
    static var snakeCase: (encoding: Bool, decoding: Bool) { get }
    static var columnEncoding: DatabaseColumnEncodingStrategy? { get }
    static var columnDecoding: DatabaseColumnDecodingStrategy? { get }
    static var uuidEncoding: DatabaseUUIDEncodingStrategy { get }
}

extension StampStrategies {
    static var dataEncoding: DatabaseDataEncodingStrategy { .deferredToData }
    static var dataDecoding: DatabaseDataDecodingStrategy { .deferredToData }
    static var snakeCase: (encoding: Bool, decoding: Bool) { (false, false) }
    static var columnEncoding: DatabaseColumnEncodingStrategy? { nil }
    static var columnDecoding: DatabaseColumnDecodingStrategy? { nil }
    static var uuidEncoding: DatabaseUUIDEncodingStrategy { .deferredToUUID }
}

enum PlainProfile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy { .deferredToDate }
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy { .deferredToDate }
}

enum IntervalProfile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy {
        column == "day" ? .deferredToDate : .timeIntervalSince1970
    }

    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy {
        column == "day" ? .deferredToDate : .timeIntervalSince1970
    }

    static var uuidEncoding: DatabaseUUIDEncodingStrategy { .lowercaseString }
}

enum MillisecondsProfile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
    static var dataEncoding: DatabaseDataEncodingStrategy { .text }
}

enum Iso8601Profile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy { .iso8601 }
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy { .iso8601 }
    static var snakeCase: (encoding: Bool, decoding: Bool) { (true, true) }
    static var uuidEncoding: DatabaseUUIDEncodingStrategy { .uppercaseString }
}

enum SecondsProfile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy { .secondsSince1970 }
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
    static var snakeCase: (encoding: Bool, decoding: Bool) { (true, false) }
}

enum ReferenceDateProfile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy { .timeIntervalSinceReferenceDate }
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy { .deferredToDate }
}

enum CustomProfile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy {
        .custom { "\($0.timeIntervalSince1970)" }
    }

    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy {
        .custom { value in String.fromDatabaseValue(value).flatMap(Double.init).map(Date.init(timeIntervalSince1970:)) }
    }

    static var dataEncoding: DatabaseDataEncodingStrategy {
        .custom { data in data.map { String(format: "%02x", $0) }.joined() }
    }

    static var dataDecoding: DatabaseDataDecodingStrategy {
        .custom { value in
            guard let text = String.fromDatabaseValue(value), text.count.isMultiple(of: 2) else { return nil }
            var bytes: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return Data(bytes)
        }
    }
}

enum MismatchedProfile: StampStrategies {
    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy { .deferredToDate }
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy {
        column == "day" ? .millisecondsSince1970 : .iso8601
    }
}

enum FormattedProfile: StampStrategies {
    /// Milliseconds, in UTC. A formatter isn't `Sendable`: each strategy has its own.
    static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "yyyy/MM/dd HH:mm:ss.SSS"
        return formatter
    }

    static func dateEncoding(_ column: String) -> DatabaseDateEncodingStrategy { .formatted(formatter()) }
    static func dateDecoding(_ column: String) -> DatabaseDateDecodingStrategy { .formatted(formatter()) }
    static var columnEncoding: DatabaseColumnEncodingStrategy? { .custom { $0.stringValue.uppercased() } }
    static var columnDecoding: DatabaseColumnDecodingStrategy? {
        // Not `created_at` too, whose key would be the same (see `StampProfile.decodesSnakeCase`).
        .custom { column in StampKey(stringValue: column == "created_at" ? "snake" : column) }
    }
}

/// A coding key of any name.
struct StampKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

/// The second `Codable` record: its strategies are its profile's.
struct Stamp<Profile: StampStrategies>: Codable, FetchableRecord, MutablePersistableRecord {
    static var databaseTableName: String { "stamp" }
    var id: Int64?
    var createdAt: Date?
    var day: Date?
    var payload: Data?
    var token: UUID?

    init(createdAt: Date?, day: Date?, payload: Data?, token: UUID?) {
        self.createdAt = createdAt
        self.day = day
        self.payload = payload
        self.token = token
    }

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        Profile.dateEncoding(column)
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        Profile.dateDecoding(column)
    }

    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        Profile.dataEncoding
    }

    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        Profile.dataDecoding
    }

    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        Profile.uuidEncoding
    }

    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy {
        Profile.columnEncoding ?? (Profile.snakeCase.encoding ? .convertToSnakeCase : .useDefaultKeys)
    }

    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
        Profile.columnDecoding ?? (Profile.snakeCase.decoding ? .convertFromSnakeCase : .useDefaultKeys)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var text: String {
        func date(_ date: Date?) -> String { date.map { "\($0.timeIntervalSince1970)" } ?? "nil" }
        return "Stamp(id: \(id.map(String.init) ?? "nil"), createdAt: \(date(createdAt)), day: \(date(day)), "
            + "payload: \(payload.map { "\(Array($0))" } ?? "nil"), token: \(token.map(\.uuidString) ?? "nil"))"
    }
}

enum StampSteps {
    static func perform(_ step: StampStep, _ db: Database) throws -> String {
        switch step.profile {
        case .plain: try perform(PlainProfile.self, step.profile, step.operation, db)
        case .interval: try perform(IntervalProfile.self, step.profile, step.operation, db)
        case .milliseconds: try perform(MillisecondsProfile.self, step.profile, step.operation, db)
        case .iso8601: try perform(Iso8601Profile.self, step.profile, step.operation, db)
        case .seconds: try perform(SecondsProfile.self, step.profile, step.operation, db)
        case .referenceDate: try perform(ReferenceDateProfile.self, step.profile, step.operation, db)
        case .custom: try perform(CustomProfile.self, step.profile, step.operation, db)
        case .mismatched: try perform(MismatchedProfile.self, step.profile, step.operation, db)
        case .formatted: try perform(FormattedProfile.self, step.profile, step.operation, db)
        }
    }

    static func perform<Profile: StampStrategies>(
        _: Profile.Type, _ profile: StampProfile, _ operation: StampOperation, _ db: Database)
    throws -> String
    {
        try db.create(table: "stamp", options: .ifNotExists) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("createdAt")
            t.column("created_at")
            t.column("day")
            t.column("payload")
            t.column("token")
        }
        func date(_ index: Int?) -> Date? { index.map { Date(timeIntervalSince1970: Value.dates[$0]) } }
        switch operation {
        case let .insert(createdAt, day, payload, token):
            var stamp = Stamp<Profile>(createdAt: date(createdAt), day: date(day), payload: payload.map { Data($0) },
                                       token: token.map { UUID(uuidString: StampOperation.tokens[$0])! })
            try stamp.insert(db)
            return stamp.text
        case .insertRaw(let values):
            try db.execute(sql: "INSERT INTO stamp (createdAt, created_at, day, payload) VALUES (?, ?, ?, ?)",
                           arguments: StatementArguments(values.map(\.databaseValue)))
            return "changes: \(db.changesCount)"
        case .fetchAll:
            var request = Stamp<Profile>.order(Column("id"))
            if profile.decodesSnakeCase {
                request = request.select(
                    Column("id"), Column("created_at"), Column("day"), Column("payload"), Column("token"))
            }
            return try request.fetchAll(db).map(\.text).joined(separator: "\n")
        case .fetchOneSQL:
            let sql = "SELECT * FROM stamp ORDER BY id DESC"
            return try Stamp<Profile>.fetchOne(db, sql: sql)?.text ?? "nil"
        }
    }
}

// MARK: SQL requests

enum SQLRequests {
    static func fetch(_ use: SQLRequestUse, _ db: Database) throws -> String {
        func rows(_ rows: [Row]) -> String { rows.map(Canonical.text).joined(separator: "\n") }
        func players(_ players: [Player]) -> String { players.map(Canonical.text).joined(separator: "\n") }
        switch use {
        case let .interpolated(score, teamIds):
            let request = SQLRequest<Player>("""
                SELECT * FROM \(Player.self) WHERE \(Column("score")) >= \(score) \
                AND teamId IN \(teamIds) \(sql: "ORDER BY id")
                """)
            return try players(request.fetchAll(db))
        case let .literal(id, name):
            var sql: SQL = "SELECT name, city FROM team WHERE id >= \(id)"
            sql.append(literal: " AND name IS NOT \(name.databaseValue) ORDER BY \(Column("id"))")
            return try rows(SQLRequest<Row>(literal: sql).fetchAll(db))
        case .cteSQL(let score):
            let good = CommonTableExpression(named: "good", sql: "SELECT * FROM player WHERE score >= ?",
                                             arguments: [score])
            return try rows(good.all().with(good).order(Column("id")).fetchAll(db))
        case .cteContains(let city):
            let cte = CommonTableExpression(
                named: "city", request: Team.filter(Column("city") == city).select(Column("id")))
            return try players(Player.with(cte).filter(cte.contains(Column("teamId"))).order(Column("id")).fetchAll(db))
        case .cteJoin(let city):
            let cte = CommonTableExpression(named: "city", request: Team.filter(Column("city") == city))
            let association = Player.association(to: cte) { player, team in player["teamId"] == team["id"] }
            return try players(Player.with(cte).joining(required: association).order(Column("id")).fetchAll(db))
        case .recursive(let limit):
            let counter = CommonTableExpression(
                recursive: true, named: "counter", columns: ["n"],
                sql: "SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ?", arguments: [limit])
            return try rows(counter.all().with(counter).fetchAll(db))
        case .columnsOf(let alias):
            let request: SQLRequest<Row> = alias
                ? "SELECT \(columnsOf: Team.self, tableAlias: "t") FROM team t ORDER BY id"
                : "SELECT \(columnsOf: Team.self) FROM team ORDER BY id"
            return try rows(request.fetchAll(db))
        case .count(let score):
            let request = SQLRequest<Row>(sql: "SELECT * FROM player WHERE score >= ?", arguments: [score])
            return try "\(request.fetchCount(db))"
        case .isEmpty(let score):
            return try "isEmpty: \(Player.filter(Column("score") >= score).isEmpty(db))"
        case .exists(let name):
            let subquery = Team.filter(Column("name") == name).exists()
            let exists = try SQLRequest<Bool>("SELECT \(subquery)").fetchOne(db)
            return try "exists: \(exists.map(String.init(describing:)) ?? "nil"), "
                + "players: \(Player.filter(subquery).fetchCount(db))"
        }
    }
}
