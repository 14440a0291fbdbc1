/// The new families as the Swift a GRDB user would write.
extension AdapterUse: CustomStringConvertible {
    public var description: String {
        switch self {
        case .suffix(let index): "SuffixRowAdapter(fromIndex: \(index))"
        case let .range(lower, upper): "RangeRowAdapter(\(lower)..<\(upper))"
        case .columnMapping(let mapping):
            "ColumnMapping([" + mapping.sorted { $0.key < $1.key }.map { "\"\($0)\": \"\($1)\"" }
                .joined(separator: ", ") + "])"
        case .scopeWithBase:
            "ScopeAdapter(base: RangeRowAdapter(0..<5), scopes: [\"team\": SuffixRowAdapter(fromIndex: 5)])"
        case .scopes:
            "ScopeAdapter([\"player\": RangeRowAdapter(0..<5), \"team\": SuffixRowAdapter(fromIndex: 5)])"
        case .nestedScopes:
            "ScopeAdapter([\"team\": ScopeAdapter(base: SuffixRowAdapter(fromIndex: 5), "
                + "scopes: [\"place\": ColumnMapping([\"town\": \"city\"])])])"
        case .splitting(let counts):
            "{ let a = splittingRowAdapters(columnCounts: \(counts)); "
                + "return ScopeAdapter(base: a[0], scopes: [\"s1\": a[1], ...]) }()"
        case .empty: "EmptyRowAdapter()"
        case .addingScopes: "RangeRowAdapter(0..<5).addingScopes([\"team\": SuffixRowAdapter(fromIndex: 5)])"
        case .renameColumns(let uppercased):
            uppercased ? "RenameColumnAdapter { $0.uppercased() }" : "RenameColumnAdapter { \"t_\" + $0 }"
        }
    }
}

extension AdaptedFetch {
    var lines: [String] {
        let arguments = "sql: \"\(AdaptedFetch.sql)\", arguments: [\(minimumScore)], adapter: \(adapter)"
        return switch fetch {
        case .rows: ["try Row.fetchAll(db, \(arguments))"]
        case .row: ["let row = try Row.fetchOne(db, \(arguments)); row?.unadapted"]
        case .cursor: ["try Array(Row.fetchCursor(db, \(arguments)).map { $0.copy() })"]
        case .players: ["try Player.fetchAll(db, \(arguments))"]
        case .teams: ["try Team.fetchAll(db, \(arguments))"]
        case .request: ["try SQLRequest<Row>(\(arguments)).fetchAll(db)"]
        case .adaptedTwice:
            ["try SQLRequest<Row>(sql: \"\(AdaptedFetch.sql)\", arguments: [\(minimumScore)], "
                + "adapter: ScopeAdapter([\"first\": RangeRowAdapter(0..<1)]))"
                + ".adapted { _ in \(adapter) }.fetchAll(db)"]
        case .playerInfos: ["try PlayerInfo.fetchAll(db, \(arguments))"]
        }
    }
}

extension StampStep {
    var lines: [String] {
        let type = "Stamp<\(profile.rawValue.prefix(1).uppercased() + profile.rawValue.dropFirst())Profile>"
        var lines = ["try db.create(table: \"stamp\", options: .ifNotExists) { t in "
            + "t.autoIncrementedPrimaryKey(\"id\"); t.column(\"createdAt\"); t.column(\"created_at\"); "
            + "t.column(\"day\"); t.column(\"payload\"); t.column(\"token\") }"]
        func date(_ index: Int?) -> String {
            index.map { "Date(timeIntervalSince1970: \(Value.dates[$0]))" } ?? "nil"
        }
        switch operation {
        case let .insert(createdAt, day, payload, token):
            lines.append("var stamp = \(type)(createdAt: \(date(createdAt)), day: \(date(day)), "
                + "payload: \(payload.map { "Data(\($0))" } ?? "nil"), "
                + "token: \(token.map { "UUID(uuidString: \"\(StampOperation.tokens[$0])\")!" } ?? "nil")); "
                + "try stamp.insert(db)")
        case .insertRaw(let values):
            lines.append("try db.execute(sql: \"INSERT INTO stamp (createdAt, created_at, day, payload) "
                + "VALUES (?, ?, ?, ?)\", arguments: \(values))")
        case .fetchAll:
            let selection = profile.decodesSnakeCase
                ? ".select(Column(\"id\"), Column(\"created_at\"), Column(\"day\"), Column(\"payload\"), "
                    + "Column(\"token\"))" : ""
            lines.append("try \(type)\(selection).order(Column(\"id\")).fetchAll(db)")
        case .fetchOneSQL:
            lines.append("try \(type).fetchOne(db, sql: \"SELECT * FROM stamp ORDER BY id DESC\")")
        }
        return lines
    }
}

