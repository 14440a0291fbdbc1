// The base class of GRDB's own test suite, written for GRDBLite against its
// public API only. Scripts/grdb-compat.sh compiles GRDB 7.10's test files
// (taken from its package checkout at run time, with `import GRDB` rewritten
// to `import GRDBLite`) together with this file, which replaces GRDB's
// `GRDBTestCase.swift`: that one reaches into GRDB's internals through
// `@testable import`, so it cannot be built against another library.
//
// It offers the same members as GRDB's base class, with the same behaviour:
// database makers that apply `dbConfiguration` in a fresh temporary
// directory, the SQL of every statement recorded through `Database.trace`
// with its arguments expanded, and the SQL assertions.
//
// Left out: GRDB's check, when a connection closes, that no write statement
// is still running (it needs GRDB's internal `onConnectionWillClose`).
// `makeDatabasePool` and `Database.logError` support live in the optional
// files beside this one, compiled only when the library has what they need.

import Foundation
import GRDBLite
import XCTest

/// The SQL statements a test's connections ran, in order.
private final class SQLQueryLog: @unchecked Sendable {
    private let lock = NSLock()
    private var queries: [String] = []

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return queries
    }

    func append(_ query: String) {
        lock.lock()
        queries.append(query)
        lock.unlock()
    }

    func removeAll() {
        lock.lock()
        queries.removeAll()
        lock.unlock()
    }
}

class GRDBTestCase: XCTestCase {
    /// The configuration of the databases the makers open. Each test starts
    /// with a fresh one that records executed SQL in `sqlQueries`.
    var dbConfiguration: Configuration!

    /// The temporary directory of this test's database files.
    private(set) var dbDirectoryPath: String!

    private let queryLog = SQLQueryLog()

    /// The SQL of the statements run so far by connections opened with
    /// `dbConfiguration`, with their arguments in place of parameters.
    var sqlQueries: [String] { queryLog.all }

    /// The last statement of `sqlQueries` that is not a comment (triggers
    /// and virtual tables may log comments).
    var lastSQLQuery: String? {
        sqlQueries.last { !$0.hasPrefix("--") }
    }

    func clearSQLQueries() {
        queryLog.removeAll()
    }

    override func setUp() {
        super.setUp()
        #if GRDBCOMPAT_LOGERROR
        installLogErrorRecorder()
        #endif

        let directoryName = "GRDBTestCase-\(UUID().uuidString)"
        dbDirectoryPath = (NSTemporaryDirectory() as NSString).appendingPathComponent(directoryName)
        try? FileManager.default.removeItem(atPath: dbDirectoryPath)

        var configuration = Configuration()
        configuration.prepareDatabase { [queryLog] db in
            db.trace { event in
                switch event {
                case .statement(let statement):
                    queryLog.append(statement.expandedSQL)
                case .profile(let statement, _):
                    queryLog.append(statement.expandedSQL)
                }
            }
        }
        dbConfiguration = configuration
        clearSQLQueries()
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(atPath: dbDirectoryPath)
    }

    /// A path for a new database file in this test's directory.
    func makeDatabasePath(filename: String?) throws -> String {
        try FileManager.default.createDirectory(
            atPath: dbDirectoryPath, withIntermediateDirectories: true, attributes: nil)
        return (dbDirectoryPath as NSString).appendingPathComponent(filename ?? UUID().uuidString)
    }

    /// A database queue opened with `dbConfiguration`.
    func makeDatabaseQueue(filename: String? = nil) throws -> DatabaseQueue {
        try makeDatabaseQueue(filename: filename, configuration: dbConfiguration)
    }

    /// A database queue, then `setup(_:)`.
    func makeDatabaseQueue(filename: String? = nil, configuration: Configuration) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(path: makeDatabasePath(filename: filename), configuration: configuration)
        try setup(dbQueue)
        return dbQueue
    }

    /// Called with each new database; subclasses create their schema here.
    func setup(_ dbWriter: some DatabaseWriter) throws {
    }

    func assertNoError(file: StaticString = #file, line: UInt = #line, _ test: () throws -> Void) {
        do {
            try test()
        } catch {
            XCTFail("unexpected error: \(error)", file: file, line: line)
        }
    }

    func assertDidExecute(sql: String, file: StaticString = #file, line: UInt = #line) {
        XCTAssertTrue(sqlQueries.contains(sql), "Did not execute \(sql)", file: file, line: line)
    }

    /// Asserts that the record encodes exactly the columns and values of `row`.
    func assert(
        _ record: some EncodableRecord, isEncodedIn row: Row,
        file: StaticString = #file, line: UInt = #line
    ) throws {
        let encoded = try record.databaseDictionary
        var expected: [String: DatabaseValue] = [:]
        for (column, value) in row where expected[column] == nil {
            expected[column] = value
        }
        XCTAssertEqual(encoded, expected, file: file, line: line)
    }

    /// Compares two SQL strings, ignoring white space and semicolons at
    /// their ends.
    func assertEqualSQL(_ lhs: String, _ rhs: String, file: StaticString = #file, line: UInt = #line) {
        let ends = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))
        XCTAssertEqual(
            lhs.trimmingCharacters(in: ends), rhs.trimmingCharacters(in: ends), file: file, line: line)
    }

    /// Runs the request's statement (one step: GRDB's base class steps an
    /// internal statement cursor) and compares the SQL that ran with `sql`.
    func assertEqualSQL(
        _ db: Database, _ request: some FetchRequest, _ sql: String,
        file: StaticString = #file, line: UInt = #line
    ) throws {
        _ = try Row.fetchCursor(request.makeStatement(db)).next()
        assertEqualSQL(lastSQLQuery!, sql, file: file, line: line)
    }

    /// Compares the SQL of `SELECT expression` with `SELECT sql`.
    func assertEqualSQL(
        _ db: Database, _ expression: some SQLExpressible, _ sql: String,
        file: StaticString = #file, line: UInt = #line
    ) throws {
        let request: SQLRequest<Row> = "SELECT \(expression)"
        try assertEqualSQL(db, request, "SELECT \(sql)", file: file, line: line)
    }

    // GRDB's base class reads with `unsafeRead`; `read` records the same
    // last statement, as the SQL is taken inside the closure.

    /// Runs the request in `databaseReader` and compares the SQL that ran
    /// with `sql`.
    func assertEqualSQL(
        _ databaseReader: some DatabaseReader, _ request: some FetchRequest, _ sql: String,
        file: StaticString = #file, line: UInt = #line
    ) throws {
        try databaseReader.read { db in
            try assertEqualSQL(db, request, sql, file: file, line: line)
        }
    }

    /// The SQL the request runs.
    func sql(_ databaseReader: some DatabaseReader, _ request: some FetchRequest) -> String {
        try! databaseReader.read { db in
            _ = try Row.fetchCursor(request.makeStatement(db)).next()
            return lastSQLQuery!
        }
    }
}

/// The bundle of the test resources (`Betty.jpeg`...).
let testBundle = Bundle.module

extension FetchRequest {
    /// The request's prepared statement.
    func makeStatement(_ db: Database) throws -> Statement {
        try makePreparedRequest(db, forSingleResult: false).statement
    }

    /// The request's SQL and arguments.
    func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let statement = try makeStatement(db)
        return (sql: statement.sql, arguments: statement.arguments)
    }
}
