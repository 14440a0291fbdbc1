import Foundation
@_spi(GRDBLite) import GRDBLite

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
