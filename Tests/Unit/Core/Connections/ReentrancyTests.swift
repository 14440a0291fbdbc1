import Dispatch
import Foundation
import Testing
import GRDBLite

/// Misuses that would deadlock or corrupt memory trap with a message.
@Suite struct ReentrancyTests {
    @Test func writeInsideWriteTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { _ in
                try dbQueue.write { _ in }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains(
                "Database methods are not reentrant: GRDBLite.DatabaseQueue was accessed from inside one of its own access blocks"
            ))
    }

    @Test func readInsideWriteTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { _ in
                _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("not reentrant"))
    }

    @Test func inDatabaseInsideInTransactionTraps() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inTransaction { _ in
                dbQueue.inDatabase { _ in }
                return .commit
            }
        }
    }

    @Test func closeInsideAnAccessTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inDatabase { _ in try dbQueue.close() }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("not reentrant"))
    }

    /// The access methods of the tests below.
    enum Access: String, Codable, CaseIterable, Sendable, CustomTestStringConvertible {
        case read, write, inDatabase, inTransaction, writeWithoutTransaction, unsafeRead

        var testDescription: String { rawValue }

        func run(_ dbQueue: DatabaseQueue, _ body: () throws -> Void) throws {
            switch self {
            case .read: try dbQueue.read { _ in try body() }
            case .write: try dbQueue.write { _ in try body() }
            case .inDatabase: try dbQueue.inDatabase { _ in try body() }
            case .inTransaction: try dbQueue.inTransaction { _ in try body(); return .commit }
            case .writeWithoutTransaction: try dbQueue.writeWithoutTransaction { _ in try body() }
            case .unsafeRead: try dbQueue.unsafeRead { _ in try body() }
            }
        }
    }

    private static let reentrancyMessage =
        "Database methods are not reentrant: GRDBLite.DatabaseQueue was accessed from inside one of its own access blocks"

    /// `a`, then `b` inside it, then `a` again inside `b`: `a`'s queue is
    /// held by the outer access, so the inner one would wait forever.
    /// Seen through `b`, it must trap all the same.
    @Test(arguments: [Access.read, .write, .inDatabase], Access.allCases)
    func reentrancyThroughAnotherQueueTraps(outer: Access, inner: Access) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [outer, inner] in
            let a = try DatabaseQueue()
            let b = try DatabaseQueue()
            try outer.run(a) {
                try Access.write.run(b) {
                    try inner.run(a) { }
                }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(Self.reentrancyMessage))
    }

    /// The same, with the middle access of each kind, and deeper.
    @Test(arguments: [Access.read, .inDatabase, .inTransaction, .unsafeRead])
    func reentrancyThroughSeveralQueuesTraps(middle: Access) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [middle] in
            let a = try DatabaseQueue()
            let b = try DatabaseQueue()
            let c = try DatabaseQueue()
            try a.write { _ in
                try middle.run(b) {
                    try c.read { _ in
                        _ = try a.read { try Int.fetchOne($0, sql: "SELECT 1") }
                    }
                }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(Self.reentrancyMessage))
    }

    /// An asynchronous access is an access too.
    @Test func reentrancyFromAnAsyncAccessTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = try DatabaseQueue()
            let b = try DatabaseQueue()
            try await a.write { _ in
                b.inDatabase { _ in
                    a.inDatabase { _ in }
                }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(Self.reentrancyMessage))
    }

    @Test func closeThroughAnotherQueueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = try DatabaseQueue()
            let b = try DatabaseQueue()
            try a.read { _ in try b.write { _ in try a.close() } }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(Self.reentrancyMessage))
    }

    /// Distinct databases nest, and an inner access may use the connections
    /// of the accesses around it (GRDB allows it: it copies between them).
    @Test func distinctQueuesNest() throws {
        let a = try DatabaseQueue()
        let b = try DatabaseQueue()
        let c = try DatabaseQueue()
        let copied = try a.write { dbA throws in
            try dbA.execute(sql: "CREATE TABLE t (v); INSERT INTO t VALUES (1), (2)")
            return try b.write { dbB throws in
                try dbB.execute(sql: "CREATE TABLE t (v)")
                let values = try Int.fetchCursor(dbA, sql: "SELECT v FROM t ORDER BY v")
                while let value = try values.next() {
                    try dbB.execute(sql: "INSERT INTO t VALUES (?)", arguments: [value])
                }
                return try c.read { _ in try Int.fetchAll(dbB, sql: "SELECT v FROM t ORDER BY v") }
            }
        }
        #expect(copied == [1, 2])
        #expect(try b.read { try Int.fetchOne($0, sql: "SELECT SUM(v) FROM t") } == 3)
        // The nesting left nothing behind: each queue is usable on its own,
        // and the other way around.
        #expect(try b.write { _ in try a.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } } == 2)
    }

    /// Once an access has ended, the queue may be used again from the
    /// same thread, and from the access of another queue.
    @Test func sequentialAccessesAreNotReentrant() async throws {
        let a = try DatabaseQueue()
        let b = try DatabaseQueue()
        try await a.write { try $0.execute(sql: "CREATE TABLE t (v)") }
        let count: @Sendable () throws -> Int = { try a.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t")! } }
        func nestSynchronously() throws -> Int {
            try a.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            return try b.write { _ in try count() }
        }
        var counts: [Int] = []
        for _ in 0..<3 {
            counts.append(try nestSynchronously())
            try await a.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            counts.append(try await b.read { _ in try count() })
        }
        // Every access ran, in order, and each saw the writes before it.
        #expect(counts == [1, 2, 3, 4, 5, 6])
    }

    // MARK: - Unsafe reentrant accesses (GRDB's DatabaseWriterTests, DatabaseReaderTests)

    @Test func unsafeReentrantWriteIsReentrant() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.unsafeReentrantWrite { db1 throws in
            try db1.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try dbQueue.unsafeReentrantWrite { db2 throws in
                try db2.execute(sql: "INSERT INTO t (id) VALUES (NULL)")
                try dbQueue.unsafeReentrantWrite { db3 throws in
                    #expect(try Int.fetchOne(db3, sql: "SELECT id FROM t") == 1)
                    #expect(db1 === db2)
                    #expect(db2 === db3)
                }
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func unsafeReentrantReadIsReentrantFromWrite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db1 throws in
            try db1.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            try dbQueue.unsafeReentrantRead { db2 throws in
                try dbQueue.unsafeReentrantRead { db3 throws in
                    #expect(db1 === db2)
                    #expect(db2 === db3)
                    // Inside the write's transaction: its changes are visible.
                    #expect(db3.isInsideTransaction)
                    #expect(try Int.fetchOne(db3, sql: "SELECT a FROM t") == 1)
                }
            }
        }
    }

    /// Inside a `read`, a reentrant write runs in the read-only transaction.
    @Test func unsafeReentrantWriteInsideReadIsReadOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { _ throws in
            let error = #expect(throws: DatabaseError.self) {
                try dbQueue.unsafeReentrantWrite { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
            }
            #expect(error?.resultCode == .SQLITE_READONLY)
        }
    }

    /// Through another queue, the reentrant methods find the outer access.
    @Test func unsafeReentrantAccessesThroughAnotherQueue() throws {
        let a = try DatabaseQueue()
        let b = try DatabaseQueue()
        try a.write { dbA throws in
            try dbA.execute(sql: "CREATE TABLE t (a)")
            try b.read { _ throws in
                try a.unsafeReentrantWrite { db throws in
                    #expect(db === dbA)
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                }
                #expect(try a.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
            }
        }
    }

    /// Outside of any access, the reentrant methods are plain accesses.
    @Test func unsafeReentrantAccessesOutsideOfAnAccess() throws {
        let dbQueue = try DatabaseQueue()
        #expect(dbQueue.unsafeReentrantWrite { $0.isInsideTransaction } == false)
        try dbQueue.unsafeReentrantWrite { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
        }
        #expect(try dbQueue.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
        // And they don't make the next access reentrant.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }

    /// `unsafeRead` runs outside of any transaction and is not reentrant.
    @Test func unsafeReadIsNotReentrant() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            dbQueue.unsafeReentrantWrite { _ in
                dbQueue.unsafeRead { _ in }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(Self.reentrancyMessage))
    }

    @Test func anotherQueueCanBeUsedInsideAnAccess() throws {
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        let value = try first.write { _ throws in
            try second.write { try Int.fetchOne($0, sql: "SELECT 42") }
        }
        #expect(value == 42)
    }

    @Test func cursorIteratedAfterItsAccessTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let cursor = try dbQueue.read { try Int.fetchCursor($0, sql: "SELECT 1 UNION ALL SELECT 2") }
            _ = try cursor.next()
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("A database cursor was used outside of its database access"))
    }

    @Test func rowCursorIteratedAfterItsAccessTraps() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            let cursor = try dbQueue.inDatabase { try Row.fetchCursor($0, sql: "SELECT 1") }
            _ = try Array(cursor)
        }
    }

    @Test func databaseUsedAfterItsAccessTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            let db = dbQueue.inDatabase { $0 }
            try db.execute(sql: "SELECT 1")
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("A database connection was used outside of its database access"))
    }

    @Test func databaseUsedFromAnotherThreadTraps() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            dbQueue.inDatabase { db in
                nonisolated(unsafe) let db = db
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) {
                    _ = try? Int.fetchOne(db, sql: "SELECT 1")
                }
                group.wait()
            }
        }
    }
}
