import Foundation
import Testing
import GRDBLite

/// `db.transactionDate` asks the clock once when a transaction starts (when
/// the connection leaves autocommit mode), keeps that date until the
/// transaction ends, and asks the clock on each access outside of a
/// transaction.
@Suite struct TransactionDateTests {
    /// A clock whose n-th call returns `Date(timeIntervalSince1970: n)`.
    private final class CountingClock: Sendable {
        let calls = CoreRecorder<Int>()
        var count: Int { calls.count }

        var clock: CustomTransactionClock {
            .custom { [calls] _ in
                let call = calls.count + 1
                calls.append(call)
                return Date(timeIntervalSince1970: TimeInterval(call))
            }
        }
    }

    private static func date(_ n: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(n)) }

    private func makeQueue(_ clock: CountingClock) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.transactionClock = clock.clock
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (a UNIQUE ON CONFLICT ROLLBACK, date)")
        }
        return dbQueue
    }

    @Test func clockIsCalledOnceWhenATransactionStarts() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        #expect(clock.count == 0)
        try dbQueue.write { _ throws in }
        #expect(clock.count == 1, "called eagerly, even if the date is not used")
        let dates = try dbQueue.write { db throws in
            let first = try db.transactionDate
            try db.execute(sql: "INSERT INTO t (a, date) VALUES (1, ?)", arguments: [db.transactionDate])
            try db.execute(sql: "INSERT INTO t (a, date) VALUES (2, ?)", arguments: [db.transactionDate])
            return [first, try db.transactionDate]
        }
        #expect(dates == [Self.date(2), Self.date(2)])
        #expect(clock.count == 2)
        // Rows inserted in one write share one timestamp.
        #expect(try dbQueue.read { try Date.fetchAll($0, sql: "SELECT date FROM t") } == [Self.date(2), Self.date(2)])
    }

    @Test func eachTransactionGetsAFreshDate() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        let first = try dbQueue.write { try $0.transactionDate }
        let second = try dbQueue.write { try $0.transactionDate }
        var third: Date?
        try dbQueue.inTransaction { db throws in
            third = try db.transactionDate
            return .commit
        }
        let fourth = try dbQueue.read { try $0.transactionDate }
        #expect([first, second, third, fourth] == [Self.date(1), Self.date(2), Self.date(3), Self.date(4)])
        #expect(clock.count == 4)
    }

    @Test func eachAccessOutsideOfATransactionAsksTheClock() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        let dates = try dbQueue.writeWithoutTransaction { db throws in
            let first = try db.transactionDate
            // Statements in autocommit mode don't ask the clock.
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            _ = try Int.fetchAll(db, sql: "SELECT a FROM t")
            let second = try db.transactionDate
            return [first, second]
        }
        #expect(dates == [Self.date(1), Self.date(2)])
        #expect(clock.count == 2)
        let inDatabase = try dbQueue.inDatabase { try $0.transactionDate }
        #expect(inDatabase == Self.date(3))
    }

    @Test func explicitTransactionStatements() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "BEGIN")
            #expect(clock.count == 1)
            #expect(try db.transactionDate == Self.date(1))
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            #expect(try db.transactionDate == Self.date(1))
            try db.execute(sql: "COMMIT")
            #expect(clock.count == 1)
            #expect(try db.transactionDate == Self.date(2), "a fresh date after commit")

            try db.execute(sql: "BEGIN IMMEDIATE TRANSACTION")
            #expect(try db.transactionDate == Self.date(3))
            try db.execute(sql: "ROLLBACK")
            #expect(try db.transactionDate == Self.date(4), "a fresh date after rollback")

            // A savepoint outside of a transaction starts one.
            try db.execute(sql: "SAVEPOINT s")
            #expect(try db.transactionDate == Self.date(5))
            try db.execute(sql: "SAVEPOINT nested")
            try db.execute(sql: "ROLLBACK TO SAVEPOINT nested")
            try db.execute(sql: "RELEASE SAVEPOINT nested")
            #expect(try db.transactionDate == Self.date(5), "nested savepoints don't change the date")
            try db.execute(sql: "RELEASE SAVEPOINT s")
            #expect(try db.transactionDate == Self.date(6))
        }
        #expect(clock.count == 6)
    }

    @Test func savepointsKeepTheTransactionDate() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        try dbQueue.write { db throws in
            try db.inSavepoint {
                let date = try db.transactionDate
                #expect(date == Self.date(1))
                return .rollback
            }
            try db.inSavepoint { .commit }
            #expect(try db.transactionDate == Self.date(1))
        }
        #expect(clock.count == 1)
    }

    @Test func freshDateAfterATransactionRolledBackByAnError() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        #expect(throws: CoreTestError.self) {
            try dbQueue.write { db throws in
                let date = try db.transactionDate
                #expect(date == Self.date(1))
                throw CoreTestError()
            }
        }
        #expect(try dbQueue.write { try $0.transactionDate } == Self.date(2))

        // SQLite rolls back the transaction (ON CONFLICT ROLLBACK): the
        // transaction date is forgotten at once.
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "BEGIN")
            #expect(try db.transactionDate == Self.date(3))
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            #expect(!db.isInsideTransaction)
            #expect(try db.transactionDate == Self.date(4))
            try db.execute(sql: "BEGIN")
            #expect(try db.transactionDate == Self.date(5))
            try db.execute(sql: "COMMIT")
        }
        #expect(clock.count == 5)
    }

    @Test func freshDateAfterAnAbortedTransactionBlock() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        #expect(throws: DatabaseError.self) {
            try dbQueue.inTransaction { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                #expect(coreThrownError { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") } is DatabaseError)
                let date = try db.transactionDate
                #expect(date == Self.date(2))
                return .commit
            }
        }
        #expect(try dbQueue.write { try $0.transactionDate } == Self.date(3))
    }

    @Test func failedBeginDoesNotAskTheClock() throws {
        let clock = CountingClock()
        let dbQueue = try makeQueue(clock)
        try dbQueue.write { db throws in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "BEGIN") }
            #expect(try db.transactionDate == Self.date(1))
        }
        #expect(clock.count == 1)
    }

    @Test func clockMayReadTheDatabase() throws {
        var configuration = Configuration()
        configuration.transactionClock = .custom { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
            return Date(timeIntervalSince1970: TimeInterval(count))
        }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.writeWithoutTransaction { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        let first = try dbQueue.write { db throws in
            try db.execute(sql: "INSERT INTO t VALUES (1), (2)")
            return try db.transactionDate
        }
        #expect(first == Date(timeIntervalSince1970: 0))
        #expect(try dbQueue.write { try $0.transactionDate } == Date(timeIntervalSince1970: 2))
    }

    @Test func clockErrorsAreThrownByTransactionDate() throws {
        var configuration = Configuration()
        configuration.transactionClock = .custom { _ in throw CoreTestError(message: "no clock") }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        // The transaction itself is not affected.
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        let error = #expect(throws: CoreTestError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [db.transactionDate])
            }
        }
        #expect(error?.message == "no clock")
        #expect(throws: CoreTestError.self) { try dbQueue.inDatabase { try $0.transactionDate } }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func defaultClockIsTheRealTime() throws {
        #expect(Configuration().transactionClock is DefaultTransactionClock)
        let dbQueue = try DatabaseQueue()
        let dates = try dbQueue.write { db throws in [try db.transactionDate, try db.transactionDate] }
        #expect(dates[0] == dates[1])
    }
}
