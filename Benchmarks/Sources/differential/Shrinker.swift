import DifferentialProgram

/// Greedy delta debugging: removes steps and schema elements, and
/// simplifies requests, then values, while the program keeps failing.
enum Shrinker {
    /// The smallest program found that `fails`, after at most `budget` tries.
    static func shrink(_ program: Program, budget: Int = 3000, fails: (Program) -> Bool) -> Program {
        var program = program
        var tries = 0
        var progress = true
        while progress && tries < budget {
            progress = false
            for candidate in candidates(program) {
                tries += 1
                if fails(candidate) {
                    program = candidate
                    progress = true
                    break
                }
                if tries >= budget { break }
            }
        }
        return program
    }

    /// Smaller variants of the program, each one change away.
    static func candidates(_ program: Program) -> [Program] {
        var result = smaller(program.steps).map { steps in
            var copy = program
            copy.steps = steps
            return copy
        }
        if program.observesTransactions {
            var copy = program
            copy.observesTransactions = false
            result.append(copy)
            if program.observerFilter != .everything {
                copy = program
                copy.observerFilter = .everything
                result.append(copy)
            }
        }
        if program.usesPool {
            var copy = program
            copy.usesPool = false
            result.append(copy)
        }
        if let observation = program.observation {
            var copy = program
            copy.observation = nil
            result.append(copy)
            if observation.removeDuplicates {
                copy.observation = ObservationUse(value: observation.value, removeDuplicates: false,
                                                  maps: observation.maps)
                result.append(copy)
            }
            if observation.maps {
                copy.observation = ObservationUse(value: observation.value,
                                                  removeDuplicates: observation.removeDuplicates)
                result.append(copy)
            }
        }
        for schema in smaller(program.schema) {
            var copy = program
            copy.schema = schema
            result.append(copy)
        }
        // Last, once nothing more can be deleted: simpler values.
        for steps in simplerValues(program.steps) {
            var copy = program
            copy.steps = steps
            result.append(copy)
        }
        for schema in simplerValues(program.schema) {
            var copy = program
            copy.schema = schema
            result.append(copy)
        }
        return result
    }

    /// Without one step; a block replaced by its steps; each step simplified.
    static func smaller(_ steps: [Step]) -> [[Step]] {
        var result: [[Step]] = []
        for index in steps.indices {
            var without = steps
            without.remove(at: index)
            result.append(without)
        }
        for (index, step) in steps.enumerated() {
            for replacement in smaller(step) {
                var copy = steps
                copy.replaceSubrange(index...index, with: replacement)
                result.append(copy)
            }
        }
        return result
    }

    /// Replacements of one step (by zero or more steps).
    static func smaller(_ step: Step) -> [[Step]] {
        switch step {
        case let .transaction(steps, end, catches):
            return [steps] + smaller(steps).map { [.transaction($0, end, catches: catches)] }
                + (end == .rollback ? [[.transaction(steps, .commit, catches: catches)]] : [])
                + [[.savepoint(steps, end, catches: catches)]]
        case let .savepoint(steps, end, catches):
            return [steps] + smaller(steps).map { [.savepoint($0, end, catches: catches)] }
                + (end == .rollback ? [[.savepoint(steps, .commit, catches: catches)]] : [])
        case .reopen(let appending) where appending > 0:
            return [[.reopen(appending: 0)]]
        case let .racingRead(query, writes):
            return [writes] + smaller(writes).map { [.racingRead(query, writes: $0)] }
        case let .kindedTransaction(kind, steps, end):
            return [steps] + smaller(steps).map { [.kindedTransaction(kind, $0, end)] }
                + (end == .rollback ? [[.kindedTransaction(kind, steps, .commit)]] : [])
                + (kind == .deferred ? [] : [[.kindedTransaction(.deferred, steps, end)]])
        case let .record(operation, values, conflict):
            // Without the conflict resolution; `update` for `updateAndFetch`...
            let plain: [RecordOperation: RecordOperation] = [
                .insertAndFetch: .insert, .updateAndFetch: .update, .saveAndFetch: .save, .upsertAndFetch: .upsert]
            return (conflict == nil ? [] : [[.record(operation, values, conflict: nil)]])
                + (plain[operation].map { [[.record($0, values, conflict: conflict)]] } ?? [])
        case .aggregate(let use):
            return smaller(use).map { [.aggregate($0)] }
        case .query(let query):
            return smaller(query).map { [.query($0)] }
        case let .updateAll(table, .some, column, value):
            return [[.updateAll(table, nil, column: column, value)]]
        case let .deleteAll(table, .some):
            return [[.deleteAll(table, nil)]]
        case let .deleteAndFetch(table, filter):
            return [[.deleteAll(table, filter)]] + (filter == nil ? [] : [[.deleteAndFetch(table, nil)]])
        case .adapted(let fetch):
            return smaller(fetch).map { [.adapted($0)] }
        case let .stamp(stamp):
            guard case let .insert(createdAt, day, payload, token) = stamp.operation else { return [] }
            var result: [[Step]] = []
            func variant(_ operation: StampOperation) {
                guard operation != stamp.operation else { return }
                result.append([.stamp(StampStep(profile: stamp.profile, operation: operation))])
            }
            variant(.insert(createdAt: nil, day: day, payload: payload, token: token))
            variant(.insert(createdAt: createdAt, day: nil, payload: payload, token: token))
            variant(.insert(createdAt: createdAt, day: day, payload: nil, token: token))
            variant(.insert(createdAt: createdAt, day: day, payload: payload, token: nil))
            return result
        case let .request(.interpolated(score, teamIds)):
            return teamIds.indices.map { index in
                var fewer = teamIds
                fewer.remove(at: index)
                return [.request(.interpolated(score: score, teamIds: fewer))]
            }
        default:
            return []
        }
    }