extension SQLRequestUse {
    var lines: [String] {
        switch self {
        case let .interpolated(score, teamIds):
            return ["try SQLRequest<Player>(\"SELECT * FROM \\(Player.self) "
                + "WHERE \\(Column(\"score\")) >= \\(\(score)) AND teamId IN \\(\(teamIds)) "
                + "\\(sql: \"ORDER BY id\")\").fetchAll(db)"]
        case let .literal(id, name):
            return ["var sql: SQL = \"SELECT name, city FROM team WHERE id >= \\(\(id))\"",
                    "sql.append(literal: \" AND name IS NOT \\(\(name)) ORDER BY \\(Column(\"id\"))\")",
                    "try SQLRequest<Row>(literal: sql).fetchAll(db)"]
        case .cteSQL(let score):
            return ["let good = CommonTableExpression(named: \"good\", "
                + "sql: \"SELECT * FROM player WHERE score >= ?\", arguments: [\(score)])",
                    "try good.all().with(good).order(Column(\"id\")).fetchAll(db)"]
        case .cteContains(let city):
            return ["let cte = CommonTableExpression(named: \"city\", "
                + "request: Team.filter(Column(\"city\") == \"\(city)\").select(Column(\"id\")))",
                    "try Player.with(cte).filter(cte.contains(Column(\"teamId\"))).order(Column(\"id\")).fetchAll(db)"]
        case .cteJoin(let city):
            return ["let cte = CommonTableExpression(named: \"city\", "
                + "request: Team.filter(Column(\"city\") == \"\(city)\"))",
                    "try Player.with(cte)"
                    + ".joining(required: Player.association(to: cte) { $0[\"teamId\"] == $1[\"id\"] })"
                    + ".order(Column(\"id\")).fetchAll(db)"]
        case .recursive(let limit):
            return ["let counter = CommonTableExpression(recursive: true, named: \"counter\", columns: [\"n\"], "
                + "sql: \"SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < ?\", arguments: [\(limit)])",
                    "try counter.all().with(counter).fetchAll(db)"]
        case .columnsOf(let alias):
            return ["try SQLRequest<Row>(\"SELECT \\(columnsOf: Team.self\(alias ? ", tableAlias: \"t\"" : "")) "
                + "FROM team\(alias ? " t" : "") ORDER BY id\").fetchAll(db)"]
        case .count(let score):
            return ["try SQLRequest<Row>(sql: \"SELECT * FROM player WHERE score >= ?\", arguments: [\(score)])"
                + ".fetchCount(db)"]
        case .isEmpty(let score):
            return ["try Player.filter(Column(\"score\") >= \(score)).isEmpty(db)"]
        case .exists(let name):
            let exists = "Team.filter(Column(\"name\") == \"\(name)\").exists()"
            return ["try SQLRequest<Bool>(\"SELECT \\(\(exists))\").fetchOne(db)",
                    "try Player.filter(\(exists)).fetchCount(db)"]
        }
    }
}

extension ObservationUse {
    /// The observation's start: values are collected in `values`.
    var startLines: [String] {
        ["var values: [String] = [] // each value, canonicalized; \"error: ...\" for a fetch that throws",
         "let cancellable = ValueObservation.tracking { db in \(value.swift) }"
            + (maps ? ".map { \"lines: \\($0.split(separator: \"\\n\").count)\" }" : "")
            + (removeDuplicates ? ".removeDuplicates()" : ""),
         "    .start(in: dbQueue, scheduling: SynchronousScheduler() /* notifies where it is called */,",
         "           onError: { values.append(\"onError: \\($0)\") }, onChange: { values.append($0) })"]
    }
}

extension RecordClassStep {
    var lines: [String] {
        let record = "TeamRecord(id: \(values[0]), name: \(values[1]), city: \(values[2]))"
        let changes = "(record.hasDatabaseChanges, record.databaseChanges.keys.sorted())"
        switch operation {
        case .insert, .update, .save:
            return ["let record = \(record); \(changes)", "try record.\(operation)(db); \(changes)"]
        case .delete, .exists:
            return ["let record = \(record); try record.\(operation)(db)"]
        case .updateChanges:
            return ["let record = try TeamRecord.filter(Column(\"id\") == \(values[0])).fetchOne(db)!; \(changes)",
                    "record.name = \(values[1]); record.city = \(values[2]); \(changes)",
                    "try record.updateChanges(db); \(changes)"]
        case .fetchAll:
            return ["try TeamRecord.order(Column(\"id\")).fetchAll(db).map { ($0, $0.hasDatabaseChanges) }"]
        }
    }
}
