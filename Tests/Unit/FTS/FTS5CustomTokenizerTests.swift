import CSQLite
import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing

/// Lowercases the tokens of `ascii`.
private final class LowercaseTokenizer: FTS5WrapperTokenizer {
    static let name = "lowercase"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.ascii())
    }

    func accept(
        token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        try tokenCallback(token.lowercased(), flags)
    }
}

/// `add(tokenizer:)` can't throw: when SQLite can't register the tokenizer
/// (out of memory in Tests/Reliability/OutOfMemoryWorkloadTests; a
/// statement over SQLite's length limit here), it does not trap. The
/// registration is retried before the next statement compiles, whose
/// error it is if it fails again (GRDB traps).
@Suite struct FTS5CustomTokenizerTests {
    @Test func failedRegistrationIsTheErrorOfTheNextStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let limit = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, -1)
            // GRDBLite finds FTS5's API with `SELECT fts5(?)`: too long.
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, 10)
            db.add(tokenizer: LowercaseTokenizer.self)
            for _ in 0..<2 {
                do {
                    try db.execute(sql: "SELECT 1")
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_TOOBIG)
                }
            }
            // Once SQLite can, the next statement registers it.
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, limit)
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = LowercaseTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('Hello World')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'world'") == 1)
        }
    }

    @Test func severalFailedRegistrationsRunAgain() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let limit = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, 10)
            defer { sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, limit) }
            db.add(tokenizer: LowercaseTokenizer.self)
            db.add(tokenizer: LowercaseTokenizer.self)
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, limit)
            // Both registrations run again, and succeed.
            try db.execute(sql: "CREATE VIRTUAL TABLE doc USING fts5(body, tokenize = 'lowercase')")
        }
    }
}
