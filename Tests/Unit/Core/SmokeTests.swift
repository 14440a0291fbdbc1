import Testing
import GRDBLite

@Suite struct SmokeTests {
    @Test func opens() throws {
        let dbQueue = try DatabaseQueue()
        let one = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") }
        #expect(one == 1)
    }
}
