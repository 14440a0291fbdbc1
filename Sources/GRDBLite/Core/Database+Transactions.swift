import CSQLite
import Foundation

extension Database {
    /// The kinds of SQLite transactions.
    ///
    /// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// How a transaction or savepoint block ends.
    public enum TransactionCompletion: Sendable {
        case commit
        case rollback
    }

    /// A function that decides, when the database is locked, whether to
    /// retry (true) or fail with `SQLITE_BUSY` (false).
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

    /// What a connection does when another connection locks the database.
    public enum BusyMode: Sendable {
        /// Fail at once with `SQLITE_BUSY`.
        case immediateError
        /// Retry for up to this many seconds, then fail with `SQLITE_BUSY`.
        case timeout(TimeInterval)
        /// Ask a function whether to retry.
        case callback(BusyCallback)
    }

    // MARK: - Transaction date

    /// The date of the current transaction.
    ///
    /// Inside a transaction, it is the same date until the transaction ends
    /// (commit, rollback, or a rollback caused by an error): the
    /// ``Configuration/transactionClock`` is asked once, when the
    /// transaction starts. Outside of a transaction, each read asks the
    /// clock again. Records timestamped in one `write` share one date.
    public var transactionDate: Date {
        get throws {
            preconditionValidAccess()
            if let transactionDateResult {
                return try transactionDateResult.get()
            }
            return try configuration.transactionClock.now(self)
        }
    }

    /// Records the transaction date when the connection leaves autocommit
    /// mode, and forgets it when the transaction ends.
    /// Inline: every statement runs it, and it rarely finds a transition
    /// (outlined in `autocommitDidChange`).
    @inline(__always)
    func checkForAutocommitTransition() {
        let isAutocommit = sqlite3_get_autocommit(sqliteHandle) != 0
        if _slowPath(isAutocommit != wasAutocommit) {
            autocommitDidChange(isAutocommit)
        }
    }

    @inline(never)
    func autocommitDidChange(_ isAutocommit: Bool) {
        wasAutocommit = isAutocommit
        if isAutocommit {
            transactionDateResult = nil
            savepointNames.removeAll()
        } else {
            transactionDateResult = Result { try configuration.transactionClock.now(self) }
        }
    }

    /// Follows the savepoint stack after a statement that changes it, as
    /// <https://www.sqlite.org/lang_savepoint.html> describes: RELEASE pops
    /// savepoints up to the most recent one with the name, ROLLBACK TO pops
    /// those above it and keeps it.
    func updateSavepoints(_ effect: StatementInfo.TransactionEffect) {
        switch effect {
        case .beginSavepoint(let name):
            savepointNames.append(CaseInsensitiveIdentifier(name))
        case .releaseSavepoint(let name):
            if let index = savepointNames.lastIndex(of: CaseInsensitiveIdentifier(name)) {
                savepointNames.removeSubrange(index...)
            }
        case .rollbackSavepoint(let name):
            if let index = savepointNames.lastIndex(of: CaseInsensitiveIdentifier(name)) {
                savepointNames.removeSubrange((index + 1)...)
            }
        case .beginTransaction, .commitTransaction, .rollbackTransaction:
            savepointNames.removeAll()
        }
    }

    // MARK: - Transactions

