import CSQLite
import Foundation

/// Notifies the transaction observers of a connection.
///
/// A connection has a broker only while it has observers: it is then the
/// connection's `executionObserver`, and has installed SQLite's commit and
/// rollback hooks. Without observers, nothing is installed and statements
/// run with no observation cost.
///
/// How a statement is observed:
/// 1. When it compiles, the authorizer records which tables (and which
///    columns of updates) it writes, and asks the broker whether deletions
///    are observed, to disable the truncate optimization.
/// 2. Before it runs, each observer is asked whether it observes those kinds
///    of changes. The update and pre-update hooks are installed only if one
///    does.
/// 3. While it runs, the hooks notify each changed row to the interested
///    observers, or hold the change while a savepoint is open.
/// 4. The commit hook flushes held changes and asks observers whether the
///    transaction may commit; an error rolls it back.
/// 5. After it runs, the broker follows the savepoint stack (a release
///    notifies held changes, a rollback drops them) and notifies the commit
///    or the rollback.
final class DatabaseObservationBroker: StatementExecutionObserver {
    private unowned let database: Database
    /// The raw connection, for uninstalling the hooks in `deinit`.
    private let connection: SQLiteConnection
    /// The observers, in the order they were added.
    private var observations: [TransactionObservation] = []
    /// The observation whose observer is being told of a change: the one
    /// that `stopObservingDatabaseChangesUntilNextTransaction()` disables,
    /// found without a scan of all observers.
    private var notifiedObservation: TransactionObservation?
    /// Whether an observer was added more than once: then disabling it
    /// disables each of its observations, with a scan.
    private var hasRepeatedObserver = false

    /// The observers of the running statement, and which of its changes
    /// they get. Empty when nobody observes it: then the update and
    /// pre-update hooks are not installed.
    private var statementObservations: [StatementObservation] = [] {
        didSet {
            if statementObservations.isEmpty != oldValue.isEmpty {
                setChangeHooksInstalled(!statementObservations.isEmpty)
            }
        }
    }
    /// Whether the running statement started inside a transaction.
    private var statementStartedInTransaction = false

    /// Changes made while a savepoint is open, notified when all savepoints
    /// are released, with the observers of the statement that made them.
    private var heldChanges: [(change: Change, observations: [StatementObservation])] = []
    /// For each savepoint of `database.savepointNames`, the index in
    /// `heldChanges` of its first change.
    private var savepointStarts: [Int]
    /// Whether a change was notified during the current transaction.
    private var didNotifyChanges = false
    /// How the transaction ended, as the commit and rollback hooks tell.
    private var completion = Completion.none

    private var hasTransactionHooks = false
    private var hasChangeHooks = false

    private init(database: Database) {
        self.database = database
        self.connection = database.sqliteHandle
        // Changes made in savepoints that were open before any observer
        // need not be held: there are none.
        self.savepointStarts = Array(repeating: 0, count: database.savepointNames.count)
    }

    deinit {
        // The connection closes without deactivating its broker.
        if hasChangeHooks { setChangeHooksInstalled(false) }
        if hasTransactionHooks { setTransactionHooksInstalled(false) }
    }

    /// Installs a broker on a connection that has none.
    static func activate(on database: Database) -> DatabaseObservationBroker {
        let broker = DatabaseObservationBroker(database: database)
        database.executionObserver = broker
        broker.setTransactionHooksInstalled(true)
        return broker
    }

    /// Removes the broker when it has no observer left, outside of a
    /// transaction (so that no transaction state is lost).
    private func deactivateIfUnused() {
        guard observations.isEmpty, database.executionObserver === self, !database.isInsideTransaction else {
            return
        }
        statementObservations = []
        setTransactionHooksInstalled(false)
        database.executionObserver = nil
    }

    // MARK: - Observers

