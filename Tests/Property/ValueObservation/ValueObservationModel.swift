import GRDBLite
import PropertyBased

/// A script of transactions under an observation of `request`.
struct ValueObservationScript: Sendable, CustomStringConvertible {
    var request: ObservedRequest
    var varyingRegion: Bool
    var removeDuplicates: Bool
    var transactions: [ScriptTransaction]

    var description: String {
        """
        observe \(request) (\(varyingRegion ? "tracking" : "trackingConstantRegion")\
        \(removeDuplicates ? ", removeDuplicates" : ""))
        \(transactions.map { "  \($0)" }.joined(separator: "\n"))
        """
    }
}

/// What the observation fetches (it also reads the marker table).
enum ObservedRequest: Sendable, CaseIterable, CustomStringConvertible {
    /// Every row of `a`.
    case allOfA
    /// The number of rows of `a` whose value is above 2.
    case countOfBigA
    /// The sum of the values of `b`.
    case sumOfB

    var description: String {
        switch self {
        case .allOfA: "SELECT id, v FROM a ORDER BY id"
        case .countOfBigA: "SELECT COUNT(*) FROM a WHERE v > 2"
        case .sumOfB: "SELECT SUM(v) FROM b"
        }
    }

    func fetch(_ db: Database) throws -> String {
        switch self {
        case .allOfA:
            try Row.fetchAll(db, sql: description).map { "\($0["id"] as Int64):\($0["v"] as Int)" }.joined(separator: ",")
        case .countOfBigA, .sumOfB:
            "\(try Int.fetchOne(db, sql: description) ?? 0)"
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
        }
    }
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

/// The committed state of tables `a` and `b`.
struct ValueObservationModel {
    struct State: Equatable {
        var a: [Int: Int] = [:]
        var b: [Int: Int] = [:]
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

    private static func apply(_ operation: ScriptOperation, to state: inout State) {
        func update(_ table: String, _ body: (inout [Int: Int]) -> Void) {
            if table == "a" { body(&state.a) } else { body(&state.b) }
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
                ValueObservationScript(
                    request: rand.pick(ObservedRequest.allCases),
                    varyingRegion: rand.chance(0.5),
                    removeDuplicates: rand.chance(0.5),
                    transactions: (0..<rand.int(0...12)).map { _ in
                        ScriptTransaction(
                            operations: (0..<rand.int(1...4)).map { _ in operation(&rand, depth: 0) },
                            rollsBack: rand.chance(0.2))
                    })
            },
            shrink: { script in
                guard !script.transactions.isEmpty else { return [] }
                var candidates: [ValueObservationScript] = []
                var half = script
                half.transactions = Array(script.transactions.prefix(script.transactions.count / 2))
                candidates.append(half)
                for index in script.transactions.indices.reversed() {
                    var smaller = script
                    smaller.transactions.remove(at: index)
                    candidates.append(smaller)
                }
                return candidates
            })
    }

    private static func operation(_ rand: inout Rand, depth: Int) -> ScriptOperation {
        let table = rand.chance(0.7) ? "a" : "b"
        let id = rand.int(1...4)
        let kind = rand.weighted([(4, 0), (3, 1), (2, 2), (1, 3), (depth == 0 ? 2 : 0, 4)])
        switch kind {
        case 0: return .insert(table: table, id: id, value: rand.int(0...4))
        case 1: return .increment(table: table, id: id)
        case 2: return .delete(table: table, id: id)
        case 3: return .notifyChanges(table: table)
        default:
            return .savepoint(
                (0..<rand.int(1...3)).map { _ in operation(&rand, depth: depth + 1) },
                rollsBack: rand.chance(0.5))
        }
    }
}
