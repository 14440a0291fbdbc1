/// What the observation layer needs from a database beyond the public
/// protocols. The built-in readers adopt it; a value observation of a
/// reader that doesn't sees one state only.
protocol ObservableDatabaseReader: DatabaseReader {
    /// The writer whose transaction observers are told of every change of
    /// this database, or nil when the database can't change under its
    /// observations (a snapshot, a read-only database).
    var observationWriter: (any ObservationWriter)? { get }
}

/// A writer, as the observation layer uses it.
protocol ObservationWriter: DatabaseWriter {
    /// Whether `spawnConcurrentRead` reads on another connection,
    /// concurrently with the writer (a pool), instead of right away on the
    /// writer (a queue).
    var readsConcurrently: Bool { get }

    /// Runs `body` on the writer, outside of any transaction that it
    /// doesn't open, or right away from inside a write access of this
    /// database. Throws `SQLITE_MISUSE` after `close()` instead of trapping.
    func observationWriterSync<T>(_ body: (Database) throws -> T) throws -> T

    /// Schedules `body` on the writer, outside of any transaction: it gets
    /// the connection, or the `SQLITE_MISUSE` error after `close()`.
    func observationWriterAsync(_ body: @escaping @Sendable (Result<Database, any Error>) -> Void)
}

extension DatabaseQueue: ObservableDatabaseReader, ObservationWriter {
    var observationWriter: (any ObservationWriter)? {
        configuration.readonly ? nil : self
    }

    var readsConcurrently: Bool { false }
}

extension DatabasePool: ObservableDatabaseReader, ObservationWriter {
    var observationWriter: (any ObservationWriter)? {
        configuration.readonly ? nil : self
    }

    var readsConcurrently: Bool { true }
}

extension AnyDatabaseReader: ObservableDatabaseReader {
    var observationWriter: (any ObservationWriter)? {
        (base as? any ObservableDatabaseReader)?.observationWriter
    }
}

extension AnyDatabaseWriter: ObservableDatabaseReader {
    var observationWriter: (any ObservationWriter)? {
        (base as? any ObservableDatabaseReader)?.observationWriter
    }
}
