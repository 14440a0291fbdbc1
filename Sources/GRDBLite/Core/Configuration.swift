import Foundation

/// The options of a database connection, given to
/// ``DatabaseQueue/init(path:configuration:)``.
///
/// ```swift
/// var config = Configuration()
/// config.foreignKeysEnabled = true
/// config.busyMode = .timeout(5)
/// config.prepareDatabase { db in
///     try db.execute(sql: "PRAGMA cache_size = -4000")
/// }
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// ```
public struct Configuration: Sendable {
    /// Whether foreign keys are enforced (`PRAGMA foreign_keys`). Default true.
    public var foreignKeysEnabled = true

    /// Whether the connection is opened read-only (`SQLITE_OPEN_READONLY`).
    /// Default false.
    public var readonly = false

    /// A label for the connection, used in descriptions and the name of its
    /// dispatch queue.
    public var label: String?

    /// What happens when the database is locked by another connection.
    /// Default ``Database/BusyMode/immediateError``.
    public var busyMode: Database.BusyMode = .immediateError

    /// The journal mode the connection sets up (ignored when read-only).
    /// A ``DatabasePool`` always uses WAL.
    public var journalMode: JournalModeConfiguration = .default

    /// The maximum number of reader connections of a ``DatabasePool`` or
    /// ``DatabaseSnapshotPool``: how many reads run in parallel. Default 5.
    public var maximumReaderCount = 5

    /// Whether ``DatabasePool/releaseMemory()`` keeps the readers open
    /// (and frees their caches) instead of closing them. Default false.
    public var persistentReadOnlyConnections = false

    /// The busy mode of read-only connections when it differs from
    /// ``busyMode``: the readers of a pool wait up to 10 seconds when nil.
    var readonlyBusyMode: Database.BusyMode?

    /// The kind of transaction that `write` and
    /// ``Database/inTransaction(_:_:)`` open when none is given. Read-only
    /// accesses always open deferred transactions. Default `.immediate`.
    @_spi(GRDBLite) public var defaultTransactionKind: Database.TransactionKind = .immediate

    /// The clock of ``Database/transactionDate``. Default `.default`,
    /// the real time.
    public var transactionClock: any TransactionClock = .default

    /// Receives the SQL of each executed statement (with `?` parameters,
    /// not values), as SQLite runs it. Triggered statements start with `--`.
    @_spi(GRDBLite) public var trace: (@Sendable (String) -> Void)?

    /// Whether the descriptions of errors and trace events show the values
    /// of statement arguments. Default false: they may hold private data
    /// (use `expandedDescription` to see them anyway).
    ///
    /// ```swift
    /// #if DEBUG
    /// config.publicStatementArguments = true
    /// #endif
    /// ```
    public var publicStatementArguments = false

    /// Whether SQL may use double quotes for string literals. Default false,
    /// so that a misspelled `"column"` is an error instead of a string.
    public var acceptsDoubleQuotedStringLiterals = false

    /// Schema information that SQLite can't provide, such as the primary
    /// key of views (see ``DatabaseSchemaSource``). Migrations run without
    /// it. Default nil.
    public var schemaSource: (any DatabaseSchemaSource)?

    /// The dispatch queue that the serial queues of the connections
    /// target: accesses run on it, as far as `dispatchPrecondition`
    /// knows. Connections that can write target ``writeTargetQueue``
    /// instead, when it is set. For a ``DatabasePool``, make it
    /// concurrent, or reads can't run in parallel. Default nil.
    public var targetQueue: DispatchQueue?

    /// The dispatch queue that the serial queues of the connections that
    /// can write target (not read-only: a ``DatabaseQueue``, a pool's
    /// writer), instead of ``targetQueue``. Default nil.
    public var writeTargetQueue: DispatchQueue?

    /// Whether an access may end with a transaction open: false by
    /// default, and then it traps, as a programmer error (the next access
    /// would run inside it, unaware).
    ///
    /// ```swift
    /// var config = Configuration()
    /// config.allowsUnsafeTransactions = true
    /// let dbQueue = try DatabaseQueue(configuration: config)
    /// try dbQueue.writeWithoutTransaction { db in try db.beginTransaction() }
    /// try dbQueue.writeWithoutTransaction { db in try db.commit() }
    /// ```
    ///
    /// The readers of a ``DatabasePool`` roll back a transaction left open
    /// whatever its value.
    public var allowsUnsafeTransactions = false

    /// Whether the connections listen to ``Database/suspendNotification``
    /// and ``Database/resumeNotification``: a suspended connection
    /// interrupts its current statement, and refuses the statements that
    /// would lock the database file until it is resumed. Default false.
    public var observesSuspensionNotifications = false

    /// The quality of service of database accesses, ignored when
    /// ``targetQueue`` or ``writeTargetQueue`` is set. Default
    /// `.userInitiated`.
    public var qos: DispatchQoS = .userInitiated

    /// The quality of service of read-only accesses: the one of
    /// ``targetQueue``, or ``qos``.
    public var readQoS: DispatchQoS {
        targetQueue?.qos ?? qos
    }

    /// The quality of service of accesses that can write: the one of
    /// ``writeTargetQueue`` or ``targetQueue``, or ``qos``.
    public var writeQoS: DispatchQoS {
        writeTargetQueue?.qos ?? targetQueue?.qos ?? qos
    }

    var setups: [@Sendable (Database) throws -> Void] = []

    /// Adds a function that runs each time a connection opens, after
    /// GRDBLite's own setup (foreign keys, busy mode, journal mode).
    public mutating func prepareDatabase(_ setup: @escaping @Sendable (Database) throws -> Void) {
        setups.append(setup)
    }

    /// The journal mode of a connection.
    public enum JournalModeConfiguration: Sendable {
        /// SQLite's default (a rollback journal) for a ``DatabaseQueue``,
        /// WAL for a ``DatabasePool``.
        case `default`
        /// Write-ahead logging (`PRAGMA journal_mode = WAL`).
        case wal
    }

    public init() { }

    /// The serial queue of a connection with this configuration, which
    /// targets ``writeTargetQueue`` or ``targetQueue`` (see them).
    func makeDispatchQueue(label: String) -> DispatchQueue {
        let target = readonly ? targetQueue : (writeTargetQueue ?? targetQueue)
        if let target {
            return DispatchQueue(label: label, target: target)
        }
        return DispatchQueue(label: label, qos: readonly ? readQoS : writeQoS)
    }
}
