/// The reference model of transaction observers, GRDB's rules: which
/// observer is told what, in which order.
///
/// - Before a statement runs, each observer (in the order they were added)
///   is asked which of the kinds of changes the statement may perform it
///   observes (the authorizer's kinds: for `DELETE FROM parent`, deletions
///   in `parent` and, through the cascade, in `child`). It gets the changes
///   of the kinds it observes (and of kinds the statement did not announce).
/// - Each changed row is notified when SQLite changes it, or held while a
///   savepoint is open: released savepoints notify their changes, rolled
///   back ones drop them.
/// - A commit notifies the held changes, then `willCommit` to each
///   observer until one throws (the commit is then a rollback), then
///   `didCommit` or `didRollback` to each observer. A statement that fails
///   outside of a transaction only notifies the rollback of its implicit
///   transaction if it notified changes. Read-only transactions notify
///   nothing.
/// - `notifyChanges(in:)` tells `didChange`, at once (even in a savepoint),
///   to each enabled observer that observes one of the kinds of changes of
///   the region's tables: deletions, insertions, and updates of the
///   region's columns (all of them for a whole table or the full database).
///   Tables are found case-insensitively; missing ones are ignored; the full
///   database does not include `sqlite_master`, which may be named. Outside
///   of a transaction, it notifies no commit, and does not make the next
///   failed implicit transaction notify its rollback. Read-only accesses
///   notify nothing.
/// - Extents: `.observerLifetime` ends when the test releases the observer,
///   `.nextTransaction` after the end of a transaction it is told of,
///   `.databaseLifetime` never (in a script). `remove` ends them all.
///   `stopObservingDatabaseChangesUntilNextTransaction` stops changes until
///   the transaction ends.
final class ObserverModel: ScriptModelDelegate {
    struct Observer {
        var spec: ObserverSpec
        var isHeldByTest = true
        /// In the database's list of observers.
        var isRegistered = true
        var isEnabled = true
        var failsNextCommit = false

        /// Whether the database notifies it.
        var isNotified: Bool {
            isRegistered && (spec.extent != .observerLifetime || isHeldByTest)
        }

        /// Whether something keeps it alive.
        var isAlive: Bool {
            isHeldByTest || (isRegistered && spec.extent != .observerLifetime)
        }
    }

    /// The rows of the tables.
    struct Tables {
        var parents: [Int: Int] = [:] // id: score
        var children: [Int: Int] = [:] // id: parentId
        var audits: Set<Int> = []
    }

    /// A changed row.
    struct Event: CustomStringConvertible {
        var operation: EventKind.Operation
        var table: String
        var rowID: Int

        var description: String { "\(operation) \(table) \(rowID)" }

        func matches(_ kind: EventKind) -> Bool {
            kind.operation == operation && kind.table == table
        }
    }

    /// An observer of a statement, and the kinds of changes it gets.
    struct StatementObservation {
        var observerID: Int
        var observedKinds: [EventKind]
        var statementKinds: [EventKind]

        func accepts(_ event: Event) -> Bool {
            observedKinds.contains(where: event.matches) || !statementKinds.contains(where: event.matches)
        }
    }

    private(set) var observers: [Observer] = []
    private var log: (String) -> Void = { _ in }
    private var isReadOnly: () -> Bool = { false }

    private var tables = ObserverSchema.initialTables
    /// Tables at the start of the transaction, and of each savepoint.
    private var transactionStart = ObserverSchema.initialTables
    private var savepointStarts: [(tables: Tables, heldCount: Int)] = []
    /// Changes held while savepoints are open.
    private var heldEvents: [(event: Event, observations: [StatementObservation])] = []
    /// Whether a change was notified during the transaction.
    private var didNotifyChanges = false

    /// Runs the script, and returns the log GRDBLite should produce.
    func run(_ script: Script<ObserverAction>) -> [String] {
        let model = ScriptModel(delegate: self)
        log = { [unowned model] in model.append($0) }
        isReadOnly = { [unowned model] in model.isReadOnly }
        return model.run(script)
    }

    private func index(of id: Int) -> Int? {
        observers.firstIndex { $0.spec.id == id }
    }

    // MARK: - Actions

