import Dispatch
import GRDBLite
import Testing
import TestSupport

/// A read that throws gives its reader back to the pool: more failed
/// reads than the pool has readers leave the next read a reader. A reader
/// kept by a failed read would make it wait for good: the test waits for
/// it with a time limit instead, and fails if it is reached.
@Suite struct FailedReadTests {
    @Test func failedReadsGiveTheirReadersBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var config = Configuration()
        config.maximumReaderCount = 2
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: config)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for attempt in 1...5 {
                let error = #expect(throws: DatabaseError.self, "read \(attempt)") {
                    try dbPool.read { db in try db.execute(sql: "SELECT * FROM missing") }
                }
                #expect(error?.resultCode == .SQLITE_ERROR, "read \(attempt): \(String(describing: error))")
            }
            #expect((try? dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }) == 0)
            done.signal()
        }
        #expect(
            done.wait(timeout: .now() + 20) == .success,
            "a read waits for a reader: the failed reads kept theirs")
    }
}
