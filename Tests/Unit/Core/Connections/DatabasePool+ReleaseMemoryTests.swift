import Foundation
import Synchronization
import Testing
import GRDBLite
import TestSupport

/// `invalidateReadOnlyConnections()` and `releaseMemoryEventually()`: the
/// readers close without blocking, and the next reads open new ones.
@Suite struct DatabasePoolReleaseMemoryTests {
    /// A pool whose connections count their openings.
    private static func withPool(
        persistentReaders: Bool = false,
        _ body: (DatabasePool, _ openings: @Sendable () -> Int) throws -> Void) throws
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let openings = Atomic(0)
        var configuration = Configuration()
        configuration.persistentReadOnlyConnections = persistentReaders
        configuration.prepareDatabase { _ in openings.add(1, ordering: .relaxed) }
        let dbPool = try DatabasePool(path: directory.path(), configuration: configuration)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        try body(dbPool) { openings.load(ordering: .relaxed) }
    }

    @Test func invalidatedReadersAreReplaced() throws {
        try Self.withPool(persistentReaders: true) { dbPool, openings throws in
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
            let afterFirstRead = openings()
            _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }
            #expect(openings() == afterFirstRead)  // the reader is reused

            dbPool.invalidateReadOnlyConnections()
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
            #expect(openings() == afterFirstRead + 1)
        }
    }

    @Test func aReaderInUseClosesWhenItsReadEnds() throws {
        try Self.withPool { dbPool, openings throws in
            try dbPool.read { db throws in
                dbPool.invalidateReadOnlyConnections()
                // The read goes on with its connection.
                #expect(try Int.fetchOne(db, sql: "SELECT a FROM t") == 1)
            }
            let before = openings()
            _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }
            #expect(openings() == before + 1)
        }
    }

    @Test func releaseMemoryEventuallyClosesReaders() throws {
        try Self.withPool { dbPool, openings throws in
            _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }
            let before = openings()
            dbPool.releaseMemoryEventually()
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
            #expect(openings() == before + 1)
            #expect(try dbPool.write { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
        }
    }

    @Test func releaseMemoryEventuallyKeepsPersistentReaders() throws {
        try Self.withPool(persistentReaders: true) { dbPool, openings throws in
            _ = try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }
            let before = openings()
            dbPool.releaseMemoryEventually()
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
            #expect(openings() == before)
        }
    }
}