    func add(_ observer: some TransactionObserver, extent: Database.TransactionObservationExtent) {
        if !hasRepeatedObserver && observations.contains(where: { $0.wraps(observer) }) {
            hasRepeatedObserver = true
        }
        observations.append(TransactionObservation(observer: observer, extent: extent))
    }

    func remove(_ observer: some TransactionObserver) {
        guard let index = observations.firstIndex(where: { $0.wraps(observer) }) else { return }
        // Detached, the observation gets no further notification, even from
        // a notification loop already running or from held changes.
        observations.remove(at: index).detach()
        deactivateIfUnused()
    }

    /// See `stopObservingDatabaseChangesUntilNextTransaction()`.
    func disableUntilNextTransaction(_ observer: some TransactionObserver) {
        if !hasRepeatedObserver, let notifiedObservation, notifiedObservation.wraps(observer) {
            notifiedObservation.isEnabled = false
            return
        }
        for observation in observations where observation.wraps(observer) {
            observation.isEnabled = false
        }
    }

    /// Tells observers interested in one of those kinds of changes that the
    /// database changed (``Database/notifyChanges(in:)``).
    func notifyChanges(withEventsOfKind eventKinds: [DatabaseEventKind]) {
        guard !eventKinds.isEmpty else { return }
        withCurrentBroker {
            for observation in observations {
                guard let observer = observation.enabledObserver else { continue }
                if eventKinds.contains(where: observer.observes(eventsOfKind:)) {
                    // Outside of a transaction, there is no transaction
                    // whose rollback observers must hear about.
                    if database.isInsideTransaction { didNotifyChanges = true }
                    notifying(observation) { observer.databaseDidChange() }
                }
            }
        }
    }

    // MARK: - StatementExecutionObserver

    func observesDeletions(on table: String) -> Bool {
        // Disabled observers count: the statement may be cached, and run
        // again once they are enabled.
        observations.contains { $0.observer?.observes(eventsOfKind: .delete(tableName: table)) ?? false }
    }

    func databaseWillClose() {
        for observation in observations {
            (observation.observer as? DatabaseClosingObserver)?.databaseWillClose()
        }
    }

    func statementWillExecute(_ statement: Statement) {
        // A statement that did not run to completion (a cursor left before
        // its end) may have ended a transaction when SQLite reset it.
        if !completion.isNone {
            finishPendingTransaction()
        }
        statementStartedInTransaction = database.isInsideTransaction
        let writes = statement.info.writes
        guard !writes.isEmpty, !database.isReadOnly else {
            statementObservations = []
            return
        }
        let eventKinds = writes.map(DatabaseEventKind.init)
        var statementObservations: [StatementObservation] = []
        statementObservations.reserveCapacity(observations.count)
        for observation in observations {
            guard let observer = observation.enabledObserver else { continue }
            if eventKinds.count == 1 {
                // All changes of the statement have this kind (even those
                // SQLite did not announce, such as FTS shadow tables).
                if observer.observes(eventsOfKind: eventKinds[0]) {
                    statementObservations.append(StatementObservation(observation: observation))
                }
            } else {
                // Triggers and foreign keys: keep the changes of the
                // observed kinds only.
                let observedKinds = eventKinds.filter(observer.observes(eventsOfKind:))
                if !observedKinds.isEmpty {
                    statementObservations.append(StatementObservation(
                        observation: observation, observedKinds: observedKinds, statementKinds: eventKinds))
                }
            }
        }
        self.statementObservations = statementObservations
    }

    func statementDidExecute(_ statement: Statement) throws {
        statementObservations = []
        let effect = statement.info.transactionEffect
        if let effect {
            followSavepoints(effect)
        }
        if completion.isNone, let effect, !database.isInsideTransaction {
            switch effect {
            case .commitTransaction, .releaseSavepoint:
                // A transaction that wrote nothing (BEGIN DEFERRED; COMMIT)
                // commits without calling SQLite's commit hook. Observers
                // hear about it as about any other commit.
                try commitWithoutHook()
            default:
                break
            }
        }
        try finishTransaction(failed: false)
    }

