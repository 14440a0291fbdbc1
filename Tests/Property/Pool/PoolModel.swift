import PropertyBased

/// A step of a pool script. Actors: one writer, `readerCount` reader
/// threads, `spawnCount` reads spawned with `asyncConcurrentRead`, and
/// `snapshotCount` snapshots. Each step runs alone, in order: the script
/// is an interleaving of the actors' steps, and the reads that are open
/// across steps run in parallel with the writer for real.
enum PoolStep: Sendable, Equatable, CustomStringConvertible {
    /// The writer begins a transaction, changes the table, fails a
    /// statement (the transaction goes on), reads on a reader from inside
    /// the transaction, commits or rolls back.
    case begin, set(key: Int, value: Int), delete(key: Int), fail, nestedRead, commit, rollback
    /// The writer changes a row outside of a transaction (it commits).
    case autocommitSet(key: Int, value: Int)
    /// The writer runs a checkpoint outside of a transaction.
    case checkpoint(mode: Int)
    /// Reader `reader` opens a read transaction, reads, ends it; or reads
    /// outside of a transaction (`unsafeRead`).
    case beginRead(reader: Int), read(reader: Int), endRead(reader: Int), unsafeRead(reader: Int)
    /// The writer spawns a concurrent read (outside of a transaction); the
    /// spawned read reads, and ends.
    case spawn(slot: Int), spawnedRead(slot: Int), endSpawned(slot: Int)
    /// A snapshot is made, read, released.
    case makeSnapshot(slot: Int), snapshotRead(slot: Int), dropSnapshot(slot: Int)

    var description: String {
        switch self {
        case .begin: "begin"
        case .set(let key, let value): "set \(key)=\(value)"
        case .delete(let key): "delete \(key)"
        case .fail: "fail"
        case .nestedRead: "nested read"
        case .commit: "commit"
        case .rollback: "rollback"
        case .autocommitSet(let key, let value): "autocommit set \(key)=\(value)"
        case .checkpoint(let mode): "checkpoint \(mode)"
        case .beginRead(let reader): "reader \(reader) begins"
        case .read(let reader): "reader \(reader) reads"
        case .endRead(let reader): "reader \(reader) ends"
        case .unsafeRead(let reader): "reader \(reader) unsafe read"
        case .spawn(let slot): "spawn \(slot)"
        case .spawnedRead(let slot): "spawned \(slot) reads"
        case .endSpawned(let slot): "spawned \(slot) ends"
        case .makeSnapshot(let slot): "snapshot \(slot) made"
        case .snapshotRead(let slot): "snapshot \(slot) reads"
        case .dropSnapshot(let slot): "snapshot \(slot) dropped"
        }
    }
}

struct PoolScript: Sendable, CustomStringConvertible {
    static let readerCount = 3
    static let spawnCount = 2
    static let snapshotCount = 2
    static let keys = 0...3

    var steps: [PoolStep]

    var description: String {
        "\n" + steps.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
    }
}

/// The table's content: key → value.
typealias PoolState = [Int: Int]

extension PoolState {
    /// How a read logs the table.
    var logDescription: String {
        keys.sorted().map { "\($0)=\(self[$0]!)" }.joined(separator: ",")
    }
}

/// What each step must log, step by step: every read returns exactly the
/// committed state that its isolation says (the last commit when its
/// transaction began, or when it runs outside of one). A step that is not
/// valid where it stands (a read by a reader that is not reading, a
/// commit without a transaction) is skipped, by the model and by the
/// run alike, so that shrunk scripts stay runnable.
struct PoolModel {
    /// Every committed state, in commit order.
    private(set) var committed: [PoolState] = [[:]]
    private var transaction: PoolState?
    private var readers: [Int: Int] = [:]    // reader → index of the state it sees
    private var spawned: [Int: Int] = [:]
    private var snapshots: [Int: Int] = [:]

    var isInTransaction: Bool { transaction != nil }
    func isReading(_ reader: Int) -> Bool { readers[reader] != nil }
    func isSpawned(_ slot: Int) -> Bool { spawned[slot] != nil }
    func hasSnapshot(_ slot: Int) -> Bool { snapshots[slot] != nil }

    private var last: Int { committed.count - 1 }

    /// Whether `step` runs here.
    func isValid(_ step: PoolStep) -> Bool {
        switch step {
        case .begin, .autocommitSet, .checkpoint: !isInTransaction
        case .spawn(let slot): !isInTransaction && !isSpawned(slot)
        case .set, .delete, .fail, .nestedRead, .commit, .rollback: isInTransaction
        case .beginRead(let reader), .unsafeRead(let reader): !isReading(reader)
        case .read(let reader), .endRead(let reader): isReading(reader)
        case .spawnedRead(let slot), .endSpawned(let slot): isSpawned(slot)
        case .makeSnapshot(let slot): !hasSnapshot(slot)
        case .snapshotRead(let slot), .dropSnapshot(let slot): hasSnapshot(slot)
        }
    }

