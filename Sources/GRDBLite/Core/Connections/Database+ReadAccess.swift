extension Database {
    /// Calls `value` once, in a deferred transaction (read-only if asked):
    /// with the connection, or with the error that prevented the
    /// transaction. `prepare` runs first in the transaction, and
    /// `established` once the transaction is open or failed, before
    /// `value`. Errors that end the transaction after `value` returns are
    /// ignored: `value` already had the connection. For the accesses whose
    /// closure takes a `Result` (`asyncRead`, `spawnConcurrentRead`).
    func readInTransaction(
        readOnly: Bool,
        prepare: () throws -> Void = { },
        established: () -> Void = { },
        _ value: (Result<Database, any Error>) -> Void)
    {
        var started = false
        do {
            try isolated(readOnly: readOnly) {
                try prepare()
                started = true
                established()
                value(.success(self))
            }
        } catch {
            if !started {
                established()
                value(.failure(error))
            }
        }
    }

    /// Runs `value` in a deferred transaction on a reader of a pool, whose
    /// first statement establishes the state the transaction sees (and
    /// refreshes the schema cache).
    func readTransaction<T>(_ value: () throws -> T) throws -> T {
        var result: T?
        try inTransaction(.deferred) {
            try refreshReaderSchemaCache()
            result = try value()
            return .commit
        }
        return result!
    }

    /// On a reader of a pool: forgets the cached schema information and
    /// statements if another connection changed the schema since the last
    /// access. Inside a deferred transaction, this first read also fixes
    /// the state that the transaction sees.
    func refreshReaderSchemaCache() throws {
        let version = try Int32.fetchOne(cachedStatement(sql: "PRAGMA schema_version"))
        if version != readerSchemaVersion {
            if readerSchemaVersion != nil {
                dropCachesAfterSchemaChange()
            }
            readerSchemaVersion = version
        }
    }

    /// At the end of an access of a reader of a pool: rolls back a
    /// transaction that `unsafeRead` left open, so that the next access
    /// starts a fresh one. A reader writes nothing: nothing is lost.
    func endReaderAccess() {
        if isInsideTransaction || needsRollback {
            try? rollback()
        }
    }
}