    func statementDidFail(_ statement: Statement) throws {
        statementObservations = []
        try finishTransaction(failed: true)
    }

    // MARK: - Transactions

    /// Notifies the end of the transaction that the hooks reported, if any.
    /// Throws the error of an observer that cancelled the commit.
    private func finishTransaction(failed: Bool) throws {
        let completion = self.completion
        // Observers may run statements when notified.
        self.completion = .none
        switch completion {
        case .none:
            break
        case .commit:
            if database.isInsideTransaction {
                // The commit failed after the hook (SQLITE_BUSY): the
                // transaction goes on.
            } else {
                transactionDidCommit()
            }
        case .rollback:
            // A statement that fails outside of a transaction rolls back its
            // own implicit transaction: observers only hear about it if they
            // were told of its changes.
            let notifies = !failed || statementStartedInTransaction || didNotifyChanges
            transactionDidRollback(notifying: notifies)
        case .cancelledCommit(let error):
            if database.isInsideTransaction {
                // SQLite has rolled back the changes, but a RELEASE that
                // failed to commit leaves the connection in a transaction:
                // end it. Its rollback hook notifies observers.
                try? database.execute(sql: "ROLLBACK")
            } else {
                transactionDidRollback(notifying: true)
            }
            throw error
        }
        if !database.isInsideTransaction {
            // Forget savepoints and held changes of a transaction that ended
            // without a hook. Observers that are gone leave at the end of
            // the next notified transaction (`transactionDidEnd`): a sweep
            // after every statement would load each weak reference again.
            heldChanges = []
            savepointStarts = []
            deactivateIfUnused()
        }
    }

    /// Same as `finishTransaction`, for a pending completion whose error
    /// nobody can receive.
    private func finishPendingTransaction() {
        do {
            try finishTransaction(failed: false)
        } catch {
            // The commit was cancelled while SQLite reset a statement.
        }
    }

    /// Asks observers whether the transaction may commit, after they got
    /// the held changes.
    private func notifyWillCommit() throws {
        notifyHeldChanges()
        guard !database.isReadOnly else { return }
        for observation in observations {
            try observation.observer?.databaseWillCommit()
        }
    }

    /// A commit that SQLite's commit hook did not report.
    private func commitWithoutHook() throws {
        do {
            try notifyWillCommit()
        } catch {
            transactionDidRollback(notifying: true)
            throw error
        }
        transactionDidCommit()
    }

    private func transactionDidCommit() {
        heldChanges = []
        savepointStarts = []
        if !database.isReadOnly {
            // The commit is done: the task's cancellation doesn't stop
            // the observers (a ValueObservation fetches its new value).
            // Consecutive observers that only read share a read-only
            // transaction (see `SharedCommitRead`), ended before an
            // observer that may write, and at the end.
            database.ignoringCancellation {
                for observation in observations {
                    if observation.sharesCommitRead {
                        database.sharedCommitRead.isAvailable = true
                        observation.databaseDidCommit(database)
                        database.sharedCommitRead.isAvailable = false
                    } else {
                        database.endSharedCommitRead()
                        observation.databaseDidCommit(database)
                    }
                }
                database.endSharedCommitRead()
            }
        }
        transactionDidEnd()
    }

    private func transactionDidRollback(notifying: Bool) {
        heldChanges = []
        savepointStarts = []
        if notifying && !database.isReadOnly {
            for observation in observations {
                observation.databaseDidRollback(database)
            }
        }
        transactionDidEnd()
    }

    private func transactionDidEnd() {
        didNotifyChanges = false
        // `.nextTransaction` observers are done, deallocated ones are gone.
        // A read-only transaction notified nobody: nothing to sweep (the
        // fetches of value observations are such transactions, one per
        // observation and commit).
        if !database.isReadOnly {
            observations.removeAll { $0.observer == nil }
        }
        for observation in observations {
            observation.isEnabled = true
        }
    }

