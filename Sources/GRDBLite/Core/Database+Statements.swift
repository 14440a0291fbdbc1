import CSQLite

extension Database {
    // MARK: - Preparing statements

    /// Prepares a statement. The SQL must hold exactly one statement.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   several statements.
    public func makeStatement(sql: String) throws -> Statement {
        try makeStatement(sql: sql, persistent: false)
    }

    /// Returns a prepared statement from the connection's cache, preparing
    /// it on first use. Use it for statements that run often.
    public func cachedStatement(sql: String) throws -> Statement {
        try checkNotClosed(sql: sql)
        if let statement = statementCache[sql] {
            return try reusing(statement, sql: sql)
        }
        let statement = try makeStatement(sql: sql, persistent: true)
        statementCache[sql] = statement
        return statement
    }

    /// A statement kept by a cache of a layer above (see
    /// `RequestShapeCache`), ready to run again: see `reusing(_:sql:)`.
    func reused(_ statement: Statement) throws -> Statement {
        try checkNotClosed(sql: statement.sql)
        return try reusing(statement, sql: statement.sql)
    }

    /// A cached statement, ready to run again, or a new statement if a
    /// cursor is still iterating it: it is not reset under its feet.
    private func reusing(_ statement: Statement, sql: String) throws -> Statement {
        if sqlite3_stmt_busy(statement.sqliteStatement) != 0 {
            return try makeStatement(sql: sql, persistent: false)
        }
        statement.selectionRefinement = nil
        return statement
    }

    /// A statement for a fetch of values that runs to completion within its
    /// call (`fetchOne`, `fetchAll` and `fetchSet` of values with `sql:`),
    /// from the cache of the recent ones (see ``StatementCache``). A
    /// statement in use (a fetch of the same SQL from inside a fetch) is not
    /// shared: a new one runs.
    ///
    /// Only fetches that read the leftmost column by its index, without an
    /// adapter, reuse statements: after another connection changed the
    /// schema, SQLite recompiles a statement, whose column count and names
    /// GRDBLite would not know. Rows and records read columns by name: they
    /// get a new statement.
    @usableFromInline
    func fetchStatement(sql: String, adapter: (any RowAdapter)?) throws -> Statement {
        if adapter != nil { return try makeStatement(sql: sql) }
        try checkNotClosed(sql: sql)
        if let statement = statementCache.fetchStatement(sql: sql) {
            return try reusing(statement, sql: sql)
        }
        let statement = try makeStatement(sql: sql, persistent: true)
        statementCache.insertFetchStatement(statement, sql: sql)
        return statement
    }