    func perform(_ action: ObserverAction, _ model: ScriptModel<ObserverModel>) -> String {
        switch action {
        case .add(let spec):
            observers.append(Observer(spec: spec))
        case .remove(let id):
            if let index = index(of: id), observers[index].isHeldByTest {
                observers[index].isRegistered = false
            }
        case .release(let id):
            if let index = index(of: id), observers[index].isHeldByTest {
                observers[index].isHeldByTest = false
                if !observers[index].isAlive { log("o\(id) deinit") }
            }
        case .failNextCommit(let id):
            if let index = index(of: id), observers[index].isHeldByTest {
                observers[index].failsNextCommit = true
            }
        case .insertParents(let ids):
            return model.statement(writes: true) {
                change([EventKind(.insert, "parent")]) { tables, notify in
                    for id in ids {
                        let id = id ?? (tables.parents.keys.max() ?? 0) + 1
                        if tables.parents[id] != nil { return "error 1555" } // SQLITE_CONSTRAINT_PRIMARYKEY
                        tables.parents[id] = 0
                        notify(Event(operation: .insert, table: "parent", rowID: id))
                    }
                    return nil
                }
            }
        case .insertChild(let parent):
            return model.statement(writes: true) {
                change([EventKind(.insert, "child")]) { tables, notify in
                    if tables.parents[parent] == nil { return "error 787" } // SQLITE_CONSTRAINT_FOREIGNKEY
                    let id = (tables.children.keys.max() ?? 0) + 1
                    tables.children[id] = parent
                    notify(Event(operation: .insert, table: "child", rowID: id))
                    return nil
                }
            }
        case .updateScores(let filter):
            return model.statement(writes: true) {
                change([EventKind(.update, "parent", columns: ["score"]), EventKind(.insert, "audit")]) {
                    tables, notify in
                    for id in tables.parents.keys.sorted() where filter == nil || filter == id {
                        tables.parents[id]! += 1
                        notify(Event(operation: .update, table: "parent", rowID: id))
                        let audit = (tables.audits.max() ?? 0) + 1
                        tables.audits.insert(audit)
                        notify(Event(operation: .insert, table: "audit", rowID: audit))
                    }
                    return nil
                }
            }
        case .updateNames(let filter):
            return model.statement(writes: true) {
                change([EventKind(.update, "parent", columns: ["name"])]) { tables, notify in
                    for id in tables.parents.keys.sorted() where filter == nil || filter == id {
                        notify(Event(operation: .update, table: "parent", rowID: id))
                    }
                    return nil
                }
            }
        case .deleteParents(let filter):
            return model.statement(writes: true) {
                change([EventKind(.delete, "parent"), EventKind(.delete, "child")]) { tables, notify in
                    for id in tables.parents.keys.sorted() where filter == nil || filter == id {
                        tables.parents[id] = nil
                        notify(Event(operation: .delete, table: "parent", rowID: id))
                        for child in tables.children.keys.sorted() where tables.children[child] == id {
                            tables.children[child] = nil
                            notify(Event(operation: .delete, table: "child", rowID: child))
                        }
                    }
                    return nil
                }
            }
        case .deleteChildren(let filter):
            return model.statement(writes: true) {
                change([EventKind(.delete, "child")]) { tables, notify in
                    for id in tables.children.keys.sorted() where filter == nil || filter == id {
                        tables.children[id] = nil
                        notify(Event(operation: .delete, table: "child", rowID: id))
                    }
                    return nil
                }
            }
        case .select:
            return model.statement(writes: false) { .success("ok") }
        case .notifyChanges(let region):
            return model.statement(writes: false) {
                if !isReadOnly() { notifyChanges(ofKinds: Self.eventKinds(of: region)) }
                return .success("ok")
            }
        }
        return "ok"
    }

    /// A statement that may change rows of these kinds. `body` changes the
    /// tables and notifies each changed row, and returns an error if the
    /// statement fails: its changes are undone, but the rows it changed
    /// before failing were notified.
    private func change(
        _ statementKinds: [EventKind],
        _ body: (inout Tables, (Event) -> Void) -> String?) -> ScriptModel<ObserverModel>.StatementOutcome
    {
        let observations = isReadOnly() ? [] : observers.compactMap { observer -> StatementObservation? in
            guard observer.isNotified && observer.isEnabled else { return nil }
            let observedKinds = statementKinds.filter(observer.spec.filter.observes)
            if observedKinds.isEmpty { return nil }
                return StatementObservation(
                    observerID: observer.spec.id, observedKinds: observedKinds, statementKinds: statementKinds)
        }
        var changed = tables
        let error = body(&changed) { event in
            if self.savepointStarts.isEmpty {
                self.notify(event, to: observations)
            } else {
                self.heldEvents.append((event, observations))
            }
        }
        if let error { return .failure(error) }
        tables = changed
        return .success("ok")
    }

