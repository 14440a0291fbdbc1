import DifferentialProgram

/// Generates a random program from its seed. Values come from small
/// domains, so that they meet UNIQUE and foreign-key constraints often.
struct Generator {
    var rng: SplitMix64

    static func program(seed: UInt64) -> Program {
        var generator = Generator(rng: SplitMix64(seed: seed))
        let schema = generator.schema()
        var steps = generator.steps(count: generator.int(3...14))
        let observesTransactions = generator.chance(0.5)
        // A pool in 1 program in 4; an observation in a third of the others.
        let usesPool = generator.chance(0.25)
        // Half of the pools' programs have a read racing a write.
        if usesPool && generator.chance(0.5) {
            let writes = generator.steps(count: generator.int(1...3), depth: 1)
            steps.insert(.racingRead(generator.query(), writes: writes), at: generator.int(0...steps.count))
        }
        let observation = !usesPool && generator.chance(0.35)
            ? ObservationUse(value: generator.pick(ObservedValue.allCases), removeDuplicates: generator.chance(0.5),
                             maps: generator.chance(0.3))
            : nil
        // With a `ValueObservation`, the observer observes every table: GRDBLite tells every observer
        // the rollback of a failed statement that changed rows (porting guide; GRDB: none), which the
        // observation may have been told of, and the observer not.
        let filter = generator.chance(0.5) ? .everything : generator.pick(ObserverFilter.allCases)
        let observerFilter = observation == nil || filter == .firstChangeOfEachTransaction ? filter : .everything
        // An observation lives on one database: no reopening. And GRDB ends the transaction of a
        // RETURNING statement later (see KnownDifferences): an observation, or an observer that stops
        // until the next transaction, would see it.
        let observedSteps = steps.filter { if case .reopen = $0 { false } else { true } }.map(withoutReturning)
        let stops = observesTransactions && observerFilter == .firstChangeOfEachTransaction
        return Program(seed: seed, schema: schema,
                       steps: observation != nil ? observedSteps : stops ? steps.map(withoutReturning) : steps,
                       observesTransactions: observesTransactions,
                       observation: observation, usesPool: usesPool, observerFilter: observerFilter)
    }

    /// Steps without RETURNING (`insert` for `insertAndFetch` and `upsert`...): GRDB ends their
    /// autocommit transaction at a later statement (see KnownDifferences), which an observation would see.
    static func withoutReturning(_ step: Step) -> Step {
        switch step {
        case let .record(.insertAndFetch, values, conflict), let .record(.upsert, values, conflict),
             let .record(.upsertAndFetch, values, conflict):
            return .record(.insert, values, conflict: conflict)
        case let .record(.updateAndFetch, values, conflict):
            return .record(.update, values, conflict: conflict)
        case let .record(.saveAndFetch, values, conflict):
            return .record(.save, values, conflict: conflict)
        case let .deleteAndFetch(table, filter):
            return .deleteAll(table, filter)
        case let .transaction(steps, end, catches):
            return .transaction(steps.map(withoutReturning), end, catches: catches)
        case let .savepoint(steps, end, catches):
            return .savepoint(steps.map(withoutReturning), end, catches: catches)
        case let .kindedTransaction(kind, steps, end):
            return .kindedTransaction(kind, steps.map(withoutReturning), end)
        default:
            return step
        }
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < probability }
    mutating func pick<T>(_ elements: [T]) -> T { elements[int(0...elements.count - 1)] }

    // MARK: Schema

    mutating func schema() -> Schema {
        var migrations = (0..<int(1...3)).map { _ in Migration(tables: [], indexes: []) }
        var created: [(TableName, Int)] = []
        var first = 0
        for name in TableName.allCases {
            let at = int(first...migrations.count - 1)
            migrations[at].tables.append(table(name))
            created.append((name, at))
            first = at
        }
        for number in 1...3 where !created.isEmpty && chance(0.35) {
            let (table, at) = pick(created)
            let columns = Array(table.columns.shuffled(using: &rng).prefix(int(1...2)))
            migrations[int(at...migrations.count - 1)].indexes.append(
                IndexSchema(name: "i\(number)", table: table, columns: columns, unique: chance(0.3)))
        }
        return Schema(migrations: migrations, usesMigrator: chance(0.6))
    }

    mutating func table(_ name: TableName) -> TableSchema {
        let primaryKey = pick([PrimaryKey.autoIncremented, .autoIncremented, .integer, .integer, .composite("name")])
        let columns = name.columns.dropFirst().map { column(name, $0) }
        return TableSchema(name: name, primaryKey: primaryKey, columns: columns)
    }