    func makeStatement(sql: String, persistent: Bool) throws -> Statement {
        preconditionValidAccess()
        try checkNoNULCharacter(sql)
        // unsafe: `start` and `tail` point into this C string and don't escape the closure.
        return try sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            guard let statement = try prepareStatement(at: start, tail: &tail, persistent: persistent) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "empty statement", sql: sql)
            }
            if let tail, hasStatement(at: tail) {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: """
                        Multiple statements found. To execute multiple statements, \
                        use Database.execute(sql:) or Database.allStatements(sql:) instead.
                        """,
                    sql: sql)
            }
            return statement
        }
    }

    /// SQLite stops reading SQL at a NUL character: what follows it would
    /// be silently ignored (`DELETE FROM player\0WHERE id = 1` would delete
    /// every row).
    private func checkNoNULCharacter(_ sql: String) throws {
        if sql.utf8.contains(0) {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "SQL contains a NUL character", sql: sql)
        }
    }

    /// Compiles the statement that starts at `start`; nil if there is only
    /// white space or comments.
    func prepareStatement(
        at start: UnsafePointer<CChar>,
        tail: inout UnsafePointer<CChar>?,
        persistent: Bool) throws -> Statement?
    {
        try checkNotClosed(sql: String(cString: start).trimmedSQLStatement)
        if _slowPath(!pendingRegistrations.isEmpty) { try retryPendingRegistrations() }
        var sqliteStatement: SQLiteStatement?
        let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
        var selectedColumns: [StatementAuthorizer.SelectedColumn]?
        let (code, info) = authorizer.describing {
            // Inside a selection recording (the fetch of a ValueObservation),
            // this compilation reports the columns the statement reads, so
            // that `Statement.selectedColumns` needn't compile it again.
            if _slowPath(selectionRecorder != nil && !authorizer.isRecordingSelection) {
                var code = SQLITE_OK
                selectedColumns = authorizer.selectedColumns {
                    code = sqlite3_prepare_v3(sqliteHandle, start, -1, flags, &sqliteStatement, &tail)
                }
                return code
            }
            return sqlite3_prepare_v3(sqliteHandle, start, -1, flags, &sqliteStatement, &tail)
        }
        guard code == SQLITE_OK else {
            try checkCancellation(afterFailure: code)
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(sqliteHandle)),
                message: lastErrorMessage,
                sql: String(cString: start).trimmedSQLStatement)
        }
        return sqliteStatement.map {
            let statement = Statement(database: self, sqliteStatement: $0, info: info)
            if let selectedColumns { statement.selectedColumns = selectedColumns }
            return statement
        }
    }

    /// Runs the registrations that failed before (see
    /// `pendingRegistrations`); those that fail again stay pending.
    private func retryPendingRegistrations() throws {
        let registrations = pendingRegistrations
        pendingRegistrations = []
        for (index, registration) in registrations.enumerated() {
            do {
                try registration(self)
            } catch {
                pendingRegistrations = Array(registrations[index...])
                throw error
            }
        }
    }

    /// Whether statements remain after the end of a compiled one.
    private func hasStatement(at sql: UnsafePointer<CChar>) -> Bool {
        var pointer = sql
        while pointer.pointee != 0 {
            let byte = UInt8(bitPattern: pointer.pointee)
            // SQLite's white space: space, \t, \n, \f, \r (not \v, an
            // unrecognized token), and semicolons.
            if byte != 0x3B && byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0C && byte != 0x0D {
                break
            }
            pointer += 1
        }
        if pointer.pointee == 0 { return false }
        // Comments only? Ask SQLite, from the end of the compiled statement,
        // as its tail loop would: SQLite reads "\v" alone as an error, but
        // " \v" as no statement. A statement that doesn't compile yet may
        // need the ones before it (CREATE TABLE, then INSERT): it counts.
        var tail: UnsafePointer<CChar>?
        do {
            return try prepareStatement(at: sql, tail: &tail, persistent: false) != nil
        } catch {
            return true
        }
    }

    // MARK: - Executing SQL

    /// Executes one or several SQL statements, separated by semicolons.
    /// Positional arguments are consumed by the statements in order; all
    /// must be used.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
    ///     INSERT INTO player (name) VALUES (?);
    ///     """, arguments: ["Arthur"])
    /// ```
    ///
    /// Statements run one after the other: when one fails, or lacks
    /// arguments, the ones before it have run (run them in a transaction
    /// to make them all or nothing). Arguments left over for the last
    /// statement are an error before it runs.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        preconditionValidAccess()
        try checkNoNULCharacter(sql)
        let givenArguments = arguments
        var arguments = arguments
        // GRDB's message: the number of given values.
        func unusedArgumentsError() -> DatabaseError {
            DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(givenArguments.values.count)",
                sql: sql, arguments: givenArguments,
                publicStatementArguments: configuration.publicStatementArguments)
        }
        // unsafe: `start`, `current` and `tail` point into this C string and don't escape the closure.
        try sql.withCString { start in
            var current = start
            while current.pointee != 0 {
                var tail: UnsafePointer<CChar>?
                guard let statement = try prepareStatement(at: current, tail: &tail, persistent: false) else {
                    break
                }
                let bindings = try arguments.extractBindings(forStatement: statement, allowingRemainingValues: true)
                if _slowPath(!arguments.values.isEmpty), !(tail.map(hasStatement(at:)) ?? false) {
                    // Values are left over and no statement follows.
                    throw unusedArgumentsError()
                }
                try statement.bind(bindings, arguments: StatementArguments(bindings))
                try executeToCompletion(statement)
                guard let tail else { break }
                current = tail
            }
        }
        if !arguments.values.isEmpty {
            throw unusedArgumentsError()
        }
    }

    /// Runs one of the statements that GRDBLite runs on its own in every
    /// access (`BEGIN`, `COMMIT`, `PRAGMA query_only`), compiled once per
    /// connection, as GRDB's internal statement cache does. Not for user
    /// SQL. (SQLite compiles a flag pragma again each time it runs, since
    /// the pragma expires all statements: it still takes effect.)
    func executeInternalStatement(sql: String) throws {
        if let statement = internalStatementCache[sql] {
            return try executeToCompletion(statement)
        }
        let statement = try makeStatement(sql: sql, persistent: true)
        internalStatementCache[sql] = statement
        try executeToCompletion(statement)
    }

    // MARK: - Running statements

    /// Steps `statement` until it is done; rows are ignored. Inline: the
    /// insert of each record runs it.
    @inline(__always)
    func executeToCompletion(_ statement: Statement) throws {
        try statementWillExecute(statement)
        let sqliteStatement = statement.sqliteStatement
        while true {
            let code = sqlite3_step(sqliteStatement)
            if code == SQLITE_DONE { break }
            if code != SQLITE_ROW { try statementDidFail(statement, code: code) }
        }
        try statementDidExecute(statement)
    }

    /// Before a statement runs: checks access and the transaction state.
    /// Inline: every statement runs it, and the usual case only reads a
    /// few flags (the rest is outlined in `statementWillExecuteSlowly`).
    @usableFromInline
    @inline(__always)
    func statementWillExecute(_ statement: Statement) throws {
        preconditionValidAccess()
        if _slowPath(needsRollback || needsQueryOnlyReset || isClosed || defersQueryOnly
            || (isInsideTransactionBlock && sqlite3_get_autocommit(sqliteHandle) != 0)
            || accessIsCancelled.load(ordering: .relaxed)
            || executionObserver != nil || selectionRecorder != nil)
        {
            try statementWillExecuteSlowly(statement)
        }
    }

    @usableFromInline
    @inline(never)
    func statementWillExecuteSlowly(_ statement: Statement) throws {
        if needsRollback || needsQueryOnlyReset || isClosed || defersQueryOnly {
            try checkNotClosed(sql: statement.sql)
            try recoverFromFailedCleanup()
            if defersQueryOnly && !statement.isReadonly { try switchQueryOnlyOn() }
        }
        if isInsideTransactionBlock && sqlite3_get_autocommit(sqliteHandle) != 0 {
            try checkForAbortedTransaction(sql: statement.sql, arguments: statement.arguments)
        }
        if accessIsCancelled.load(ordering: .relaxed) {
            try checkCancellation(before: statement)
            try checkSuspension(before: statement)
        }
        executionObserver?.statementWillExecute(statement)
        if let selectionRecorder {
            selectionRecorder.statementWillRead(statement)
        }
    }

    /// After a statement ran to completion. Inline: see
    /// `statementWillExecute`.
    @usableFromInline
    @inline(__always)
    func statementDidExecute(_ statement: Statement) throws {
        if _slowPath(statement.info.changesSchema || statement.info.transactionEffect != nil
            || executionObserver != nil)
        {
            return try statementDidExecuteSlowly(statement)
        }
        checkForAutocommitTransition()
    }

    @usableFromInline
    @inline(never)
    func statementDidExecuteSlowly(_ statement: Statement) throws {
        if statement.info.changesSchema || statement.info.transactionEffect?.rollsBack == true {
            // A rollback may undo schema changes.
            dropCachesAfterSchemaChange()
        }
        if let effect = statement.info.transactionEffect {
            updateSavepoints(effect)
        }
        checkForAutocommitTransition()
        try executionObserver?.statementDidExecute(statement)
    }

    /// After a statement failed: throws its error (or an observer's, if a
    /// transaction observer cancelled a commit).
    @usableFromInline
    func statementDidFail(_ statement: Statement, code: CInt) throws -> Never {
        let message = lastErrorMessage
        let extendedCode = sqlite3_extended_errcode(sqliteHandle)
        sqlite3_reset(statement.sqliteStatement)
        let wasInsideTransaction = !wasAutocommit
        checkForAutocommitTransition()
        if wasInsideTransaction && wasAutocommit {
            // SQLite rolled the transaction back, maybe with schema changes.
            dropCachesAfterSchemaChange()
        }
        try executionObserver?.statementDidFail(statement)
        try checkCancellation(afterFailure: code)
        throw DatabaseError(
            resultCode: extendedCode != 0 ? extendedCode : code,
            message: message,
            sql: statement.sql,
            arguments: statement.arguments,
            publicStatementArguments: configuration.publicStatementArguments)
    }
}
