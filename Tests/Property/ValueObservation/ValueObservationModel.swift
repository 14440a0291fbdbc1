import GRDBLite
import PropertyBased

/// A script of write steps under a random `ValueObservation`.
struct ValueObservationScript: Sendable, CustomStringConvertible {
    var request: ObservedRequest
    /// `tracking` (true) or `trackingConstantRegion` (false).
    var varyingRegion: Bool
    /// `map` wraps each value in angle brackets (an injective transform).
    var mapsValues: Bool
    var removeDuplicates: Bool
    /// The `.immediate` scheduler (started on the main actor) instead of
    /// `.async(onQueue:)`.
    var immediate: Bool
    /// Transactions that race the start of the observation, then a commit
    /// that bumps the marker; nil for a start before any step. On a pool
    /// they run while the first fetch is held after it read: with
    /// `.immediate`, before the writer observes (it must see that the
    /// value is stale); with `.async`, once it observes. On a queue, whose
    /// first fetch runs on the writer, they run right after `start`
    /// without waiting for the first value.
    var startRace: [ScriptTransaction]?
    var steps: [ScriptStep]

    var description: String {
        let options = [
            varyingRegion ? "tracking" : "trackingConstantRegion",
            mapsValues ? "map" : nil,
            removeDuplicates ? "removeDuplicates" : nil,
            immediate ? ".immediate" : ".async",
        ].compactMap { $0 }
        var lines = ["observe \(request) (\(options.joined(separator: ", ")))"]
        if let startRace {
            let commits = startRace.map(\.description) + ["bump marker; COMMIT"]
            lines.append("  during start: \(commits.joined(separator: " | "))")
        }
        return (lines + steps.map { "  \($0)" }).joined(separator: "\n")
    }

    /// The value the observation notifies for a committed state.
    func notifiedValue(in state: ValueObservationModel.State) -> String {
        let fetched = "\(request.value(in: state)) #\(state.marker)"
        return mapsValues ? Self.map(fetched) : fetched
    }

    /// The transform of `map`.
    @Sendable static func map(_ value: String) -> String { "<\(value)>" }
}

/// What the observation fetches. Every fetch also reads the `marker`
/// table, so that a commit that bumps the marker is always tracked; table
/// `c` is never read.
enum ObservedRequest: Sendable, CaseIterable, CustomStringConvertible {
    /// Every row of `a`.
    case allOfA
    /// The number of rows of `a` whose value is above 2.
    case countOfBigA
    /// The sum of the values of `b`.
    case sumOfB
    /// The number of ids in both `a` and `b`.
    case joinedAB
    /// The row of id 1 of `a`, through the query interface: its region is
    /// that row only.
    case rowOneOfA
    /// The number of rows of `a`, and the sum of `b` when `a` has more
    /// than one row: a region that changes with the data (observed with
    /// `tracking` only, since `trackingConstantRegion` would rightly miss
    /// changes to `b`).
    case bWhenManyA

    var description: String {
        switch self {
        case .allOfA: "SELECT id, v FROM a ORDER BY id"
        case .countOfBigA: "SELECT COUNT(*) FROM a WHERE v > 2"
        case .sumOfB: "SELECT SUM(v) FROM b"
        case .joinedAB: "SELECT COUNT(*) FROM a JOIN b USING (id)"
        case .rowOneOfA: "Table(\"a\").filter(key: 1)"
        case .bWhenManyA: "SELECT COUNT(*) FROM a, then SELECT SUM(v) FROM b if above 1"
        }
    }

    func fetch(_ db: Database) throws -> String {
        switch self {
        case .allOfA:
            try Row.fetchAll(db, sql: description).map { "\($0["id"] as Int64):\($0["v"] as Int)" }.joined(
                separator: ",")
        case .countOfBigA, .sumOfB, .joinedAB:
            "\(try Int.fetchOne(db, sql: description) ?? 0)"
        case .rowOneOfA:
            try Table("a").filter(key: 1).fetchOne(db).map { "\($0["v"] as Int)" } ?? "none"
        case .bWhenManyA:
            try Self.bWhenManyA(
                countOfA: Int.fetchOne(db, sql: "SELECT COUNT(*) FROM a")!,
                sumOfB: { try Int.fetchOne(db, sql: "SELECT SUM(v) FROM b") ?? 0 })
        }
    }