    // MARK: - Savepoints

    /// Follows the savepoint stack that the connection maintains, after a
    /// statement that changed it.
    private func followSavepoints(_ effect: StatementInfo.TransactionEffect) {
        let depth = database.savepointNames.count
        if depth > savepointStarts.count {
            savepointStarts.append(contentsOf: repeatElement(heldChanges.count, count: depth - savepointStarts.count))
        } else if depth < savepointStarts.count {
            savepointStarts.removeSubrange(depth...)
        }
        if case .rollbackSavepoint = effect, let start = savepointStarts.last {
            // The savepoint stays open, its changes are gone.
            heldChanges.removeSubrange(start...)
        }
        if savepointStarts.isEmpty && database.isInsideTransaction {
            notifyHeldChanges()
        }
    }

    private func notifyHeldChanges() {
        guard !heldChanges.isEmpty else { return }
        let heldChanges = self.heldChanges
        self.heldChanges = []
        for (change, observations) in heldChanges {
            notify(change, to: observations)
        }
    }

    // MARK: - Changes

    /// From the update hook.
    private func rowDidChange(_ event: DatabaseEvent) {
        if savepointStarts.isEmpty {
            notify(.didChange(event), to: statementObservations)
        } else {
            heldChanges.append((.didChange(event.copy()), statementObservations))
        }
    }

    /// From the pre-update hook.
    private func rowWillChange(_ event: DatabasePreUpdateEvent) {
        if savepointStarts.isEmpty {
            notify(.willChange(event), to: statementObservations)
        } else {
            heldChanges.append((.willChange(event.copy()), statementObservations))
        }
    }

    private func notify(_ change: Change, to statementObservations: [StatementObservation]) {
        withCurrentBroker {
            var tableName: String?
            for statementObservation in statementObservations {
                guard let observer = statementObservation.observation.enabledObserver else { continue }
                if statementObservation.observedKinds != nil {
                    if tableName == nil { tableName = change.tableName }
                    guard statementObservation.accepts(change.sqliteKind, table: tableName!) else { continue }
                }
                didNotifyChanges = true
                notifying(statementObservation.observation) {
                    switch change {
                    case .didChange(let event): observer.databaseDidChange(with: event)
                    case .willChange(let event): observer.databaseWillChange(with: event)
                    }
                }
            }
        }
    }

    // MARK: - Current broker

    /// The broker that is notifying changes on this thread, for
    /// `stopObservingDatabaseChangesUntilNextTransaction()`.
    static var current: DatabaseObservationBroker? {
        pthread_getspecific(currentBrokerKey).map {
            // Unretained: set by `withCurrentBroker`, during which the broker lives.
            Unmanaged<DatabaseObservationBroker>.fromOpaque($0).takeUnretainedValue()
        }
    }

    /// Runs `body`, which notifies the observer of `observation` of a
    /// change.
    private func notifying(_ observation: TransactionObservation, _ body: () -> Void) {
        let previous = notifiedObservation
        notifiedObservation = observation
        defer { notifiedObservation = previous }
        body()
    }

    private func withCurrentBroker(_ body: () -> Void) {
        let previous = pthread_getspecific(currentBrokerKey)
        // Unretained: unset before `self` returns.
        pthread_setspecific(currentBrokerKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(currentBrokerKey, previous) }
        body()
    }

    // MARK: - SQLite hooks

    private func setTransactionHooksInstalled(_ installed: Bool) {
        hasTransactionHooks = installed
        guard installed else {
            sqlite3_commit_hook(connection, nil, nil)
            sqlite3_rollback_hook(connection, nil, nil)
            return
        }
        // Unretained: the hooks are removed before the broker goes (the
        // connection owns the broker, and uninstalls it before releasing it).
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_commit_hook(connection, { context in
            // Unretained: the broker removes its hooks before it goes.
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            do {
                try broker.notifyWillCommit()
                broker.completion = .commit
                return 0
            } catch {
                // SQLite rolls back, and the statement fails with
                // SQLITE_CONSTRAINT_COMMITHOOK: statementDidFail throws
                // the observer's error instead.
                broker.completion = .cancelledCommit(error)
                return 1
            }
        }, context)
        sqlite3_rollback_hook(connection, { context in
            // Unretained: the broker removes its hooks before it goes.
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            if case .cancelledCommit = broker.completion { return }
            broker.completion = .rollback
        }, context)
    }

