import GRDBLite

// Scripts of database accesses, shared by the transaction clock and the
// transaction observer suites: sequences of `write`, `inTransaction`,
// `writeWithoutTransaction` and `read` accesses, whose steps run
// statements, savepoints, failing statements, and the actions of a suite
// (read the transaction date, add an observer...).

/// How a transaction or savepoint block ends.
enum BlockEnd: String, Sendable {
    /// The block returns `.commit` (or returns, for `write`).
    case commit
    /// The block returns `.rollback`.
    case rollback
    /// The block throws.
    case `throw`
}

/// Statements that fail.
enum FailingStatement: String, Sendable, CaseIterable {
    /// A constraint error: the statement fails, the transaction goes on.
    case uniqueViolation
    /// `INSERT OR ROLLBACK` conflict: SQLite rolls the transaction back.
    case conflictRollback
    /// A trigger's `RAISE(ROLLBACK)`: SQLite rolls the transaction back.
    case triggerRollback

    var sql: String {
        switch self {
        case .uniqueViolation: "INSERT INTO uniq (id) VALUES (1)"
        case .conflictRollback: "INSERT OR ROLLBACK INTO uniq (id) VALUES (1)"
        case .triggerRollback: "INSERT INTO guard DEFAULT VALUES"
        }
    }

    /// The extended result code of the error.
    var resultCode: ResultCode {
        switch self {
        case .uniqueViolation, .conflictRollback: .SQLITE_CONSTRAINT_PRIMARYKEY
        case .triggerRollback: .SQLITE_CONSTRAINT_TRIGGER
        }
    }

    /// The tables that scripts use for failing statements.
    static let schema = """
        CREATE TABLE uniq (id INTEGER PRIMARY KEY);
        INSERT INTO uniq (id) VALUES (1);
        CREATE TABLE guard (id INTEGER PRIMARY KEY);
        CREATE TRIGGER guarded BEFORE INSERT ON guard BEGIN SELECT RAISE(ROLLBACK, 'guarded'); END;
        """
}

enum Step<Action: Sendable>: Sendable {
    /// An action of the suite.
    case action(Action)
    case fail(FailingStatement)
    /// `db.inSavepoint { ... }`.
    case inSavepoint([Step], BlockEnd)
    // Raw statements, in `writeWithoutTransaction` accesses only.
    case begin(Database.TransactionKind)
    case commit
    case rollback
    case savepoint(String)
    case release(String)
    case rollbackTo(String)
}

enum Access<Action: Sendable>: Sendable {
    /// `dbQueue.write { ... }`, which commits or throws.
    case write([Step<Action>], BlockEnd)
    /// `dbQueue.inTransaction(kind) { ... }`.
    case inTransaction(Database.TransactionKind, [Step<Action>], BlockEnd)
    /// `dbQueue.writeWithoutTransaction { ... }`, with raw transaction
    /// statements. A transaction left open is rolled back at the end.
    case withoutTransaction([Step<Action>])
    /// `dbQueue.read { ... }`, with actions that don't write.
    case read([Step<Action>])
}

struct Script<Action: Sendable>: Sendable, CustomStringConvertible {
    var accesses: [Access<Action>]

    var description: String {
        "\n" + accesses.map { access in
            switch access {
            case let .write(steps, end): Self.block("write", steps, end, indent: "")
                case let .inTransaction(kind, steps, end):
                    Self.block("inTransaction(.\(kind.rawValue.lowercased()))", steps, end, indent: "")
            case let .withoutTransaction(steps): Self.block("writeWithoutTransaction", steps, nil, indent: "")
            case let .read(steps): Self.block("read", steps, nil, indent: "")
            }
        }.joined(separator: "\n")
    }

    private static func block(_ title: String, _ steps: [Step<Action>], _ end: BlockEnd?, indent: String) -> String {
        var lines = ["\(indent)\(title) {"]
        for step in steps {
            switch step {
            case let .inSavepoint(steps, end): lines.append(block("inSavepoint", steps, end, indent: indent + "  "))
            default: lines.append(indent + "  " + describe(step))
            }
        }
        lines.append(indent + "}" + (end.map { " \($0)" } ?? ""))
        return lines.joined(separator: "\n")
    }

    static func describe(_ step: Step<Action>) -> String {
        switch step {
        case .action(let action): "\(action)"
        case .fail(let statement): statement.rawValue
        case .inSavepoint: "inSavepoint"
        case .begin(let kind): "BEGIN \(kind.rawValue)"
        case .commit: "COMMIT"
        case .rollback: "ROLLBACK"
        case .savepoint(let name): "SAVEPOINT \(name)"
        case .release(let name): "RELEASE \(name)"
        case .rollbackTo(let name): "ROLLBACK TO \(name)"
        }
    }
}

/// The error of a block that throws.
struct BlockError: Error { }

/// An error a suite throws on purpose (a failing clock, an observer that
/// cancels a commit), and how the log shows it.
protocol ScriptError: Error {
    var logDescription: String { get }
}

/// How logs show an error.
func logDescription(_ error: any Error) -> String {
    switch error {
    case let error as DatabaseError: "error \(error.extendedResultCode.rawValue)"
    case is BlockError: "thrown"
    case let error as ScriptError: error.logDescription
    default: "unexpected \(type(of: error)): \(error)"
    }
}
