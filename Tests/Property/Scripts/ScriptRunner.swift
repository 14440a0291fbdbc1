import GRDBLite

/// A log of what happens while a script runs, shared by the runner and
/// the objects it observes (transaction observers...).
final class ScriptLog {
    var entries: [String] = []
    /// Closed when the script ends: later entries are ignored.
    var isOpen = true

    func append(_ entry: String) {
        if isOpen { entries.append(entry) }
    }
}

/// Runs a script on GRDBLite, and logs the outcome of each step (`ok`, an
/// action's result, or the error), after what the step caused (observer
/// notifications...).
struct ScriptRunner<Action: Sendable> {
    let dbQueue: DatabaseQueue
    let log: ScriptLog
    /// Runs an action, and returns what the log shows of its success.
    let perform: (Action, Database) throws -> String

    func run(_ script: Script<Action>) {
        for access in script.accesses {
            run(access)
        }
    }

    private func run(_ access: Access<Action>) {
        switch access {
        case let .write(steps, end):
            record("write") {
                try dbQueue.write { db in try runBlock(steps, end, db) }
            }
        case let .inTransaction(kind, steps, end):
            record("inTransaction") {
                try dbQueue.inTransaction(kind) { db in
                    try runBlock(steps, end, db)
                    return end == .rollback ? .rollback : .commit
                }
            }
        case let .withoutTransaction(steps):
            dbQueue.writeWithoutTransaction { db in
                runSteps(steps, db)
                if db.isInsideTransaction {
                    record("cleanup ROLLBACK") { try db.execute(sql: "ROLLBACK") }
                }
            }
        case let .read(steps):
            record("read") {
                try dbQueue.read { db in runSteps(steps, db) }
            }
        }
    }

    private func runBlock(_ steps: [Step<Action>], _ end: BlockEnd, _ db: Database) throws {
        runSteps(steps, db)
        if end == .throw { throw BlockError() }
    }

    private func runSteps(_ steps: [Step<Action>], _ db: Database) {
        for step in steps {
            run(step, db)
        }
    }

    private func run(_ step: Step<Action>, _ db: Database) {
        let label = Script<Action>.describe(step)
        switch step {
        case .action(let action):
            do {
                log.append("\(label): \(try perform(action, db))")
            } catch {
                log.append("\(label): \(logDescription(error))")
            }
        case .fail(let statement):
            record(label) { try db.execute(sql: statement.sql) }
        case let .inSavepoint(steps, end):
            record(label) {
                try db.inSavepoint {
                    try runBlock(steps, end, db)
                    return end == .rollback ? .rollback : .commit
                }
            }
        case .begin(let kind):
            record(label) { try db.execute(sql: "BEGIN \(kind.rawValue) TRANSACTION") }
        case .commit:
            record(label) { try db.execute(sql: "COMMIT") }
        case .rollback:
            record(label) { try db.execute(sql: "ROLLBACK") }
        case .savepoint(let name):
            record(label) { try db.execute(sql: "SAVEPOINT \(name)") }
        case .release(let name):
            record(label) { try db.execute(sql: "RELEASE SAVEPOINT \(name)") }
        case .rollbackTo(let name):
            record(label) { try db.execute(sql: "ROLLBACK TO SAVEPOINT \(name)") }
        }
    }

    private func record(_ label: String, _ body: () throws -> Void) {
        do {
            try body()
            log.append("\(label): ok")
        } catch {
            log.append("\(label): \(logDescription(error))")
        }
    }
}
