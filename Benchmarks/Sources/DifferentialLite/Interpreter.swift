#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram
import Foundation

/// The error of a `.fail` step.
struct ProgramFailure: Error, CustomStringConvertible {
    var description: String { "ProgramFailure" }
}

/// Runs the program on a new database at `path`, and tells what a user
/// observes: each step's statements and result, then the content.
public func run(_ program: Program, path: String) -> Outcome {
    let log = TraceLog()
    var config = Configuration()
    config.prepareDatabase { db in
        // No fsync: the runner's files are thrown away (both libraries alike).
        try db.execute(sql: "PRAGMA synchronous = OFF")
        db.trace { log.record($0) }
    }
    func open() throws -> any DatabaseWriter {
        program.usesPool
            ? try DatabasePool(path: path, configuration: config)
            : try DatabaseQueue(path: path, configuration: config)
    }
    var writer: any DatabaseWriter
    do {
        writer = try open()
    } catch {
        return Outcome(steps: [], finalContent: "open: \(Canonical.text(error))")
    }
    // The trace starts after the open: a pool's WAL setup is each library's
    // own (GRDB creates and drops `grdb_issue_102`, GRDBLite `grdblite_wal_setup`).
    _ = log.take()
    let observations = program.observation == nil ? nil : ObservationLog()
    let interpreter = Interpreter(log: log, events: EventLog(program.observerFilter), observations: observations)
    interpreter.record("schema") {
        try SchemaBuilder.create(program.schema, in: writer)
        return "ok"
    }
    var cancellable: AnyDatabaseCancellable?
    if let use = program.observation, let observations, let dbQueue = writer as? DatabaseQueue {
        interpreter.record("observe") {
            cancellable = observations.start(use, in: dbQueue)
            return "started"
        }
    }
    func addObserver() {
        guard program.observesTransactions else { return }
        writer.writeWithoutTransaction { db in
            db.add(transactionObserver: interpreter.events, extent: .databaseLifetime)
        }
    }
    addObserver()
    var extras = 0
    var start = 0
    let steps = program.steps
    while start < steps.count {
        // The steps up to a reopening, in one access of a queue; in a
        // pool, one access per step, reads in `read`.
        let end = steps[start...].firstIndex { if case .reopen = $0 { true } else { false } } ?? steps.count
        if let dbQueue = writer as? DatabaseQueue {
            dbQueue.inDatabase { db in
                for index in start..<end { interpreter.run(steps[index], path: "\(index + 1)", db) }
            }
        } else {
            for index in start..<end {
                let (step, path) = (steps[index], "\(index + 1)")
                if case let .racingRead(query, writes) = step, let pool = writer as? DatabasePool {
                    interpreter.record(path) { interpreter.racingRead(query, writes: writes, path: path, pool) }
                    continue
                }
                interpreter.record(path) {
                    step.isRead
                        ? try writer.read { db in try interpreter.perform(step, path: path, db) }
                        : try writer.writeWithoutTransaction { db in try interpreter.perform(step, path: path, db) }
                }
            }
        }
        if end < steps.count, case .reopen(let appending) = steps[end] {
            interpreter.record("\(end + 1)") {
                try writer.close()
                writer = try open()
                _ = log.take()
                addObserver()
                extras += appending
                try SchemaBuilder.migrateAgain(program.schema, extras: extras, in: writer)
                return "reopened"
            }
        }
        start = end + 1
    }
    cancellable?.cancel()
    log.stop()
    let content = TextBuffer()
    do {
        try writer.read { db in try db.dumpContent(to: content) }
    } catch {
        content.write("dump: \(Canonical.text(error))")
    }
    return Outcome(steps: interpreter.outcomes, finalContent: content.text)
}

/// The stream `dumpContent` writes to.
final class TextBuffer: TextOutputStream {
    var text = ""

    func write(_ string: String) {
        text += string
    }
}

/// Runs steps, and records what each one shows.
final class Interpreter {
    let log: TraceLog
    let events: EventLog
    let observations: ObservationLog?
    var outcomes: [StepOutcome] = []

