import Foundation
import GRDBLite

/// Captures the SQL a connection runs.
final class SQLRecorder: @unchecked Sendable {
    private var statements: [String] = []
    private let lock = NSLock()

    var sql: [String] {
        lock.withLock { statements }
    }

    func record(_ sql: String) {
        lock.withLock { statements.append(sql) }
    }

    func reset() {
        lock.withLock { statements.removeAll() }
    }
}

/// An in-memory database that records the SQL it runs (after `schema`).
func makeDatabase(_ schema: String, recorder: SQLRecorder? = nil) throws -> DatabaseQueue {
    var config = Configuration()
    if let recorder {
        config.trace = { recorder.record($0) }
    }
    let dbQueue = try DatabaseQueue(configuration: config)
    try dbQueue.write { try $0.execute(sql: schema) }
    recorder?.reset()
    return dbQueue
}
