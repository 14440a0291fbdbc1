import Foundation
import Testing
import GRDBLite

@Suite struct DatabaseTraceTests {
    /// `description` shows the parameters, `expandedDescription` the
    /// values, with the duration of a profiled statement in front.
    @Test func descriptionsOfEvents() throws {
        let dbQueue = try DatabaseQueue()
        var statements: [(String, String)] = []
        var profiles: [(String, String)] = []
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t(a)")
            db.trace(options: [.statement, .profile]) { event in
                switch event {
                case .statement: statements.append((event.description, event.expandedDescription))
                case .profile: profiles.append((event.description, event.expandedDescription))
                }
            }
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["x"])
            db.trace(nil)
        }
        #expect(statements.map(\.0) == ["INSERT INTO t VALUES (?)"])
        #expect(statements.map(\.1) == ["INSERT INTO t VALUES ('x')"])
        try #require(profiles.count == 1)
        #expect(profiles[0].0.hasSuffix("s INSERT INTO t VALUES (?)"))
        #expect(profiles[0].1.hasSuffix("s INSERT INTO t VALUES ('x')"))
        #expect(profiles[0].1.wholeMatch(of: /[0-9]+\.[0-9]{3}s .*/) != nil)
    }

    /// With `publicStatementArguments`, `description` shows the values too.
    @Test func publicStatementArguments() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t(a NOT NULL)")
            // recordedSQL records the descriptions of trace events.
            let descriptions = try recordedSQL(db) { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["x"]) }
            #expect(descriptions == ["INSERT INTO t VALUES ('x')"])
            let error = try #require(#expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [nil])
            })
            #expect(
                error.description
                    == "SQLite error 19: NOT NULL constraint failed: t.a - while executing `INSERT INTO t VALUES (?)` with arguments [NULL]"
            )
            #expect(error.expandedDescription == error.description)
        }
    }
}