    static func smaller(_ query: Query) -> [Query] {
        var result: [Query] = []
        func variant(_ change: (inout Query) -> Void) {
            var copy = query
            change(&copy)
            if copy != query { result.append(copy) }
        }
        variant { $0.association = nil }
        for index in query.filters.indices { variant { $0.filters.remove(at: index) } }
        for index in query.orderings.indices { variant { $0.orderings.remove(at: index) } }
        variant { $0.selection = nil }
        variant { $0.distinct = false }
        variant { $0.limit = nil; $0.offset = nil }
        variant { $0.offset = nil }
        variant { $0.fetch = .all }
        // A limited request stays ordered to the end (see the generator).
        return result.map(Generator.orderedByUniqueKey).filter { $0 != query }
    }

    /// Without a `having`, an aggregate, the order, the limit or the filter; fetched as a row.
    static func smaller(_ use: AggregateUse) -> [AggregateUse] {
        switch use {
        case .grouped(let query):
            var result: [GroupedQuery] = []
            func variant(_ change: (inout GroupedQuery) -> Void) {
                var copy = query
                change(&copy)
                if copy != query { result.append(copy) }
            }
            for index in query.havings.indices { variant { $0.havings.remove(at: index) } }
            for index in query.aggregates.indices where query.aggregates.count > 1 {
                variant { $0.aggregates.remove(at: index) }
            }
            // A limit keeps an order (see the generator).
            variant { if $0.limit == nil { $0.order = .unordered } else { $0.order = .group } }
            variant { $0.limit = nil }
            return result.map { .grouped($0) }
        case let .selected(aggregate, filter, fetch):
            return (filter == nil ? [] : [.selected(aggregate, nil, fetch)])
                + (fetch == .row ? [] : [.selected(aggregate, filter, .row)])
        }
    }

    /// Fetched as rows; a column mapping without one of its columns.
    static func smaller(_ fetch: AdaptedFetch) -> [AdaptedFetch] {
        var result: [AdaptedFetch] = []
        if fetch.fetch != .rows {
            var copy = fetch
            copy.fetch = .rows
            result.append(copy)
        }
        if case .columnMapping(let mapping) = fetch.adapter, mapping.count > 1 {
            for key in mapping.keys.sorted() {
                var copy = fetch
                var fewer = mapping
                fewer[key] = nil
                copy.adapter = .columnMapping(fewer)
                result.append(copy)
            }
        }
        return result
    }

    /// Without a migration, a table, an index or a constraint.
    static func smaller(_ schema: Schema) -> [Schema] {
        var result: [Schema] = []
        func variant(_ change: (inout Schema) -> Void) {
            var copy = schema
            change(&copy)
            if copy != schema { result.append(copy) }
        }
        variant { $0.usesMigrator = false }
        if schema.migrations.count > 1 {
            variant { $0.migrations = [Migration(tables: $0.migrations.flatMap(\.tables),
                                                 indexes: $0.migrations.flatMap(\.indexes))] }
        }
        for (m, migration) in schema.migrations.enumerated() {
            for i in migration.indexes.indices { variant { $0.migrations[m].indexes.remove(at: i) } }
            for (t, table) in migration.tables.enumerated() {
                variant { $0.migrations[m].tables.remove(at: t) }
                variant { $0.migrations[m].tables[t].primaryKey = .integer }
                for c in table.columns.indices {
                    variant { $0.migrations[m].tables[t].columns[c].notNull = false }
                    variant { $0.migrations[m].tables[t].columns[c].unique = false }
                    variant { $0.migrations[m].tables[t].columns[c].defaultValue = nil }
                    variant { $0.migrations[m].tables[t].columns[c].onDelete = nil }
                    variant { $0.migrations[m].tables[t].columns[c].references = nil }
                    variant { $0.migrations[m].tables[t].columns[c].type = nil }
                }
            }
        }
        return result
    }

    // MARK: Values

