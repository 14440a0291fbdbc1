import Foundation
@testable import GRDBLite
import Synchronization
import Testing
import TestSupport

/// `Database.logError`, and the typed identity of the error of a closed
/// connection. Serialized: the tests set the same global function.
@Suite(.serialized) struct DatabaseLogErrorTests {
    /// The messages logged while the recorder is installed.
    private final class Recorder: Sendable {
        let messages = Mutex<[(ResultCode, String)]>([])
    }

    /// As GRDB: a close that fails because statements are alive logs each
    /// of them.
    @Test func failedCloseLogsTheStatementsThatPreventIt() throws {
        let recorder = Recorder()
        Database.logError = { code, message in recorder.messages.withLock { $0.append((code, message)) } }
        defer { Database.logError = nil }
        #expect(Database.logError != nil)

        let dbQueue = try DatabaseQueue()
        do {
            let statement = try dbQueue.inDatabase { db throws in
                try db.makeStatement(sql: "SELECT * FROM sqlite_master")
            }
            withExtendedLifetime(statement) {
                _ = #expect(throws: DatabaseError.self) { try dbQueue.close() }
            }
        }
        let logged = recorder.messages.withLock { $0 }
        #expect(
            logged.contains { $0.0 == .SQLITE_BUSY && $0.1 == "unfinalized statement: SELECT * FROM sqlite_master" })
        try dbQueue.close()
    }

    @Test func logErrorCanBeRemoved() {
        Database.logError = { _, _ in }
        Database.logError = nil
        #expect(Database.logError == nil)
    }

    /// The error of a closed connection is known by its identity, not by
    /// its message.
    @Test func closedConnectionErrorHasATypedIdentity() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        let error = #expect(throws: DatabaseError.self) { try dbQueue.read { _ in } }
        #expect(error?.isConnectionClosed == true)
        let lookalike = DatabaseError(resultCode: .SQLITE_MISUSE, message: error?.message)
        #expect(!lookalike.isConnectionClosed)
    }
}