    private func setChangeHooksInstalled(_ installed: Bool) {
        hasChangeHooks = installed
        guard installed else {
            sqlite3_update_hook(connection, nil, nil)
            sqlite3_preupdate_hook(connection, nil, nil)
            return
        }
        // Unretained: the hooks are removed before the broker goes (the
        // connection owns the broker, and uninstalls it before releasing it).
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(connection, { context, kind, database, table, rowID in
            // Unretained: the broker removes its hooks before it goes.
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            guard let eventKind = DatabaseEvent.Kind(rawValue: kind), let database, let table else { return }
                broker.rowDidChange(
                    DatabaseEvent(kind: eventKind, rowID: rowID, names: .live(database: database, table: table)))
        }, context)
        sqlite3_preupdate_hook(connection, { context, connection, kind, database, table, initialRowID, finalRowID in
            // Unretained: the broker removes its hooks before it goes.
            let broker = Unmanaged<DatabaseObservationBroker>.fromOpaque(context!).takeUnretainedValue()
            guard DatabasePreUpdateEvent.Kind(rawValue: kind) != nil, let connection, let database, let table else {
                return
            }
            broker.rowWillChange(DatabasePreUpdateEvent(
                connection: connection, sqliteKind: kind, initialRowID: initialRowID, finalRowID: finalRowID,
                database: database, table: table))
        }, context)
    }
}

/// The thread-local key of `DatabaseObservationBroker.current`.
private let currentBrokerKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()

extension DatabaseObservationBroker {
    /// How a transaction ended, as SQLite's hooks tell.
    private enum Completion {
        case none
        case commit
        case rollback
        /// An observer threw from `databaseWillCommit`.
        case cancelledCommit(any Error)

        var isNone: Bool {
            if case .none = self { return true }
            return false
        }
    }

    /// A change from the update or pre-update hook.
    private enum Change {
        case didChange(DatabaseEvent)
        case willChange(DatabasePreUpdateEvent)

        var sqliteKind: CInt {
            switch self {
            case .didChange(let event): event.kind.rawValue
            case .willChange(let event): event.kind.rawValue
            }
        }

        var tableName: String {
            switch self {
            case .didChange(let event): event.tableName
            case .willChange(let event): event.tableName
            }
        }
    }
}

/// An observer of a statement, and which of its changes it gets.
struct StatementObservation {
    let observation: TransactionObservation
    /// The observed kinds of changes, or nil for all changes.
    var observedKinds: [DatabaseEventKind]?
    /// The kinds of changes the statement announced when it compiled.
    var statementKinds: [DatabaseEventKind] = []

    /// Whether the observer gets this change: it is of an observed kind, or
    /// of a kind the statement did not announce (the shadow tables of FTS
    /// virtual tables, for example).
    func accepts(_ sqliteKind: CInt, table: String) -> Bool {
        guard let observedKinds else { return true }
        if observedKinds.contains(where: { $0.matches(sqliteKind, table: table) }) { return true }
        return !statementKinds.contains(where: { $0.matches(sqliteKind, table: table) })
    }
}

extension Database {
    /// The broker of the transaction observers, if there are observers.
    var observationBroker: DatabaseObservationBroker? {
        executionObserver as? DatabaseObservationBroker
    }
}

/// An observer that the observation layer ends when the connection closes.
protocol DatabaseClosingObserver: AnyObject {
    /// Called on the connection's queue, before it closes.
    func databaseWillClose()
}