    /// What `fetch` returns in the model's state.
    func value(in state: ValueObservationModel.State) -> String {
        switch self {
        case .allOfA:
            state.a.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        case .countOfBigA:
            "\(state.a.values.filter { $0 > 2 }.count)"
        case .sumOfB:
            "\(state.b.values.reduce(0, +))"
        case .joinedAB:
            "\(state.a.keys.filter { state.b[$0] != nil }.count)"
        case .rowOneOfA:
            state.a[1].map { "\($0)" } ?? "none"
        case .bWhenManyA:
            Self.bWhenManyA(countOfA: state.a.count, sumOfB: { state.b.values.reduce(0, +) })
        }
    }

    private static func bWhenManyA(countOfA: Int, sumOfB: () throws -> Int) rethrows -> String {
        countOfA > 1 ? "\(countOfA) b=\(try sumOfB())" : "\(countOfA)"
    }
}

/// A step of a script: a transaction, and when it runs with respect to
/// the observation.
struct ScriptStep: Sendable, CustomStringConvertible {
    var transaction: ScriptTransaction
    var timing: StepTiming
    /// For `duringFetch` and `duringNotification`: the operations of the
    /// transaction that bumps the marker and starts the held fetch or
    /// notification (it commits).
    var lead: [ScriptOperation] = []

    var description: String {
        switch timing {
        case .racing, .paced:
            "\(timing): \(transaction)"
        case .duringFetch, .duringNotification:
            "\(timing) of [\((lead.map(\.description) + ["bump marker"]).joined(separator: "; "))]: \(transaction)"
        }
    }
}

enum StepTiming: Sendable, CaseIterable {
    /// Right after the previous step, racing the fetches it started.
    case racing
    /// Then waits until the observation notifies the committed state.
    case paced
    /// While a fetch is held after it read (pools; on a queue the fetch
    /// runs on the writer, so the step only races): the marker is bumped
    /// so that a fetch starts, the fetch is held, the transaction commits,
    /// then the fetch goes on with a value that is already stale.
    case duringFetch
    /// While a value is being notified: the marker is bumped, its
    /// notification is held in `onChange`, the transaction commits, then
    /// the notification goes on.
    case duringNotification
}

/// A transaction of a script: it commits, or throws and rolls back.
struct ScriptTransaction: Sendable, CustomStringConvertible {
    var operations: [ScriptOperation]
    var rollsBack: Bool

    var description: String {
        operations.map(\.description).joined(separator: "; ") + (rollsBack ? "; ROLLBACK" : "; COMMIT")
    }
}

enum ScriptOperation: Sendable, CustomStringConvertible {
    case insert(table: String, id: Int, value: Int)
    case increment(table: String, id: Int)
    case delete(table: String, id: Int)
    case notifyChanges(table: String)
    /// Operations in a savepoint, released or rolled back.
    indirect case savepoint([ScriptOperation], rollsBack: Bool)

    var description: String {
        switch self {
        case .insert(let table, let id, let value): "insert \(table) \(id)=\(value)"
        case .increment(let table, let id): "increment \(table) \(id)"
        case .delete(let table, let id): "delete \(table) \(id)"
        case .notifyChanges(let table): "notifyChanges \(table)"
        case .savepoint(let operations, let rollsBack):
            "savepoint { \(operations.map(\.description).joined(separator: "; ")) }\(rollsBack ? " rollback" : "")"
        }
    }

    func run(_ db: Database) throws {
        switch self {
        case .insert(let table, let id, let value):
            try db.execute(sql: "INSERT OR IGNORE INTO \(table)(id, v) VALUES (?, ?)", arguments: [id, value])
        case .increment(let table, let id):
            try db.execute(sql: "UPDATE \(table) SET v = v + 1 WHERE id = ?", arguments: [id])
        case .delete(let table, let id):
            try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [id])
        case .notifyChanges(let table):
            try db.notifyChanges(in: Table(table))
        case .savepoint(let operations, let rollsBack):
            try db.inSavepoint {
                for operation in operations { try operation.run(db) }
                return rollsBack ? .rollback : .commit
            }
        }
    }
}

/// The committed state of the tables.
struct ValueObservationModel {
    struct State: Equatable {
        var a: [Int: Int] = [:]
        var b: [Int: Int] = [:]
        var c: [Int: Int] = [:]
        var marker = 0
    }

    private(set) var committed = State()

    /// Runs a transaction; true if it committed.
    mutating func run(_ transaction: ScriptTransaction) -> Bool {
        guard !transaction.rollsBack else { return false }
        var state = committed
        for operation in transaction.operations { Self.apply(operation, to: &state) }
        committed = state
        return true
    }

