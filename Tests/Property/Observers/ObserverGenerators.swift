@_spi(GRDBLite) import GRDBLite
import PropertyBased

// The actions of observer scripts: observers come and go, and statements
// change rows of a small schema with a foreign key cascade and a trigger.

/// The tables of observer scripts (with the tables of `FailingStatement`).
enum ObserverSchema {
    static let sql = """
        CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT, score INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE);
        CREATE TABLE audit (id INTEGER PRIMARY KEY, parentId INTEGER);
        CREATE TRIGGER scoreChanged AFTER UPDATE OF score ON parent BEGIN
            INSERT INTO audit (parentId) VALUES (NEW.id);
        END;
        INSERT INTO parent (id) VALUES (1), (2), (3);
        INSERT INTO child (id, parentId) VALUES (1, 1), (2, 2), (3, 2), (4, 3);
        """

    /// The columns of the tables of `sql` and `FailingStatement.schema`.
    static let columns: [String: Set<String>] = [
        "parent": ["id", "name", "score"], "child": ["id", "parentId"], "audit": ["id", "parentId"],
        "uniq": ["id"], "guard": ["id"],
    ]
    /// The columns of `sqlite_master`, which `notifyChanges(in:)` accepts
    /// but the full database does not include.
    static let schemaTableColumns: Set<String> = ["type", "name", "tbl_name", "rootpage", "sql"]

    /// The rows that `sql` inserts.
    static let initialTables = ObserverModel.Tables(
        parents: [1: 0, 2: 0, 3: 0], children: [1: 1, 2: 2, 3: 2, 4: 3], audits: [])
}

/// A kind of change, as `observes(eventsOfKind:)` sees it.
struct EventKind: Hashable, Sendable, CustomStringConvertible {
    enum Operation: String, Sendable, CaseIterable { case insert, update, delete }
    var operation: Operation
    var table: String
    /// The updated columns of updates.
    var columns: Set<String> = []

    init(_ operation: Operation, _ table: String, columns: Set<String> = []) {
        self.operation = operation
        self.table = table
        self.columns = columns
    }

    init(_ kind: DatabaseEventKind) {
        switch kind {
        case .insert(let table): self.init(.insert, table)
        case .delete(let table): self.init(.delete, table)
        case .update(let table, let columns): self.init(.update, table, columns: columns)
        }
    }

    var description: String {
        "\(operation) \(table)" + (columns.isEmpty ? "" : "(\(columns.sorted().joined(separator: ",")))")
    }
}

/// What an observer observes.
struct ObserverFilter: Sendable, CustomStringConvertible {
    /// nil: all tables.
    var tables: Set<String>?
    /// nil: all operations.
    var operations: Set<EventKind.Operation>?
    /// Updates are observed when they change one of these columns (nil:
    /// any).
    var updatedColumns: Set<String>?

    static let everything = ObserverFilter()
    static let nothing = ObserverFilter(tables: [])

    func observes(_ kind: EventKind) -> Bool {
        if let tables, !tables.contains(kind.table) { return false }
        if let operations, !operations.contains(kind.operation) { return false }
        if kind.operation == .update, let updatedColumns, updatedColumns.isDisjoint(with: kind.columns) { return false }
        return true
    }

    var description: String {
        if tables == [] { return "nothing" }
        var parts: [String] = []
        if let tables { parts.append(tables.sorted().joined(separator: "+")) }
        if let operations { parts.append(operations.map(\.rawValue).sorted().joined(separator: "+")) }
        if let updatedColumns { parts.append("columns " + updatedColumns.sorted().joined(separator: "+")) }
        return parts.isEmpty ? "everything" : parts.joined(separator: " ")
    }
}

/// A region of `db.notifyChanges(in:)`.
enum RegionSpec: Sendable, CustomStringConvertible {
    case fullDatabase
    /// The union of these tables (names as written, in any case, maybe
    /// missing), each whole (nil) or restricted to some columns. No table:
    /// the empty region.
    case tables([(name: String, columns: Set<String>?)])

    var region: DatabaseRegion {
        switch self {
        case .fullDatabase:
            return .fullDatabase
        case .tables(let tables):
            return tables.reduce(DatabaseRegion()) { region, table in
                region.union(
                    table.columns.map { DatabaseRegion(table: table.name, columns: $0) }
                        ?? DatabaseRegion(table: table.name))
            }
        }
    }

