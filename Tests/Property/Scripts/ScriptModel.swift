import GRDBLite

/// What a suite's model adds to `ScriptModel`: its actions, and what it
/// does when transactions and savepoints begin and end.
protocol ScriptModelDelegate: AnyObject {
    associatedtype Action: Sendable

    /// Runs an action, and returns what the log shows of it. Actions that
    /// run statements use `model.statement(writes:_:)`.
    func perform(_ action: Action, _ model: ScriptModel<Self>) -> String

    /// A transaction began. An implicit transaction is the one of a
    /// statement that writes outside of any transaction.
    func transactionDidBegin(implicit: Bool)
    /// A transaction is about to commit; a returned error description
    /// cancels the commit (it rolls back, and the statement fails).
    func transactionWillCommit() -> String?
    func transactionDidCommit(implicit: Bool)
    /// A transaction was rolled back. `afterFailureInAutocommit`: a
    /// statement that wrote outside of any transaction failed, and SQLite
    /// rolled back its implicit transaction.
    func transactionDidRollback(afterFailureInAutocommit: Bool)
    func savepointDidBegin()
    /// Savepoints were released; the transaction goes on with `depth`
    /// savepoints.
    func savepointsDidRelease(depth: Int)
    /// `ROLLBACK TO` the savepoint at this depth (1 is the outermost),
    /// which stays open.
    func savepointDidRollback(toDepth depth: Int)
}

/// The reference model of transactions, savepoints and transaction blocks,
/// as SQLite (https://sqlite.org/lang_transaction.html,
/// https://sqlite.org/lang_savepoint.html) and GRDB's `inTransaction`,
/// `inSavepoint`, `write` and `read` define them. It runs a script and
/// returns the log that `ScriptRunner` should produce.
final class ScriptModel<Delegate: ScriptModelDelegate> {
    typealias Action = Delegate.Action

    unowned let delegate: Delegate
    private(set) var log: [String] = []

    /// Whether SQLite is not in autocommit mode.
    private(set) var isInTransaction = false
    /// Whether the transaction began with SAVEPOINT: releasing its
    /// outermost savepoint commits.
    private var beganWithSavepoint = false
    /// Open savepoints, innermost last, lowercased (SQLite compares their
    /// names case-insensitively).
    private(set) var savepoints: [String] = []
    /// Depth of `inTransaction`, `inSavepoint`, `write` and `read` blocks.
    private var blockDepth = 0
    /// Inside `read`.
    private(set) var isReadOnly = false

    init(delegate: Delegate) {
        self.delegate = delegate
    }

    func append(_ entry: String) {
        log.append(entry)
    }

    func run(_ script: Script<Action>) -> [String] {
        for access in script.accesses {
            run(access)
        }
        return log
    }

    // MARK: - Accesses and blocks

    private func run(_ access: Access<Action>) {
        switch access {
        case let .write(steps, end):
            log.append("write: " + transactionBlock(steps, end))
        case let .inTransaction(_, steps, end):
            log.append("inTransaction: " + transactionBlock(steps, end))
        case let .withoutTransaction(steps):
            runSteps(steps)
            if isInTransaction {
                log.append("cleanup ROLLBACK: " + outcome(rollbackStatement()))
            }
        case let .read(steps):
            isReadOnly = true
            log.append("read: " + transactionBlock(steps, .commit))
            isReadOnly = false
        }
    }

    private func runSteps(_ steps: [Step<Action>]) {
        for step in steps {
            let label = Script<Action>.describe(step)
            switch step {
            case .action(let action):
                log.append("\(label): " + delegate.perform(action, self))
            case .fail(let failing):
                log.append("\(label): " + statement(writes: true) {
                    let error = "error \(failing.resultCode.rawValue)"
                    return failing == .uniqueViolation ? .failure(error) : .rollbackFailure(error)
                })
            case let .inSavepoint(steps, end):
                log.append("\(label): " + savepointBlock(steps, end))
            case .begin:
                log.append("\(label): " + outcome(beginStatement()))
            case .commit:
                log.append("\(label): " + outcome(commitStatement()))
            case .rollback:
                log.append("\(label): " + outcome(rollbackStatement()))
            case .savepoint(let name):
                log.append("\(label): " + outcome(savepointStatement(name)))
            case .release(let name):
                log.append("\(label): " + outcome(releaseStatement(name)))
            case .rollbackTo(let name):
                log.append("\(label): " + outcome(rollbackToStatement(name)))
            }
        }
    }

    /// `db.inTransaction`: BEGIN, the steps, COMMIT or ROLLBACK.
    private func transactionBlock(_ steps: [Step<Action>], _ end: BlockEnd) -> String {
        if let error = beginStatement() { return error }
        return block(steps, end, commit: commitStatement, rollback: rollbackStatement)
    }

    /// `db.inSavepoint`: a transaction outside of a transaction, a
    /// savepoint otherwise.
    private func savepointBlock(_ steps: [Step<Action>], _ end: BlockEnd) -> String {
        if !isInTransaction { return transactionBlock(steps, end) }
        if let error = savepointStatement("grdblite") { return error }
        return block(
            steps, end,
            commit: { releaseStatement("grdblite") },
            rollback: { rollbackToStatement("grdblite") ?? releaseStatement("grdblite") })
    }