    /// Commits `operations`, then `UPDATE marker SET n = n + 1`, in one
    /// transaction.
    mutating func commitBumpingMarker(_ operations: [ScriptOperation]) {
        _ = run(ScriptTransaction(operations: operations, rollsBack: false))
        committed.marker += 1
    }

    private static func apply(_ operation: ScriptOperation, to state: inout State) {
        func update(_ table: String, _ body: (inout [Int: Int]) -> Void) {
            switch table {
            case "a": body(&state.a)
            case "b": body(&state.b)
            default: body(&state.c)
            }
        }
        switch operation {
        case .insert(let table, let id, let value):
            update(table) { rows in if rows[id] == nil { rows[id] = value } }
        case .increment(let table, let id):
            update(table) { rows in rows[id] = rows[id].map { $0 + 1 } }
        case .delete(let table, let id):
            update(table) { rows in rows[id] = nil }
        case .notifyChanges:
            break
        case .savepoint(let operations, let rollsBack):
            guard !rollsBack else { return }
            for operation in operations { apply(operation, to: &state) }
        }
    }
}

extension ValueObservationScript {
    static var scripts: Generator<ValueObservationScript, [ValueObservationScript]> {
        generator(
            run: { rand -> ValueObservationScript in
                // The request whose region varies is the likeliest to
                // show a region tracked wrong.
                let request = rand.weighted(ObservedRequest.allCases.map { ($0 == .bWhenManyA ? 3 : 1, $0) })
                return ValueObservationScript(
                    request: request,
                    varyingRegion: request == .bWhenManyA || rand.chance(0.5),
                    mapsValues: rand.chance(0.3),
                    removeDuplicates: rand.chance(0.5),
                    immediate: rand.chance(0.3),
                    startRace: rand.chance(0.4)
                        ? (0..<rand.int(0...2)).map { _ in
                            ScriptTransaction(
                                operations: (0..<rand.int(1...3)).map { _ in operation(&rand, depth: 0) },
                                rollsBack: rand.chance(0.2))
                        } : nil,
                    steps: (0..<rand.int(0...12)).map { _ in
                        let timing = rand.weighted([
                            (3, StepTiming.racing), (3, .paced), (2, .duringFetch), (1, .duringNotification),
                        ])
                        // Half of the transactions write one table: a change
                        // that only a precise region sees.
                        let table = rand.chance(0.5) ? nil : rand.weighted([(5, "a"), (3, "b"), (2, "c")])
                        return ScriptStep(
                            transaction: ScriptTransaction(
                                operations: (0..<rand.int(1...4)).map { _ in operation(&rand, depth: 0, table: table) },
                                rollsBack: rand.chance(0.2)),
                            timing: timing,
                            lead: timing == .racing || timing == .paced
                                ? [] : (0..<rand.int(0...2)).map { _ in operation(&rand, depth: 0) })
                    })
            },
            shrink: { script in
                var candidates: [ValueObservationScript] = []
                if !script.steps.isEmpty {
                    var half = script
                    half.steps = Array(script.steps.prefix(script.steps.count / 2))
                    candidates.append(half)
                    for index in script.steps.indices.reversed() {
                        var smaller = script
                        smaller.steps.remove(at: index)
                        candidates.append(smaller)
                    }
                }
                if let race = script.startRace {
                    var unraced = script
                    unraced.startRace = nil
                    candidates.append(unraced)
                    for index in race.indices.reversed() {
                        var smaller = script
                        smaller.startRace!.remove(at: index)
                        candidates.append(smaller)
                    }
                }
                return candidates
            })
    }

    private static func operation(_ rand: inout Rand, depth: Int, table: String? = nil) -> ScriptOperation {
        let table = table ?? rand.weighted([(5, "a"), (3, "b"), (2, "c")])
        let id = rand.int(1...4)
        let kind = rand.weighted([(4, 0), (3, 1), (3, 2), (1, 3), (depth == 0 ? 2 : 0, 4)])
        switch kind {
        case 0: return .insert(table: table, id: id, value: rand.int(0...4))
        case 1: return .increment(table: table, id: id)
        case 2: return .delete(table: table, id: id)
        case 3: return .notifyChanges(table: table)
        default:
            return .savepoint(
                (0..<rand.int(1...3)).map { _ in operation(&rand, depth: depth + 1, table: table) },
                rollsBack: rand.chance(0.5))
        }
    }
}