    var description: String {
        switch self {
        case .fullDatabase: "full database"
        case .tables(let tables) where tables.isEmpty: "empty region"
        case .tables(let tables):
            tables.map { $0.name + ($0.columns.map { "(" + $0.sorted().joined(separator: ",") + ")" } ?? "(*)") }
                .joined(separator: "+")
        }
    }
}

enum ObserverExtent: String, Sendable {
    case observerLifetime, nextTransaction, databaseLifetime

    var extent: Database.TransactionObservationExtent {
        switch self {
        case .observerLifetime: .observerLifetime
        case .nextTransaction: .nextTransaction
        case .databaseLifetime: .databaseLifetime
        }
    }
}

struct ObserverSpec: Sendable, CustomStringConvertible {
    var id: Int
    var extent: ObserverExtent
    var filter: ObserverFilter
    /// Calls `stopObservingDatabaseChangesUntilNextTransaction()` after
    /// each change.
    var stopsAfterChange: Bool

    var description: String {
        "o\(id)(\(extent), \(filter)\(stopsAfterChange ? ", stops" : ""))"
    }
}

enum ObserverAction: Sendable, CustomStringConvertible {
    /// `db.add(transactionObserver:extent:)`.
    case add(ObserverSpec)
    /// `db.remove(transactionObserver:)`.
    case remove(Int)
    /// The test releases its reference to the observer.
    case release(Int)
    /// The observer throws from its next `databaseWillCommit`.
    case failNextCommit(Int)
    /// `INSERT INTO parent (id) VALUES (?), (?)...` (nil: an auto id).
    case insertParents([Int?])
    /// `INSERT INTO child (parentId) VALUES (?)`.
    case insertChild(parent: Int)
    /// `UPDATE parent SET score = score + 1 [WHERE id = ?]`: the trigger
    /// inserts an audit row for each.
    case updateScores(Int?)
    /// `UPDATE parent SET name = ... [WHERE id = ?]`.
    case updateNames(Int?)
    /// `DELETE FROM parent [WHERE id = ?]`: children are deleted by the
    /// foreign key cascade.
    case deleteParents(Int?)
    /// `DELETE FROM child [WHERE id = ?]`.
    case deleteChildren(Int?)
    /// `SELECT COUNT(*) FROM parent`.
    case select
    /// `db.notifyChanges(in:)`, after a `SELECT` (see the test).
    case notifyChanges(RegionSpec)

    var description: String {
        func filter(_ id: Int?) -> String { id.map { " #\($0)" } ?? "" }
        switch self {
        case .add(let spec): return "add \(spec)"
        case .remove(let id): return "remove o\(id)"
        case .release(let id): return "release o\(id)"
        case .failNextCommit(let id): return "failNextCommit o\(id)"
        case .insertParents(let ids):
            return "insertParents \(ids.map { $0.map(String.init) ?? "auto" }.joined(separator: ","))"
        case .insertChild(let parent): return "insertChild parent #\(parent)"
        case .updateScores(let id): return "updateScores" + filter(id)
        case .updateNames(let id): return "updateNames" + filter(id)
        case .deleteParents(let id): return "deleteParents" + filter(id)
        case .deleteChildren(let id): return "deleteChildren" + filter(id)
        case .select: return "select"
        case .notifyChanges(let region): return "notifyChanges \(region)"
        }
    }
}

struct ObserverActions: ScriptActionGenerator {
    /// Observers get consecutive ids; remove and release target existing ones.
    private var observerCount = 0

