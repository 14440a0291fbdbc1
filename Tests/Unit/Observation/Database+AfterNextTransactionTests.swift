import Foundation
import GRDBLite
import Synchronization
import Testing
import TestSupport

/// `Database.afterNextTransaction(onCommit:onRollback:)` (after GRDB's
/// DatabaseAfterNextTransactionCommitTests).
@Suite struct DatabaseAfterNextTransactionTests {
    /// What the closures saw.
    private final class Counts: Sendable {
        let commits = Mutex(0)
        let rollbacks = Mutex(0)
        var value: (Int, Int) {
            (commits.withLock { $0 }, rollbacks.withLock { $0 })
        }
    }

    /// A value that tells when the closures are released.
    private final class Witness: Sendable { }

    private static func register(_ db: Database, _ counts: Counts, _ witness: Witness) {
        db.afterNextTransaction(
            onCommit: { _ in
                withExtendedLifetime(witness) { }
                counts.commits.withLock { $0 += 1 }
            },
            onRollback: { _ in
                withExtendedLifetime(witness) { }
                counts.rollbacks.withLock { $0 += 1 }
            })
    }

    @Test(arguments: [
        // (statements that start, statement that ends, committed)
        ("", "CREATE TABLE t (a)", true),
        ("BEGIN DEFERRED TRANSACTION", "COMMIT", true),
        ("BEGIN IMMEDIATE TRANSACTION; CREATE TABLE t (a)", "COMMIT", true),
        ("SAVEPOINT s; CREATE TABLE t (a); ROLLBACK TRANSACTION TO SAVEPOINT s", "RELEASE SAVEPOINT s", true),
        ("BEGIN EXCLUSIVE TRANSACTION; CREATE TABLE t (a)", "ROLLBACK", false),
        ("SAVEPOINT s; CREATE TABLE t (a)", "ROLLBACK", false),
    ])
    func closuresRunOnceWhenTheTransactionEnds(start: String, end: String, committed: Bool) throws {
        for registersInsideTheTransaction in [false, true] {
            let dbQueue = try DatabaseQueue()
            let counts = Counts()
            try dbQueue.writeWithoutTransaction { db in
                weak var released: Witness?
                do {
                    let witness = Witness()
                    released = witness
                    if !registersInsideTheTransaction { Self.register(db, counts, witness) }
                    try db.execute(sql: start)
                    if registersInsideTheTransaction { Self.register(db, counts, witness) }
                }
                #expect(released != nil)
                #expect(counts.value == (0, 0))
                try db.execute(sql: end)
                #expect(counts.value == (committed ? 1 : 0, committed ? 0 : 1))
                #expect(released == nil, "the closures are released")
                // The next transaction is not notified.
                try db.inTransaction {
                    try db.execute(sql: "DROP TABLE IF EXISTS t; CREATE TABLE t (a)")
                    return .commit
                }
                #expect(counts.value == (committed ? 1 : 0, committed ? 0 : 1))
            }
        }
    }

    /// `onRollback` is optional; a `write` that throws rolls back.
    @Test func writeThatThrowsDoesNotCallOnCommit() throws {
        let dbQueue = try DatabaseQueue()
        let counts = Counts()
        struct Failure: Error { }
        #expect(throws: Failure.self) {
            try dbQueue.write { db in
                db.afterNextTransaction { _ in counts.commits.withLock { $0 += 1 } }
                try db.execute(sql: "CREATE TABLE t (a)")
                throw Failure()
            }
        }
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(counts.value == (0, 0))
    }
}