    /// Runs `operations` in a transaction: commits if they return
    /// `.commit`, rolls back if they return `.rollback` or throw (and
    /// rethrows the error).
    ///
    /// ```swift
    /// try db.inTransaction {
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    ///
    /// Transactions don't nest: use ``inSavepoint(_:)`` inside a transaction.
    ///
    /// - parameter kind: The kind of transaction. If nil, DEFERRED when the
    ///   access is read-only, IMMEDIATE
    ///   otherwise.
    /// - parameter operations: Returns `.commit` or `.rollback`.
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion) throws
    {
        try beginTransaction(kind)
        try runTransactionBlock(operations, commit: commit, rollback: rollback)
    }

    /// Runs `operations` in a savepoint, which can be nested: releases it if
    /// they return `.commit`, rolls it back if they return `.rollback` or
    /// throw (and rethrows the error). Outside of a transaction, opens a
    /// transaction instead.
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        try rollbackIfNeeded()
        if !isInsideTransaction {
            try inTransaction(nil, operations)
            return
        }
        try execute(sql: "SAVEPOINT grdb")
        try runTransactionBlock(
            operations,
            commit: { try execute(sql: "RELEASE SAVEPOINT grdb") },
            rollback: {
                do {
                    try execute(sql: "ROLLBACK TRANSACTION TO SAVEPOINT grdb")
                } catch {
                    // The changes of the savepoint are still there: the
                    // whole transaction must be rolled back.
                    needsRollback = isInsideTransaction
                    throw error
                }
                try execute(sql: "RELEASE SAVEPOINT grdb")
            })
    }

    /// Shared by transactions and savepoints: the first error wins.
    private func runTransactionBlock(
        _ operations: () throws -> TransactionCompletion,
        commit: () throws -> Void,
        rollback: () throws -> Void) throws
    {
        let wasInsideTransactionBlock = isInsideTransactionBlock
        isInsideTransactionBlock = true
        defer { isInsideTransactionBlock = wasInsideTransactionBlock }

        var firstError: (any Error)?
        var needsRollback = true
        do {
            if try operations() == .commit {
                try checkForAbortedTransaction()
                // Observers may run statements when told of the commit.
                isInsideTransactionBlock = wasInsideTransactionBlock
                try commit()
                needsRollback = false
            }
        } catch {
            firstError = error
        }
        if needsRollback && isInsideTransaction {
            do {
                try rollback()
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
    }

    /// Begins a transaction.
    ///
    /// - parameter kind: If nil, DEFERRED when the access is read-only,
    ///   IMMEDIATE otherwise.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        let kind = kind ?? (isReadOnly ? .deferred : configuration.defaultTransactionKind)
        switch kind {
        case .deferred: try executeInternalStatement(sql: "BEGIN DEFERRED TRANSACTION")
        case .immediate: try executeInternalStatement(sql: "BEGIN IMMEDIATE TRANSACTION")
        case .exclusive: try executeInternalStatement(sql: "BEGIN EXCLUSIVE TRANSACTION")
        }
    }

    /// Commits the current transaction.
    public func commit() throws {
        try executeInternalStatement(sql: "COMMIT TRANSACTION")
    }

    /// Rolls back the current transaction, if any. SQLite may already have
    /// rolled it back after an error (`SQLITE_FULL`, `SQLITE_BUSY`...).
    ///
    /// If the rollback itself fails (`SQLITE_NOMEM`), the connection rolls
    /// the transaction back before it runs anything else: until then,
    /// every statement fails.
    public func rollback() throws {
        needsRollback = false
        if isInsideTransaction {
            do {
                try retryingInterruption { try execute(sql: "ROLLBACK TRANSACTION") }
            } catch {
                needsRollback = isInsideTransaction
                throw error
            }
        }
    }

    /// Runs `statement`, a rollback or the end of a read-only access,
    /// again once if an interruption or a task cancellation stopped it:
    /// they must run, and the interruption may as well have come before
    /// or after them. SQLite's FTS5 can leave the connection interrupted
    /// until its statements are reset
    /// (<https://sqlite.org/forum/forumpost/95413eb410>).
    private func retryingInterruption(_ statement: () throws -> Void) throws {
        do {
            try statement()
        } catch let error as DatabaseError
            where error.resultCode == .SQLITE_INTERRUPT || error.resultCode == .SQLITE_ABORT
        {
            resetAllStatements()
            try statement()
        } catch is CancellationError {
            resetAllStatements()
            try statement()
        }
    }

    /// Resets every prepared statement of the connection.
    private func resetAllStatements() {
        var statement = sqlite3_next_stmt(sqliteHandle, nil)
        while let current = statement {
            sqlite3_reset(current)
            statement = sqlite3_next_stmt(sqliteHandle, current)
        }
    }

    /// Rolls back a transaction whose rollback failed.
    func rollbackIfNeeded() throws {
        if needsRollback { try rollback() }
    }

    /// Inside `inTransaction` or `inSavepoint`, a transaction that SQLite
    /// rolled back by itself (an `ON CONFLICT ROLLBACK`, an I/O error) makes
    /// further statements fail with `SQLITE_ABORT`, instead of running them
    /// in autocommit mode.
    func checkForAbortedTransaction(sql: String? = nil, arguments: StatementArguments? = nil) throws {
        if isInsideTransactionBlock && (needsRollback || !isInsideTransaction) {
            throw DatabaseError(
                resultCode: .SQLITE_ABORT,
                message: "Transaction was aborted",
                sql: sql,
                arguments: arguments)
        }
    }

    // MARK: - Read-only

    /// Whether writes are forbidden (a read-only connection, or inside
    /// ``readOnly(_:)``).
    var isReadOnly: Bool {
        readOnlyDepth > 0 || configuration.readonly
    }

    /// Runs `value` with writes forbidden: they fail with `SQLITE_READONLY`.
    /// Reentrant.
    public func readOnly<T>(_ value: () throws -> T) throws -> T {
        if configuration.readonly { return try value() }
        try enterReadOnlyAccess()
        defer { exitReadOnlyAccess() }
        return try value()
    }

    /// Starts a read-only access (see ``readOnly(_:)``); end it with
    /// `exitReadOnlyAccess()`.
    ///
    /// - parameter checkingStatements: Whether `PRAGMA query_only` waits
    ///   for a statement that is not read-only (`sqlite3_stmt_readonly`),
    ///   when query_only is off: the pragma expires every compiled
    ///   statement of the connection, which then compile again, twice per
    ///   commit when value observations fetch after each.
    func enterReadOnlyAccess(checkingStatements: Bool = false) throws {
        if readOnlyDepth == 0 {
            if checkingStatements && !isQueryOnly {
                defersQueryOnly = true
            } else {
                // query_only may still be on from the previous read-only
                // access: then nothing runs.
                needsQueryOnlyReset = false
                if !isQueryOnly { try switchQueryOnlyOn() }
            }
        }
        readOnlyDepth += 1
    }

    /// Ends a read-only access started by `enterReadOnlyAccess()`.
    func exitReadOnlyAccess() {
        readOnlyDepth -= 1
        if readOnlyDepth == 0 {
            if defersQueryOnly {
                defersQueryOnly = false
            } else {
                // query_only goes off before the next statement that runs
                // outside of a read-only access (see `needsQueryOnlyReset`).
                needsQueryOnlyReset = true
            }
        }
    }

    /// Switches `PRAGMA query_only` on: when a read-only access starts, or
    /// during one that deferred it, before a statement that may write (or
    /// that SQLite can't tell is read-only, as `PRAGMA journal_mode`), so
    /// that SQLite decides as in other read-only accesses. It goes off
    /// after the access.
    func switchQueryOnlyOn() throws {
        defersQueryOnly = false
        do {
            try executeInternalStatement(sql: "PRAGMA query_only = 1")
        } catch {
            // A flag pragma takes effect when it compiles: if it fails, it
            // may have switched query_only on.
            isQueryOnly = true
            needsQueryOnlyReset = true
            throw error
        }
        isQueryOnly = true
    }

    /// Restores what a read-only access or a failed cleanup left behind
    /// before a statement runs: allows writes again after a read-only
    /// access, and rolls back a transaction whose rollback failed (out of
    /// memory).
    func recoverFromFailedCleanup() throws {
        if needsQueryOnlyReset && readOnlyDepth == 0 {
            try allowWritesAfterReadOnlyAccess()
        }
        try rollbackIfNeeded()
    }

    /// Switches `query_only` off after a read-only access.
    func allowWritesAfterReadOnlyAccess() throws {
        needsQueryOnlyReset = false
        do {
            try executeInternalStatement(sql: "PRAGMA query_only = 0")
        } catch {
            needsQueryOnlyReset = true
            throw error
        }
        isQueryOnly = false
    }

    /// Runs `block` in a transaction (a savepoint when one is already
    /// open), read-only if asked.
    func isolated<T>(readOnly: Bool, _ block: () throws -> T) throws -> T {
        try rollbackIfNeeded()
        if isInsideTransaction {
            return readOnly ? try self.readOnly(block) : try block()
        }
        var result: T?
        // Enter read-only mode before the transaction starts, so that its
        // commit is a read-only commit that observers don't hear about.
        if readOnly {
            try self.readOnly {
                try inTransaction(.deferred) {
                    result = try block()
                    return .commit
                }
            }
        } else {
            try inTransaction {
                result = try block()
                return .commit
            }
        }
        return result!
    }
}