    /// Applies a valid step; returns what it logs.
    mutating func apply(_ step: PoolStep) -> String {
        switch step {
        case .begin:
            transaction = committed[last]
            return "begun"
        case .set(let key, let value):
            transaction![key] = value
            return "ok"
        case .delete(let key):
            transaction![key] = nil
            return "ok"
        case .fail:
            return "constraint"
        case .nestedRead:
            return committed[last].logDescription
        case .commit:
            if transaction! != committed[last] { committed.append(transaction!) }
            transaction = nil
            return "committed"
        case .rollback:
            transaction = nil
            return "rolled back"
        case .autocommitSet(let key, let value):
            var state = committed[last]
            state[key] = value
            if state != committed[last] { committed.append(state) }
            return "committed"
        case .checkpoint:
            return "checkpoint"
        case .beginRead(let reader):
            readers[reader] = last
            return "begun"
        case .read(let reader):
            return committed[readers[reader]!].logDescription
        case .endRead(let reader):
            readers[reader] = nil
            return "ended"
        case .unsafeRead:
            return committed[last].logDescription
        case .spawn(let slot):
            spawned[slot] = last
            return "spawned"
        case .spawnedRead(let slot):
            return committed[spawned[slot]!].logDescription
        case .endSpawned(let slot):
            spawned[slot] = nil
            return "ended"
        case .makeSnapshot(let slot):
            snapshots[slot] = last
            return "made"
        case .snapshotRead(let slot):
            return committed[snapshots[slot]!].logDescription
        case .dropSnapshot(let slot):
            snapshots[slot] = nil
            return "dropped"
        }
    }

    /// The log of a script: "step: result" for each valid step.
    static func log(_ script: PoolScript) -> [String] {
        var model = PoolModel()
        return script.steps.compactMap { step in
            model.isValid(step) ? "\(step): \(model.apply(step))" : nil
        }
    }
}

enum PoolGenerators {
    static let script = generator(run: makeScript, shrink: shrink)

    /// Scripts that open reads, write and commit among them: steps are
    /// drawn mostly among the valid ones, so that reads overlap commits.
    private static func makeScript(_ r: inout Rand) -> PoolScript {
        var model = PoolModel()
        var steps: [PoolStep] = []
        for _ in 0..<r.int(1...60) {
            let step = randomStep(&r, model)
            if model.isValid(step) { _ = model.apply(step) }
            steps.append(step)
        }
        return PoolScript(steps: steps)
    }

    private static func randomStep(_ r: inout Rand, _ model: PoolModel) -> PoolStep {
        let reader = r.int(0...(PoolScript.readerCount - 1))
        let spawn = r.int(0...(PoolScript.spawnCount - 1))
        let snapshot = r.int(0...(PoolScript.snapshotCount - 1))
        let key = r.pick(PoolScript.keys)
        let value = r.int(0...9)
        if model.isInTransaction && r.chance(0.6) {
            return r.weighted([
                (8, .set(key: key, value: value)), (2, .delete(key: key)), (1, .fail), (2, .nestedRead),
                (4, .commit), (1, .rollback),
            ])
        }
        return r.weighted([
            (3, .begin), (3, .autocommitSet(key: key, value: value)), (1, .checkpoint(mode: r.int(0...3))),
            (3, model.isReading(reader) ? .read(reader: reader) : .beginRead(reader: reader)),
            (2, .endRead(reader: reader)), (1, .unsafeRead(reader: reader)),
            (2, model.isSpawned(spawn) ? .spawnedRead(slot: spawn) : .spawn(slot: spawn)),
            (1, .endSpawned(slot: spawn)),
            (1, model.hasSnapshot(snapshot) ? .snapshotRead(slot: snapshot) : .makeSnapshot(slot: snapshot)),
            (1, .dropSnapshot(slot: snapshot)),
        ])
    }

    /// Shorter scripts: halves, then without one step.
    private static func shrink(_ script: PoolScript) -> [PoolScript] {
        let steps = script.steps
        guard !steps.isEmpty else { return [] }
        var candidates: [PoolScript] = []
        if steps.count > 1 {
            candidates.append(PoolScript(steps: Array(steps.prefix(steps.count / 2))))
            candidates.append(PoolScript(steps: Array(steps.suffix(steps.count - steps.count / 2))))
        }
        for index in steps.indices.reversed() {
            var fewer = steps
            fewer.remove(at: index)
            candidates.append(PoolScript(steps: fewer))
        }
        return candidates
    }
}