    /// The end of a block: commit if asked, roll back otherwise, or if the
    /// commit fails. The first error wins. A transaction that SQLite rolled
    /// back during the block is an SQLITE_ABORT error.
    private func block(_ steps: [Step<Action>], _ end: BlockEnd, commit: () -> String?, rollback: () -> String?)
        -> String
    {
        blockDepth += 1
        defer { blockDepth -= 1 }
        runSteps(steps)
        var firstError: String?
        var needsRollback = true
        switch end {
        case .commit:
            if !isInTransaction {
                firstError = abortError
            } else if let error = commit() {
                firstError = error
            } else {
                needsRollback = false
            }
        case .rollback:
            break
        case .throw:
            firstError = "thrown"
        }
        if needsRollback && isInTransaction, let error = rollback(), firstError == nil {
            firstError = error
        }
        return firstError ?? "ok"
    }

    // MARK: - Statements

    enum StatementOutcome {
        /// The statement succeeded; the log shows this.
        case success(String)
        /// The statement failed; the transaction goes on.
        case failure(String)
        /// The statement failed, and SQLite rolled the transaction back.
        case rollbackFailure(String)
    }

    private let abortError = "error \(ResultCode.SQLITE_ABORT.rawValue)"
    private let sqliteError = "error \(ResultCode.SQLITE_ERROR.rawValue)"

    /// Inside a block whose transaction SQLite rolled back, statements fail
    /// with SQLITE_ABORT instead of running in autocommit mode.
    private var isAborted: Bool { blockDepth > 0 && !isInTransaction }

    /// Runs a statement: `body` says what it does. A statement that writes
    /// outside of a transaction runs in its own implicit transaction.
    func statement(writes: Bool, _ body: () -> StatementOutcome) -> String {
        if isAborted { return abortError }
        let isImplicit = writes && !isInTransaction
        if isImplicit { delegate.transactionDidBegin(implicit: true) }
        switch body() {
        case .success(let result):
            if isImplicit {
                if let error = delegate.transactionWillCommit() {
                    delegate.transactionDidRollback(afterFailureInAutocommit: false)
                    return error
                }
                delegate.transactionDidCommit(implicit: true)
            }
            return result
        case .failure(let error):
            if isImplicit { delegate.transactionDidRollback(afterFailureInAutocommit: true) }
            return error
        case .rollbackFailure(let error):
            if isImplicit {
                delegate.transactionDidRollback(afterFailureInAutocommit: true)
            } else if isInTransaction {
                endTransaction()
                delegate.transactionDidRollback(afterFailureInAutocommit: false)
            }
            return error
        }
    }

    private func outcome(_ error: String?) -> String {
        error ?? "ok"
    }

    /// The statements below return nil on success, or an error description.

    private func beginStatement() -> String? {
        if isAborted { return abortError }
        if isInTransaction { return sqliteError } // cannot start a transaction within a transaction
        isInTransaction = true
        beganWithSavepoint = false
        delegate.transactionDidBegin(implicit: false)
        return nil
    }

    private func commitStatement() -> String? {
        if isAborted { return abortError }
        if !isInTransaction { return sqliteError } // no transaction is active
        return commitTransaction()
    }

    private func commitTransaction() -> String? {
        if let error = delegate.transactionWillCommit() {
            endTransaction()
            delegate.transactionDidRollback(afterFailureInAutocommit: false)
            return error
        }
        endTransaction()
        delegate.transactionDidCommit(implicit: false)
        return nil
    }

    private func rollbackStatement() -> String? {
        if isAborted { return abortError }
        if !isInTransaction { return sqliteError } // no transaction is active
        endTransaction()
        delegate.transactionDidRollback(afterFailureInAutocommit: false)
        return nil
    }

    private func savepointStatement(_ name: String) -> String? {
        if isAborted { return abortError }
        if !isInTransaction {
            isInTransaction = true
            beganWithSavepoint = true
            delegate.transactionDidBegin(implicit: false)
        }
        savepoints.append(name.lowercased())
        delegate.savepointDidBegin()
        return nil
    }

    private func releaseStatement(_ name: String) -> String? {
        if isAborted { return abortError }
        guard let index = savepoints.lastIndex(of: name.lowercased()) else { return sqliteError } // no such savepoint
        savepoints.removeSubrange(index...)
        if savepoints.isEmpty && beganWithSavepoint {
            return commitTransaction()
        }
        delegate.savepointsDidRelease(depth: savepoints.count)
        return nil
    }

    private func rollbackToStatement(_ name: String) -> String? {
        if isAborted { return abortError }
        guard let index = savepoints.lastIndex(of: name.lowercased()) else { return sqliteError } // no such savepoint
        savepoints.removeSubrange((index + 1)...)
        delegate.savepointDidRollback(toDepth: index + 1)
        return nil
    }

    private func endTransaction() {
        isInTransaction = false
        beganWithSavepoint = false
        savepoints = []
    }
}
