// The program families beyond persistence and the query interface: row
// adapters on raw SQL, the `Codable` strategies of a second record, and
// SQL requests (interpolation, common table expressions, `isEmpty`).

/// A row adapter on the rows of ``AdaptedFetch/sql``: the player's 5
/// columns (id, teamId, name, score, createdAt), then the team's 3 (id,
/// name, city).
public enum AdapterUse: Sendable, Codable, Hashable {
    /// `SuffixRowAdapter(fromIndex:)`, 0...8.
    case suffix(Int)
    /// `RangeRowAdapter(lower..<upper)`, within 0...8.
    case range(Int, Int)
    /// `ColumnMapping`: mapped name to base column (a missing one throws).
    case columnMapping([String: String])
    /// `ScopeAdapter(base: RangeRowAdapter(0..<5), scopes: ["team": SuffixRowAdapter(fromIndex: 5)])`.
    case scopeWithBase
    /// `ScopeAdapter(["player": RangeRowAdapter(0..<5), "team": SuffixRowAdapter(fromIndex: 5)])`.
    case scopes
    /// Scopes in a scope: `ScopeAdapter(["team": ScopeAdapter(base: SuffixRowAdapter(fromIndex: 5),
    /// scopes: ["place": ColumnMapping(["town": "city"])])])`.
    case nestedScopes
    /// `splittingRowAdapters(columnCounts:)`: the first as the base, the
    /// others as scopes `s1`, `s2`...
    case splitting([Int])
    /// `EmptyRowAdapter()`.
    case empty
    /// `RangeRowAdapter(0..<5).addingScopes(["team": SuffixRowAdapter(fromIndex: 5)])`.
    case addingScopes
    /// `RenameColumnAdapter { $0.uppercased() }` or with a `t_` prefix.
    case renameColumns(uppercased: Bool)
}

/// How an adapted request is fetched.
public enum AdaptedFetchKind: String, Sendable, Codable, CaseIterable {
    /// `Row.fetchAll`: each row's columns and scopes.
    case rows
    /// `Row.fetchOne`, and its `unadapted` row.
    case row
    /// `Row.fetchCursor`, copied.
    case cursor
    /// `Player.fetchAll` (the `Codable` record).
    case players
    /// `Team.fetchAll` (the hand-written record).
    case teams
    /// `SQLRequest<Row>(sql:arguments:adapter:)`, `fetchAll`.
    case request
    /// `SQLRequest<Row>(sql:arguments:adapter: ScopeAdapter(["first": RangeRowAdapter(0..<1)]))
    /// .adapted { _ in adapter }`: the second adapter on the rows of the first.
    case adaptedTwice
    /// `PlayerInfo.fetchAll`: a `Decodable` record of a `player: Player` and
    /// a `team: TeamInfo?`, decoded from the scopes of their names, or the row.
    case playerInfos
}

/// `Row.fetchAll(db, sql:arguments:adapter:)` and the like, on a join.
public struct AdaptedFetch: Sendable, Codable, Hashable {
    public static let sql = "SELECT player.*, team.* FROM player LEFT JOIN team ON team.id = player.teamId "
        + "WHERE player.score >= ? ORDER BY player.id"
    public var adapter: AdapterUse
    public var fetch: AdaptedFetchKind
    public var minimumScore: Int64

    public init(adapter: AdapterUse, fetch: AdaptedFetchKind, minimumScore: Int64) {
        self.adapter = adapter
        self.fetch = fetch
        self.minimumScore = minimumScore
    }
}

/// The strategies of the second `Codable` record (`Stamp<Profile>`), one
/// type per profile.
public enum StampProfile: String, Sendable, Codable, CaseIterable {
    /// Every default.
    case plain
    /// `.timeIntervalSince1970` both ways; `day` `.deferredToDate`. UUIDs
    /// `.lowercaseString`.
    case interval
    /// `.millisecondsSince1970` both ways; data `.text`.
    case milliseconds
    /// `.iso8601` both ways; `.convertToSnakeCase` / `.convertFromSnakeCase`;
    /// UUIDs `.uppercaseString`.
    case iso8601
    /// Encodes `.secondsSince1970`, decodes `.timeIntervalSince1970`;
    /// `.convertToSnakeCase`, default keys to decode.
    case seconds
    /// Encodes `.timeIntervalSinceReferenceDate`, decodes `.deferredToDate`.
    case referenceDate
    /// `.custom` dates (text of the interval) and data (hex text).
    case custom
    /// Encodes `.deferredToDate`, decodes `.iso8601` and `.millisecondsSince1970` for `day`.
    case mismatched
    /// `.formatted(DateFormatter)` both ways (milliseconds, UTC); column
    /// names `.custom`: upper case to encode, and to decode the column's
    /// name, but `created_at` as `snake`, a key the record lacks.
    case formatted