    init(log: TraceLog, events: EventLog, observations: ObservationLog?) {
        self.log = log
        self.events = events
        self.observations = observations
    }

    /// Runs `body`, and records its statements and its result or error.
    func record(_ path: String, _ body: () throws -> String) {
        let result: String
        do {
            result = try body()
        } catch {
            result = "error: \(Canonical.text(error))"
        }
        let values = observations?.take() ?? []
        let statements = log.take()
        outcomes.append(StepOutcome(path: path, expandedSQL: statements.expanded, sql: statements.sql,
                                    result: result, events: events.take(), values: values))
    }

    /// Runs a step, catching its error.
    func run(_ step: Step, path: String, _ db: Database) {
        record(path) { try perform(step, path: path, db) }
    }

    /// Runs a step, and returns its result as text. A transaction or a
    /// savepoint records its own steps, and throws as its steps say.
    func perform(_ step: Step, path: String, _ db: Database) throws -> String {
        switch step {
        case let .record(operation, values, conflict):
            return try RecordSteps.perform(operation, values, conflict: conflict, db)
        case let .updateAll(table, filter, column, value):
            let assignment = Column(column).set(to: value.databaseValue)
            return try "\(tableRequest(table, filter).updateAll(db, assignment))"
        case let .deleteAll(table, filter):
            return try "\(tableRequest(table, filter).deleteAll(db))"
        case let .deleteAndFetch(table, filter):
            return try RecordSteps.deleteAndFetch(table, filter, db)
        case .query(let query):
            return try Requests.fetch(query, db)
        case let .sql(sql, values, fetches):
            let arguments = StatementArguments(values.map(\.databaseValue))
            if fetches {
                return try Row.fetchAll(db, sql: sql, arguments: arguments).map(Canonical.text).joined(separator: "\n")
            }
            try db.execute(sql: sql, arguments: arguments)
            return "changes: \(db.changesCount)"
        case .fail:
            throw ProgramFailure()
        case .adapted(let fetch):
            return try AdaptedFetches.fetch(fetch, db)
        case .stamp(let step):
            return try StampSteps.perform(step, db)
        case .request(let use):
            return try SQLRequests.fetch(use, db)
        case .recordClass(let step):
            return try RecordClassSteps.perform(step, db)
        case .aggregate(let use):
            return try Aggregates.fetch(use, db)
        case let .transaction(steps, end, catches):
            try db.inTransaction {
                try runBlock(steps, path: path, db, catches: catches)
                return end == .commit ? .commit : .rollback
            }
            return "transaction \(end.rawValue)"
        case let .savepoint(steps, end, catches):
            try db.inSavepoint {
                try runBlock(steps, path: path, db, catches: catches)
                return end == .commit ? .commit : .rollback
            }
            return "savepoint \(end.rawValue)"
        case .racingRead:
            // Generated in pools only: the runner runs it.
            return "racing read outside of a pool"
        case .reopen:
            // Generated at the top level only: the runner reopens.
            return "reopen inside an access"
        case let .kindedTransaction(kind, steps, end):
            let kind: Database.TransactionKind = switch kind {
            case .deferred: .deferred
            case .immediate: .immediate
            case .exclusive: .exclusive
            }
            try db.inTransaction(kind) {
                try runBlock(steps, path: path, db, catches: true)
                return end == .commit ? .commit : .rollback
            }
            return "transaction \(end.rawValue)"
        }
    }

    /// The steps of a transaction or a savepoint, each recorded.
    func runBlock(_ steps: [Step], path: String, _ db: Database, catches: Bool) throws {
        for (index, step) in steps.enumerated() {
            let subpath = "\(path).\(index + 1)"
            if catches {
                run(step, path: subpath, db)
            } else {
                var failure: (any Error)?
                record(subpath) {
                    do {
                        return try perform(step, path: subpath, db)
                    } catch {
                        failure = error
                        throw error
                    }
                }
                if let failure { throw failure }
            }
        }
    }

    func tableRequest(_ table: TableName, _ filter: Filter?) -> QueryInterfaceRequest<Row> {
        var request = Table(table.rawValue).all()
        if let filter { request = request.filter(Requests.expression(filter)) }
        return request
    }
}