    mutating func column(_ table: TableName, _ name: String) -> ColumnSchema {
        let type: ColumnType? = switch name {
        case "name", "city": pick([.text, .text, .any, nil])
        case "createdAt": pick([.datetime, .datetime, .text])
        default: pick([.integer, .integer, .real, nil])
        }
        var column = ColumnSchema(name: name, type: type)
        column.notNull = chance(name == "score" ? 0.4 : 0.25)
        column.unique = name == "name" && chance(0.3)
        if chance(0.25) { column.defaultValue = value(table, name, nullable: false) }
        if name == "teamId" && chance(0.7) {
            column.references = .team
            column.onDelete = pick([DeleteAction.cascade, .setNull, .restrict, nil])
        }
        return column
    }

    // MARK: Values

    mutating func value(_ table: TableName, _ column: String, nullable: Bool = true) -> Value {
        if nullable && chance(column == "score" ? 0.05 : 0.2) { return .null }
        switch column {
        case "id", "teamId": return .int(Int64(int(1...4)))
        case "name": return .text(pick(["a", "b", "c"]))
        case "city": return .text(pick(["x", "y"]))
        case "createdAt": return .date(int(0...Value.dates.count - 1))
        default: return .int(Int64(int(0...3)))
        }
    }

    mutating func recordValues(_ table: TableName) -> RecordValues {
        RecordValues(table: table, values: table.columns.map { column in
            if column == "score" { return value(table, column, nullable: false) }
            if column == "id" && table == .player && chance(0.4) { return .null }
            return value(table, column)
        })
    }

    // MARK: Steps

    mutating func steps(count: Int, depth: Int = 0) -> [Step] {
        (0..<count).map { _ in step(depth: depth) }
    }

    mutating func step(depth: Int) -> Step {
        let table = pick(TableName.allCases)
        switch int(0...145) {
        case 0..<45:
            let operation = pick(RecordOperation.allCases + [.insert, .insert, .save])
            let conflict: Conflict? = operation == .insert && chance(0.25) ? pick(Conflict.allCases) : nil
            return .record(operation, recordValues(table), conflict: conflict)
        case 45..<51:
            let column = pick(Array(table.columns.dropFirst()))
            // Sometimes a value of another type, which records then convert, or fail to.
            let value = chance(0.2) ? pick([Value.real(1.5), .real(2), .text("7"), .text("x"), .int(9)])
                : value(table, column)
            return .updateAll(table, chance(0.6) ? filter(table) : nil, column: column, value)
        case 51..<55:
            let filter = chance(0.7) ? filter(table) : nil
            return chance(0.35) ? .deleteAndFetch(table, filter) : .deleteAll(table, filter)
        case 55..<80:
            return .query(query())
        case 80..<88:
            return sql()
        case 88..<92 where depth > 0:
            return .fail
        case 100..<108:
            return .adapted(adaptedFetch())
        case 108..<116:
            return .stamp(stampStep())
        case 116..<122:
            return .request(sqlRequest())
        case 122..<130:
            let operation = pick(RecordClassOperation.allCases + [.insert, .updateChanges])
            return .recordClass(RecordClassStep(operation: operation, values: recordValues(.team).values))
        case 130..<138:
            return .aggregate(aggregateUse())
        case 138..<146 where depth == 0:
            // Transactions that write nothing, or change nothing, of each kind.
            let steps = (0..<pick([0, 0, 1, 2, 3])).map { _ in chance(0.3) ? step(depth: 1) : quietStep() }
            return .kindedTransaction(pick(TransactionKindUse.allCases), steps, chance(0.7) ? .commit : .rollback)
        case 88..<92 where depth == 0:
            return .reopen(appending: pick([0, 0, 1, 2]))
        case 92..<100 where depth == 0 && chance(0.5):
            return quietStep()
        default:
            guard depth < 2 else { return .query(query()) }
            let steps = steps(count: int(1...4), depth: depth + 1)
            let end = chance(0.7) ? TransactionEnd.commit : .rollback
            return depth == 0 && chance(0.6)
                ? .transaction(steps, end, catches: chance(0.5))
                : .savepoint(steps, end, catches: chance(0.5))
        }
    }