    /// Whether it decodes `.convertFromSnakeCase`: then `fetchAll` selects
    /// `created_at`, not `createdAt` too, whose key would be the same;
    /// `fetchOneSQL` selects both (the last column of a key is decoded).
    public var decodesSnakeCase: Bool { self == .iso8601 }
}

/// A step on the `stamp` table (id, createdAt, created_at, day, payload, token),
/// created with `ifNotExists` by each step.
public enum StampOperation: Sendable, Codable, Hashable {
    /// `Stamp<Profile>(createdAt:day:payload:token:).insert(db)`: dates by
    /// index in ``Value/dates``, the payload's bytes, a UUID by index in
    /// ``StampOperation/tokens``.
    case insert(createdAt: Int?, day: Int?, payload: [UInt8]?, token: Int?)
    /// `INSERT INTO stamp (createdAt, created_at, day, payload) VALUES (?, ?, ?, ?)`.
    case insertRaw([Value])
    /// `Stamp<Profile>.order(Column("id")).fetchAll(db)`.
    case fetchAll
    /// `Stamp<Profile>.fetchOne(db, sql: "SELECT * FROM stamp ORDER BY id DESC")`: with
    /// `.convertFromSnakeCase`, `createdAt` and `created_at` are one key.
    case fetchOneSQL


    /// The UUIDs a program stores.
    public static let tokens = ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "00000000-0000-0000-0000-00000000000A"]
}

/// `Stamp<Profile>` and what is done with it.
public struct StampStep: Sendable, Codable, Hashable {
    public var profile: StampProfile
    public var operation: StampOperation

    public init(profile: StampProfile, operation: StampOperation) {
        self.profile = profile
        self.operation = operation
    }
}

/// A request of raw SQL, interpolated SQL or a common table expression.
public enum SQLRequestUse: Sendable, Codable, Hashable {
    /// `SQLRequest<Player>("SELECT * FROM \(Player.self) WHERE \(Column("score")) >= \(score)
    /// AND teamId IN \(teamIds) \(sql: "ORDER BY id")")`.
    case interpolated(score: Int64, teamIds: [Int64])
    /// `var sql: SQL = "SELECT name, city FROM team WHERE id >= \(id)"`, then
    /// `sql.append(literal: " AND name IS NOT \(name) ORDER BY \(Column("id"))")`,
    /// `SQLRequest<Row>(literal: sql).fetchAll(db)`.
    case literal(id: Int64, name: Value)
    /// `CommonTableExpression(named: "good", sql: "SELECT * FROM player WHERE score >= ?")`,
    /// `good.all().with(good).order(Column("id")).fetchAll(db)`.
    case cteSQL(score: Int64)
    /// `CommonTableExpression(named: "city", request: Team.filter(Column("city") == city).select(Column("id")))`,
    /// `Player.with(cte).filter(cte.contains(Column("teamId"))).order(Column("id")).fetchAll(db)`.
    case cteContains(city: String)
    /// `Player.with(cte).joining(required: Player.association(to: cte) { $0["teamId"] == $1["id"] })`,
    /// with the CTE of the teams of a city, `fetchAll`.
    case cteJoin(city: String)
    /// `CommonTableExpression(recursive: true, named: "counter", columns: ["n"],
    /// sql: "SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ?")`.
    case recursive(limit: Int64)
    /// `SQLRequest<Row>("SELECT \(columnsOf: Team.self) FROM team ORDER BY id")`, or with
    /// `tableAlias: "t"` and `FROM team t`.
    case columnsOf(alias: Bool)
    /// `SQLRequest<Row>(sql: "SELECT * FROM player WHERE score >= ?", arguments: [score]).fetchCount(db)`.
    case count(score: Int64)
    /// `Player.filter(Column("score") >= score).isEmpty(db)`.
    case isEmpty(score: Int64)
    /// `SQLRequest<Bool>("SELECT \(Team.filter(Column("name") == name).exists())")`, and
    /// `Player.filter(Team.filter(Column("name") == name).exists()).fetchCount(db)`.
    case exists(name: String)
}
