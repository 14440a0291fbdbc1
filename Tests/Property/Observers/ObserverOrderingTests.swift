import GRDBLite
import PropertyBased
import Testing

/// Random scripts of inserts, updates and deletes (with a foreign key
/// cascade and a trigger), savepoints, commits, rollbacks, failing
/// statements and commits cancelled by observers, with observers of various
/// filters and extents added, removed and released along the way, and
/// `notifyChanges(in:)` of random regions: the log of notifications (kind,
/// table, rowid, which observers `notifyChanges` tells, and order across
/// observers) is the one of `ObserverModel`.
@Suite struct ObserverOrderingTests {
    @Test func notificationsFollowTheModel() async {
        await checkProperty(count: 1500, input: ObserverGenerators.script) { script in
            let log = try runScript(script)
            expectSameLog(log, ObserverModel().run(script))
        }
    }

    private func runScript(_ script: Script<ObserverAction>) throws -> [String] {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: FailingStatement.schema)
            try db.execute(sql: ObserverSchema.sql)
        }
        let log = ScriptLog()
        let observers = ObserverRegistry()
        let runner = ScriptRunner<ObserverAction>(dbQueue: dbQueue, log: log) { action, db in
            switch action {
            case .add(let spec):
                let observer = ScriptObserver(spec: spec, log: log)
                observers.held[spec.id] = observer
                db.add(transactionObserver: observer, extent: spec.extent.extent)
            case .remove(let id):
                if let observer = observers.held[id] { db.remove(transactionObserver: observer) }
            case .release(let id):
                observers.held[id] = nil
            case .failNextCommit(let id):
                observers.held[id]?.failsNextCommit = true
            case .insertParents(let ids):
                let values = ids.map { _ in "(?)" }.joined(separator: ", ")
                try db.execute(sql: "INSERT INTO parent (id) VALUES \(values)", arguments: StatementArguments(ids))
            case .insertChild(let parent):
                try db.execute(sql: "INSERT INTO child (parentId) VALUES (?)", arguments: [parent])
            case .updateScores(let id):
                try db.execute(
                    sql: "UPDATE parent SET score = score + 1" + whereClause(id),
                    arguments: StatementArguments(id.map { [$0] } ?? []))
            case .updateNames(let id):
                try db.execute(
                    sql: "UPDATE parent SET name = 'renamed'" + whereClause(id),
                    arguments: StatementArguments(id.map { [$0] } ?? []))
            case .deleteParents(let id):
                try db.execute(
                    sql: "DELETE FROM parent" + whereClause(id), arguments: StatementArguments(id.map { [$0] } ?? []))
            case .deleteChildren(let id):
                try db.execute(
                    sql: "DELETE FROM child" + whereClause(id), arguments: StatementArguments(id.map { [$0] } ?? []))
            case .select:
                _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM parent")
            case .notifyChanges(let region):
                // In a block whose transaction SQLite rolled back, reading
                // the schema fails, and notifyChanges reads it only when
                // the database has observers: the SELECT makes it fail
                // as the model's statements do.
                _ = try Int.fetchOne(db, sql: "SELECT 1")
                try db.notifyChanges(in: region.region)
            }
            return "ok"
        }
        runner.run(script)
        // Observers that the database retains are released with it: the
        // log ends with the script.
        log.isOpen = false
        return log.entries
    }

    private func whereClause(_ id: Int?) -> String {
        id == nil ? "" : " WHERE id = ?"
    }
}

/// The observers the test holds.
private final class ObserverRegistry {
    var held: [Int: ScriptObserver] = [:]
}

/// An observer that logs its notifications, as `o1 insert parent 3`,
/// `o1 willCommit`, `o1 didCommit`, `o1 deinit`.
private final class ScriptObserver: TransactionObserver {
    let spec: ObserverSpec
    let log: ScriptLog
    var failsNextCommit = false

    init(spec: ObserverSpec, log: ScriptLog) {
        self.spec = spec
        self.log = log
    }

    deinit {
        log.append("o\(spec.id) deinit")
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        spec.filter.observes(EventKind(eventKind))
    }

    func databaseDidChange(with event: DatabaseEvent) {
        log.append("o\(spec.id) \(event.kind) \(event.tableName) \(event.rowID)")
        if spec.stopsAfterChange {
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseDidChange() {
        log.append("o\(spec.id) didChange")
        if spec.stopsAfterChange {
            stopObservingDatabaseChangesUntilNextTransaction()
        }
    }

    func databaseWillCommit() throws {
        log.append("o\(spec.id) willCommit")
        if failsNextCommit {
            failsNextCommit = false
            throw ObserverError(id: spec.id)
        }
    }

    func databaseDidCommit(_ db: Database) {
        log.append("o\(spec.id) didCommit")
    }

    func databaseDidRollback(_ db: Database) {
        log.append("o\(spec.id) didRollback")
    }
}

struct ObserverError: ScriptError {
    var id: Int
    var logDescription: String { "observer o\(id) error" }
}