    /// Simpler values, each one step down: integers toward 0, shorter
    /// strings, reals as integers, the first date; NULL last.
    static func simpler(_ value: Value) -> [Value] {
        switch value {
        case .null: return []
        case .int(let value):
            return (value == 0 ? [] : value / 2 == 0 ? [.int(0)] : [.int(0), .int(value / 2)]) + [.null]
        case .text(let text):
            return (text.isEmpty ? [] : text.count == 1 ? [.text("")] : [.text(""), .text(String(text.dropLast()))])
                + [.null]
        case .real(let value):
            return (value.isFinite && abs(value) < 1e15 ? [.int(Int64(value))] : []) + [.null]
        case .date(let index): return (index == 0 ? [] : [.date(0)]) + [.null]
        }
    }

    /// Each value of the list replaced by a simpler one.
    static func simpler(_ values: [Value]) -> [[Value]] {
        values.indices.flatMap { index in
            simpler(values[index]).map { value in
                var copy = values
                copy[index] = value
                return copy
            }
        }
    }

    static func simpler(_ filter: Filter?) -> [Filter] {
        guard let filter else { return [] }
        return simpler(filter.value).map { Filter(column: filter.column, comparison: filter.comparison, value: $0) }
    }

    /// Each step with one value simpler.
    static func simplerValues(_ steps: [Step]) -> [[Step]] {
        steps.indices.flatMap { index in
            simplerValues(steps[index]).map { step in
                var copy = steps
                copy[index] = step
                return copy
            }
        }
    }

    static func simplerValues(_ step: Step) -> [Step] {
        switch step {
        case let .record(operation, values, conflict):
            // A player's score is not optional.
            return simpler(values.values).filter { values.table == .team || $0[3] != .null }
                .map { .record(operation, RecordValues(table: values.table, values: $0), conflict: conflict) }
        case .recordClass(let step):
            return simpler(step.values).map { .recordClass(RecordClassStep(operation: step.operation, values: $0)) }
        case let .updateAll(table, filter, column, value):
            return simpler(value).map { .updateAll(table, filter, column: column, $0) }
                + simpler(filter).map { .updateAll(table, $0, column: column, value) }
        case let .deleteAll(table, filter):
            return simpler(filter).map { .deleteAll(table, $0) }
        case let .deleteAndFetch(table, filter):
            return simpler(filter).map { .deleteAndFetch(table, $0) }
        case .query(let query):
            return query.filters.indices.flatMap { index in
                simpler(query.filters[index]).map { filter in
                    var copy = query
                    copy.filters[index] = filter
                    return .query(copy)
                }
            }
        case let .sql(sql, values, fetches):
            return simpler(values).map { .sql(sql, $0, fetches: fetches) }
        case .aggregate(.grouped(let query)):
            return query.havings.indices.flatMap { index in
                simpler(.int(query.havings[index].value)).compactMap { value -> Step? in
                    guard case .int(let value) = value else { return nil }
                    var copy = query
                    copy.havings[index].value = value
                    return .aggregate(.grouped(copy))
                }
            }
        case let .aggregate(.selected(aggregate, filter, fetch)):
            return simpler(filter).map { .aggregate(.selected(aggregate, $0, fetch)) }
        case .stamp(let stamp):
            switch stamp.operation {
            case let .insert(createdAt, day, .some(payload), token) where !payload.isEmpty:
                let operation = StampOperation.insert(createdAt: createdAt, day: day, payload: [], token: token)
                return [.stamp(StampStep(profile: stamp.profile, operation: operation))]
            case .insertRaw(let values):
                return simpler(values).map { .stamp(StampStep(profile: stamp.profile, operation: .insertRaw($0))) }
            default:
                return []
            }
        case .adapted(let fetch) where fetch.minimumScore != 0:
            var copy = fetch
            copy.minimumScore = 0
            return [.adapted(copy)]
        case let .transaction(steps, end, catches):
            return simplerValues(steps).map { .transaction($0, end, catches: catches) }
        case let .savepoint(steps, end, catches):
            return simplerValues(steps).map { .savepoint($0, end, catches: catches) }
        case let .kindedTransaction(kind, steps, end):
            return simplerValues(steps).map { .kindedTransaction(kind, $0, end) }
        case let .racingRead(query, writes):
            return simplerValues(writes).map { .racingRead(query, writes: $0) }
        default:
            return []
        }
    }

    /// A column's default value simpler.
    static func simplerValues(_ schema: Schema) -> [Schema] {
        var result: [Schema] = []
        for (m, migration) in schema.migrations.enumerated() {
            for (t, table) in migration.tables.enumerated() {
                for (c, column) in table.columns.enumerated() {
                    guard let value = column.defaultValue else { continue }
                    for simpler in simpler(value) {
                        var copy = schema
                        copy.migrations[m].tables[t].columns[c].defaultValue = simpler
                        result.append(copy)
                    }
                }
            }
        }
        return result
    }
}
