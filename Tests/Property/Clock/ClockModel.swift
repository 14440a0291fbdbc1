/// The reference model of `db.transactionDate`, GRDB's rule: the clock is
/// asked once when the connection leaves autocommit mode (each
/// transaction, the read-only ones of `read` included), and on each read
/// outside of a transaction. Inside a transaction, reads return its date,
/// or its clock error, until it ends: commit, rollback, or a rollback
/// SQLite forced. Statements that run in autocommit mode don't ask.
final class ClockModel: ScriptModelDelegate {
    let clock: ClockSpec
    /// The number of clock calls so far.
    private(set) var calls = 0
    /// The call that gave the date of the current transaction.
    private var transactionCall: Result<Int, ClockError>?

    init(clock: ClockSpec) {
        self.clock = clock
    }

    private func callClock() -> Result<Int, ClockError> {
        defer { calls += 1 }
        return clock.failingCalls.contains(calls) ? .failure(ClockError(call: calls)) : .success(calls)
    }

    /// `db.transactionDate`.
    private func readDate() -> Result<Int, ClockError> {
        transactionCall ?? callClock()
    }

    func perform(_ action: ClockAction, _ model: ScriptModel<ClockModel>) -> String {
        switch action {
        case .readDate:
            return describe(readDate())
        case .insertStamp:
            // willInsert reads the date twice, then the record is inserted.
            let creation = readDate()
            guard case .success(let creationCall) = creation else { return describe(creation) }
            let modification = readDate()
            guard case .success(let modificationCall) = modification else { return describe(modification) }
            return model.statement(writes: true) { .success("#\(creationCall) #\(modificationCall)") }
        case .touchStamps:
            // One date for all stamps, then a SELECT and UPDATEs.
            let date = readDate()
            guard case .success = date else { return describe(date) }
            return model.statement(writes: false) { .success(describe(date)) }
        case .countStamps:
            return model.statement(writes: false) { .success("ok") }
        }
    }

    private func describe(_ call: Result<Int, ClockError>) -> String {
        switch call {
        case .success(let call): "#\(call)"
        case .failure(let error): error.logDescription
        }
    }

    func transactionDidBegin(implicit: Bool) {
        if !implicit { transactionCall = callClock() }
    }

    func transactionWillCommit() -> String? { nil }
    func transactionDidCommit(implicit: Bool) { transactionCall = nil }
    func transactionDidRollback(afterFailureInAutocommit: Bool) { transactionCall = nil }
    func savepointDidBegin() { }
    func savepointsDidRelease(depth: Int) { }
    func savepointDidRollback(toDepth depth: Int) { }
}