    private func notify(_ event: Event, to observations: [StatementObservation]) {
        for observation in observations {
            guard let index = index(of: observation.observerID),
                  observers[index].isNotified, observers[index].isEnabled,
                  observation.accepts(event)
            else { continue }
            didNotifyChanges = true
            log("o\(observation.observerID) \(event)")
            if observers[index].spec.stopsAfterChange { observers[index].isEnabled = false }
        }
    }

    /// The kinds of changes that `notifyChanges(in:)` announces.
    static func eventKinds(of region: RegionSpec) -> [EventKind] {
        let tables: [(name: String, columns: Set<String>)]
        switch region {
        case .fullDatabase:
            tables = ObserverSchema.columns.map { ($0.key, $0.value) }
        case .tables(let specs):
            tables = specs.compactMap { spec in
                let name = spec.name.lowercased()
                guard
                    let all = name == "sqlite_master" ? ObserverSchema.schemaTableColumns : ObserverSchema.columns[name]
                else {
                    return nil
                }
                guard let columns = spec.columns else { return (name, all) }
                return (name, all.filter { column in columns.contains { $0.lowercased() == column.lowercased() } })
            }
        }
        return tables.flatMap { table in
            [
                EventKind(.delete, table.name), EventKind(.insert, table.name),
                EventKind(.update, table.name, columns: table.columns)
            ]
        }
    }

    private func notifyChanges(ofKinds kinds: [EventKind]) {
        for index in observers.indices where observers[index].isNotified && observers[index].isEnabled {
            guard kinds.contains(where: observers[index].spec.filter.observes) else { continue }
            log("o\(observers[index].spec.id) didChange")
            if observers[index].spec.stopsAfterChange { observers[index].isEnabled = false }
        }
    }

    // MARK: - Transactions

    func transactionDidBegin(implicit: Bool) {
        transactionStart = tables
    }

    func transactionWillCommit() -> String? {
        let held = heldEvents
        heldEvents = []
        for (event, observations) in held {
            notify(event, to: observations)
        }
        if isReadOnly() { return nil }
        for index in observers.indices where observers[index].isNotified {
            log("o\(observers[index].spec.id) willCommit")
            if observers[index].failsNextCommit {
                observers[index].failsNextCommit = false
                return "observer o\(observers[index].spec.id) error"
            }
        }
        return nil
    }

    func transactionDidCommit(implicit: Bool) {
        transactionDidEnd(notifying: "didCommit")
    }

    func transactionDidRollback(afterFailureInAutocommit: Bool) {
        tables = transactionStart
        transactionDidEnd(notifying: !afterFailureInAutocommit || didNotifyChanges ? "didRollback" : nil)
    }

    private func transactionDidEnd(notifying notification: String?) {
        heldEvents = []
        savepointStarts = []
        if let notification, !isReadOnly() {
            for index in observers.indices where observers[index].isNotified {
                let id = observers[index].spec.id
                log("o\(id) \(notification)")
                if observers[index].spec.extent == .nextTransaction {
                    observers[index].isRegistered = false
                    if !observers[index].isAlive { log("o\(id) deinit") }
                }
            }
        }
        didNotifyChanges = false
        for index in observers.indices {
            observers[index].isEnabled = true
        }
    }

    // MARK: - Savepoints

    func savepointDidBegin() {
        savepointStarts.append((tables, heldEvents.count))
    }

    func savepointsDidRelease(depth: Int) {
        savepointStarts.removeSubrange(depth...)
        if savepointStarts.isEmpty {
            let held = heldEvents
            heldEvents = []
            for (event, observations) in held {
                notify(event, to: observations)
            }
        }
    }

    func savepointDidRollback(toDepth depth: Int) {
        let start = savepointStarts[depth - 1]
        tables = start.tables
        heldEvents.removeSubrange(start.heldCount...)
        savepointStarts.removeSubrange(depth...)
    }
}
