import GRDBLite

/// A transaction observer that records its notifications as strings, such
/// as `didChange insert player 1`, `willCommit`, `didCommit`.
final class RecordingObserver: TransactionObserver {
    /// Prefixes each entry when several observers share a log.
    let name: String?
    /// The recorded notifications, in order. Shared by observers created
    /// with the same log, to check their relative order.
    let log: Log
    var observesKind: (DatabaseEventKind) -> Bool
    /// Each kind given to `observes(eventsOfKind:)`.
    private(set) var askedKinds: [DatabaseEventKind] = []
    /// Thrown by `databaseWillCommit`.
    var commitError: (any Error)?
    /// Records `databaseWillChange(with:)` (off by default, so that most
    /// tests only see `didChange`).
    var recordsPreUpdates = false
    /// Copies of the pre-update events.
    private(set) var preUpdateEvents: [DatabasePreUpdateEvent] = []
    /// Called after recording each change event.
    var onDidChange: ((RecordingObserver) -> Void)?
    var onDidCommit: ((Database) -> Void)?
    var onDeinit: (() -> Void)?

    final class Log {
        var entries: [String] = []
    }

    init(
        name: String? = nil,
        log: Log = Log(),
        observes: @escaping (DatabaseEventKind) -> Bool = { _ in true })
    {
        self.name = name
        self.log = log
        self.observesKind = observes
    }

    deinit {
        onDeinit?()
    }

    /// The recorded notifications.
    var events: [String] { log.entries }

    func reset() {
        log.entries = []
        askedKinds = []
        preUpdateEvents = []
    }

    private func record(_ entry: String) {
        log.entries.append(name.map { "\($0): \(entry)" } ?? entry)
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        askedKinds.append(eventKind)
        return observesKind(eventKind)
    }

    func databaseDidChange() {
        record("didChange")
        onDidChange?(self)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        record("didChange \(event.kind) \(event.tableName) \(event.rowID)")
        onDidChange?(self)
    }

    func databaseWillChange(with event: DatabasePreUpdateEvent) {
        guard recordsPreUpdates else { return }
        preUpdateEvents.append(event.copy())
        let rowIDs = "\(event.initialRowID.map(String.init) ?? "nil")->\(event.finalRowID.map(String.init) ?? "nil")"
        record("willChange \(event.kind) \(event.tableName) \(rowIDs)")
    }

    func databaseWillCommit() throws {
        record("willCommit")
        if let commitError { throw commitError }
    }

    func databaseDidCommit(_ db: Database) {
        record("didCommit")
        onDidCommit?(db)
    }

    func databaseDidRollback(_ db: Database) {
        record("didRollback")
    }
}

/// An error thrown by tests.
struct TestError: Error, Equatable {
    var id = 0
}

/// A queue with `player` and `team` tables.
func makePlayerDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(sql: """
            CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE player (
                id INTEGER PRIMARY KEY,
                name TEXT,
                score INTEGER,
                teamId INTEGER REFERENCES team(id) ON DELETE CASCADE ON UPDATE CASCADE);
            """)
    }
    return dbQueue
}

extension DatabaseEventKind {
    /// Whether the kind is a deletion in `table`: like GRDB's, the type
    /// is not Equatable.
    func isDeletion(in table: String) -> Bool {
        if case .delete(tableName: table) = self { true } else { false }
    }
}