    /// A step that reads, or writes and changes nothing.
    mutating func quietStep() -> Step {
        switch int(0...4) {
        case 0: return .query(query())
        case 1: return .sql("SELECT COUNT(*) FROM team", [], fetches: true)
        case 2: return .sql("UPDATE player SET score = score + 1 WHERE id = ?", [.int(99)], fetches: false)
        case 3: return .deleteAll(.team, Filter(column: "id", comparison: .equal, value: .int(99)))
        default:
            let table = pick(TableName.allCases)
            return .updateAll(table, Filter(column: "id", comparison: .less, value: .int(0)), column: "name",
                              .text("z"))
        }
    }

    mutating func filter(_ table: TableName) -> Filter {
        let column = pick(table.columns)
        let comparison = pick(Comparison.allCases)
        return Filter(column: column, comparison: comparison, value: value(table, column, nullable: chance(0.1)))
    }

    mutating func query() -> Query {
        var query = Query(table: pick(TableName.allCases), fetch: pick([Fetch.all, .all, .all, .one, .count]))
        if chance(0.4) {
            let association = pick(AssociationUse.allCases)
            query.association = association
            query.table = association.table
        }
        let table = query.table
        query.filters = (0..<pick([0, 0, 1, 1, 2])).map { _ in filter(table) }
        query.orderings = (0..<pick([0, 1, 1, 2])).map { _ in
            Ordering(column: pick(table.columns), descending: chance(0.4))
        }
        if chance(0.15) {
            var selection = Array(table.columns.shuffled(using: &rng).prefix(int(1...3)))
            // Both libraries trap when `including(all:)` misses the key it joins on.
            if let key = query.association?.prefetchKey, !selection.contains(key) { selection.append(key) }
            query.selection = selection
        }
        query.distinct = chance(0.1)
        if chance(0.25) {
            query.limit = int(0...3)
            if chance(0.5) { query.offset = int(0...2) }
        }
        return Generator.orderedByUniqueKey(query)
    }

    /// A limited request (`limit`, `fetchOne`) ordered to the end by columns
    /// that tell its rows apart (a distinct selection's own, or every
    /// column), so that both libraries' plans pick the same rows: SQLite may
    /// plan `LIMIT ?` (GRDBLite binds it) another way than `LIMIT 3`.
    static func orderedByUniqueKey(_ query: Query) -> Query {
        guard query.limit != nil || query.fetch == .one else { return query }
        var query = query
        let columns = query.distinct ? query.selection ?? query.table.columns : query.table.columns
        for column in columns where !query.orderings.contains(where: { $0.column == column }) {
            query.orderings.append(Ordering(column: column, descending: false))
        }
        return query
    }

    mutating func sql() -> Step {
        switch int(0...6) {
        case 0:
            return .sql("INSERT INTO player (teamId, name, score) VALUES (?, ?, ?)",
                        [value(.player, "teamId"), value(.player, "name"),
                         chance(0.3) ? .null : value(.player, "score")],
                        fetches: false)
        case 1:
            return .sql("UPDATE player SET score = score + ? WHERE teamId = ?",
                        [value(.player, "score", nullable: false), value(.player, "teamId")], fetches: false)
        case 2:
            return .sql("SELECT id, name, score, createdAt FROM player WHERE score >= ? ORDER BY id",
                        [value(.player, "score", nullable: false)], fetches: true)
        case 3:
            return .sql("DELETE FROM team WHERE id = ?", [value(.team, "id", nullable: false)], fetches: false)
        case 4:
            return .sql("INSERT INTO team (id, name, city) VALUES (?, ?, ?)",
                        [value(.team, "id"), value(.team, "name"), value(.team, "city")], fetches: false)
        case 5:
            // Dates in SQLite's other formats, which records read through another parser.
            let date = pick(["2001-09-09 01:46:40.1256", "2001-09-09T01:46:40.125", "2001-09-09 01:46",
                             "2001-09-09", "2001-09-09 01:46:40.1-01:30", "2001-09-09T01:46:40Z", "not a date"])
            return .sql("INSERT INTO player (name, score, createdAt) VALUES (?, ?, ?)",
                        [value(.player, "name"), value(.player, "score", nullable: false), .text(date)], fetches: false)
        default:
            return .sql("SELECT t.name, COUNT(p.id), SUM(p.score) FROM team t LEFT JOIN player p ON p.teamId = t.id "
                        + "GROUP BY t.id ORDER BY t.id", [], fetches: true)
        }
    }

    // MARK: Row adapters, Codable strategies, SQL requests