    mutating func action(_ r: inout Rand, readOnly: Bool) -> ObserverAction {
        if readOnly { return r.chance(0.2) ? .notifyChanges(region(&r)) : .select }
        let id = observerCount == 0 ? 0 : r.int(0...(observerCount - 1))
        let parent = r.int(1...5)
        switch r.int(0...33) {
        case 0...5:
            defer { observerCount += 1 }
            return .add(ObserverSpec(
                id: observerCount,
                extent: r.weighted([(3, .observerLifetime), (2, .nextTransaction), (2, .databaseLifetime)]),
                filter: filter(&r),
                stopsAfterChange: r.chance(0.15)))
        case 5: return .remove(id)
        case 6: return .release(id)
        case 7: return .failNextCommit(id)
        case 8...12: return .insertParents((0..<r.int(1...3)).map { _ in r.chance(0.4) ? nil : r.int(1...5) })
        case 13...16: return .insertChild(parent: parent)
        case 17...19: return .updateScores(r.chance(0.5) ? parent : nil)
        case 20...21: return .updateNames(r.chance(0.5) ? parent : nil)
        case 22...24: return .deleteParents(r.chance(0.7) ? parent : nil)
        case 25...26: return .deleteChildren(r.chance(0.5) ? r.int(1...6) : nil)
        case 27...30: return .notifyChanges(region(&r))
        default: return .select
        }
    }

    /// Mostly one or two tables that some observers observe and others
    /// don't, sometimes restricted to columns that filter updates, written
    /// in another case, missing, or the schema table.
    private func region(_ r: inout Rand) -> RegionSpec {
        switch r.int(0...9) {
        case 0: return .fullDatabase
        case 1: return .tables([])
        default:
            return .tables((0..<r.int(1...2)).map { _ in
                    let name = r.weighted([
                        (3, "parent"), (2, "child"), (2, "audit"), (1, "PARENT"), (1, "Child"), (1, "uniq"),
                        (1, "missing"), (1, "sqlite_master")
                    ])
                    let columns: Set<String>? =
                        name.lowercased() == "parent" && r.chance(0.5)
                        ? r.pick([["name"], ["score"], ["SCORE"], ["id"], ["id", "name"]] as [Set<String>]) : nil
                return (name, columns)
            })
        }
    }

    private func filter(_ r: inout Rand) -> ObserverFilter {
        switch r.int(0...9) {
        case 0...2: return .everything
        case 3: return .nothing
        default:
            return ObserverFilter(
                tables: r.chance(0.6) ? Set((0..<r.int(1...2)).map { _ in r.pick(["parent", "child", "audit"]) }) : nil,
                operations: r.chance(0.5)
                    ? Set((0..<r.int(1...2)).map { _ in r.pick(EventKind.Operation.allCases) }) : nil,
                updatedColumns: r.chance(0.4) ? [r.pick(["name", "score"])] : nil)
        }
    }

    func shrink(_ action: ObserverAction) -> [ObserverAction] {
        switch action {
        case .add(let spec):
            var candidates: [ObserverAction] = []
            if spec.extent != .databaseLifetime {
                candidates.append(
                    .add(
                        ObserverSpec(
                            id: spec.id, extent: .databaseLifetime, filter: spec.filter,
                            stopsAfterChange: spec.stopsAfterChange)))
            }
            if spec.stopsAfterChange {
                candidates.append(
                    .add(ObserverSpec(id: spec.id, extent: spec.extent, filter: spec.filter, stopsAfterChange: false)))
            }
            if spec.filter.description != "everything" {
                candidates.append(
                    .add(
                        ObserverSpec(
                            id: spec.id, extent: spec.extent, filter: .everything,
                            stopsAfterChange: spec.stopsAfterChange)))
            }
            return candidates
        case .insertParents(let ids) where ids.count > 1:
            return ids.indices.map { index in
                .insertParents(ids.enumerated().filter { $0.offset != index }.map(\.element))
            }
        case .updateScores(.some), .updateNames(.some), .deleteParents(.some), .deleteChildren(.some), .insertChild:
            return [.select]
        case .notifyChanges(.fullDatabase):
            return [.notifyChanges(.tables([("parent", nil)])), .select]
        case .notifyChanges(.tables(let tables)):
            var candidates: [ObserverAction] = [.select]
            if tables.count > 1 {
                candidates += tables.indices.map { index in
                    .notifyChanges(.tables(tables.enumerated().filter { $0.offset != index }.map(\.element)))
                }
            }
            for (index, table) in tables.enumerated() where table.columns != nil {
                var whole = tables
                whole[index].columns = nil
                candidates.append(.notifyChanges(.tables(whole)))
            }
            return candidates
        default:
            return []
        }
    }
}

enum ObserverGenerators {
    static var script: Generator<Script<ObserverAction>, [Script<ObserverAction>]> {
        ScriptGenerators.script(ObserverActions(), accesses: 1...10)
    }
}
