import Synchronization

/// Runs `body` with the connection that `schedule` gives to its callback
/// (or fails with its error), and returns the result to the awaiting task:
/// the `async` form of the accesses whose closure takes a `Result`.
///
/// `body` runs inside the calling task, on the connection's queue: it sees
/// the task's task-local values and `Task.isCancelled`. The task hops to an
/// actor of this access only, whose executor runs the task's job inside
/// the access that `schedule` starts (see `AccessExecutor`).
///
/// Cancelling the task cancels the access, as in GRDB: before it starts,
/// `body` doesn't run; while it runs, the running statement is interrupted
/// and the next ones fail, all with `CancellationError`, except the
/// rollbacks and the end of read-only transactions.
func awaitAccess<T: Sendable>(
    _ schedule: @escaping @Sendable (@escaping @Sendable (Result<Database, any Error>) -> Void) -> Void,
    _ body: @Sendable (Database) throws -> T) async throws -> T
{
    try Task.checkCancellation()
    let access = AsyncAccess(schedule: schedule)
    return try await withTaskCancellationHandler {
        try await access.run(body)
    } onCancel: {
        access.executor.cancel()
    }
}

/// The actor of one asynchronous access: its only job is the task's call
/// to ``run(_:)``, which its executor runs inside the access.
private actor AsyncAccess {
    nonisolated let executor: AccessExecutor

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    init(schedule: @escaping @Sendable (@escaping @Sendable (Result<Database, any Error>) -> Void) -> Void) {
        executor = AccessExecutor(schedule: schedule)
    }

    /// Runs `body` with the connection of the access; called on the
    /// connection's queue, inside the access.
    func run<T>(_ body: (Database) throws -> T) throws -> T {
        let db = try executor.connection()
        try executor.begin(db)
        defer { executor.end(db) }
        return try body(db)
    }
}

/// The executor of an ``AsyncAccess``: it starts the access when the task
/// enqueues its job, and runs the job inside it, on the connection's queue
/// and in its access context.
// @unchecked Sendable: `dbResult` is set and read on the thread of the
// access, around the job it runs; the cancellation state is behind a lock.
private final class AccessExecutor: SerialExecutor, @unchecked Sendable {
    private enum State {
        case pending
        case cancelled
        case running(Database)
        case ended
    }

    private let schedule: @Sendable (@escaping @Sendable (Result<Database, any Error>) -> Void) -> Void
    private let state = Locked(State.pending)
    private let enqueued = Atomic(false)
    private var dbResult: Result<Database, any Error>?

    init(schedule: @escaping @Sendable (@escaping @Sendable (Result<Database, any Error>) -> Void) -> Void) {
        self.schedule = schedule
    }

    func enqueue(_ job: consuming ExecutorJob) {
        // The actor has one synchronous method, called once: one job.
        precondition(
            !enqueued.exchange(true, ordering: .relaxed),
            "GRDBLite: an asynchronous database access got a second job")
        let job = UnownedJob(job)
        schedule { [self] result in
            dbResult = result
            defer { dbResult = nil }
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    /// The connection of the access, or the error that prevented it.
    func connection() throws -> Database {
        try dbResult!.get()
    }

    /// Marks the access as running on `db`, unless the task was cancelled.
    func begin(_ db: Database) throws {
        try state.withLock { state in
            if case .cancelled = state { throw CancellationError() }
            state = .running(db)
        }
    }

    /// Marks the access as ended: a later cancellation does nothing.
    func end(_ db: Database) {
        state.withLock { state in
            state = .ended
            db.uncancelAccess()
        }
    }

    /// Cancels the access: before it starts, it won't run; while it runs,
    /// its statements fail with `CancellationError`.
    func cancel() {
        state.withLock { state in
            switch state {
            case .pending: state = .cancelled
            // From any thread: `cancelAccess()` is thread-safe.
            case .running(let db): db.cancelAccess()
            case .cancelled, .ended: break
            }
        }
    }
}