    mutating func adaptedFetch() -> AdaptedFetch {
        let adapter: AdapterUse
        switch int(0...10) {
        case 0: adapter = .suffix(int(0...8))
        case 1:
            let lower = int(0...8)
            adapter = .range(lower, int(lower...8))
        case 2, 3:
            // Base columns: the first of a name wins (player's `name`, `id`);
            // sometimes one that is missing, which throws.
            var mapping: [String: String] = [:]
            for base in ["id", "name", "city", "score", "teamId"].shuffled(using: &rng).prefix(int(1...3)) {
                mapping[pick(["a", "b", "c", base, base.uppercased()])] = base
            }
            if chance(0.15) { mapping["z"] = "missing" }
            adapter = .columnMapping(mapping)
        case 4: adapter = .scopeWithBase
        case 5: adapter = .scopes
        case 6: adapter = .nestedScopes
        case 7:
            var counts = [int(0...5)]
            counts.append(int(0...(8 - counts[0])))
            if chance(0.5) { counts.append(8 - counts[0] - counts[1]) }
            adapter = .splitting(counts)
        case 8: adapter = .empty
        case 9: adapter = .addingScopes
        default: adapter = .renameColumns(uppercased: chance(0.5))
        }
        return AdaptedFetch(adapter: adapter, fetch: pick(AdaptedFetchKind.allCases),
                            minimumScore: Int64(int(0...3)))
    }

    mutating func stampStep() -> StampStep {
        let operation: StampOperation
        switch int(0...9) {
        case 0..<4:
            operation = .insert(createdAt: chance(0.8) ? int(0...Value.dates.count - 1) : nil,
                                day: chance(0.7) ? int(0...Value.dates.count - 1) : nil,
                                payload: chance(0.6) ? pick([[], [0x61, 0x62], [0xff, 0x00, 0x10]]) : nil,
                                token: chance(0.5) ? int(0...StampOperation.tokens.count - 1) : nil)
        case 4, 5:
            // What another program, or another strategy, may have stored.
            func stored() -> Value {
                pick([.null, .int(1_000_000_000), .int(1_000_000_000_125), .real(1_700_000_000.5),
                      .text("2001-09-09 01:46:40.125"), .text("2001-09-09T01:46:40Z"),
                      .text("2001-09-09T01:46:40.125Z"),
                      .text("1000000000.5"), .text("x"), .text("6162")])
            }
            operation = .insertRaw([stored(), stored(), stored(), pick([.null, .text("ab"), .text("6162"), .int(7)])])
        case 6..<9: operation = .fetchAll
        default: operation = .fetchOneSQL
        }
        return StampStep(profile: pick(StampProfile.allCases), operation: operation)
    }

    mutating func sqlRequest() -> SQLRequestUse {
        let score = Int64(int(0...3))
        switch int(0...9) {
        case 0: return .interpolated(score: score, teamIds: (0..<int(0...3)).map { _ in Int64(int(1...4)) })
        case 1: return .literal(id: Int64(int(0...3)), name: value(.team, "name"))
        case 2: return .cteSQL(score: score)
        case 3: return .cteContains(city: pick(["x", "y"]))
        case 4: return .cteJoin(city: pick(["x", "y"]))
        case 5: return .recursive(limit: Int64(int(0...4)))
        case 6: return .isEmpty(score: score)
        case 7: return .columnsOf(alias: chance(0.5))
        case 8: return .count(score: score)
        default: return .exists(name: pick(["a", "b", "c"]))
        }
    }

    // MARK: Aggregates

    mutating func aggregate() -> Aggregate {
        let function = pick(AggregateFunction.allCases)
        let columns = function == .count ? ["id", "score", "name"] : ["score", "score", "teamId", "id", "name"]
        return Aggregate(function: function, column: pick(columns))
    }

    mutating func aggregateUse() -> AggregateUse {
        guard chance(0.6) else {
            let filter = chance(0.4) ? self.filter(.player) : nil
            return .selected(aggregate(), filter, pick(AggregateFetch.allCases))
        }
        let aggregates = (0..<int(1...2)).map { _ in aggregate() }
        let havings = (0..<pick([0, 1, 1, 2])).map { _ in
            Having(aggregate: chance(0.5) ? pick(aggregates) : aggregate(),
                   comparison: pick(Comparison.allCases), value: Int64(int(0...4)))
        }
        // A limit cuts groups in their order: the groups' own (an aggregate's order ends with theirs).
        let limit = chance(0.3) ? int(0...3) : nil
        let order = pick(GroupOrder.allCases)
        return .grouped(GroupedQuery(aggregates: aggregates, havings: havings,
                                     order: limit != nil && order == .unordered ? .group : order, limit: limit))
    }
}
