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
        #expect(stderr.contains("Database methods are not reentrant: GRDBLite.DatabaseQueue was accessed from inside one of its own access blocks"))
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
