import CSQLite
import Foundation
import GRDBLite

// Fuzz target: database files. The input is the bytes of a database file
// (the seeds are small valid databases, of 512-byte pages, that the fuzzer
// damages), opened with a `DatabaseQueue`, then a fixed sequence of calls:
// schema introspection of each table (`tableExists`, `columns`,
// `indexes`, `primaryKey`, `foreignKeys`), its rows fetched as rows and as
// records, a record found, checked and updated by its primary key
// (`fetchOne(key:)`, `exists`, `update`), `dumpContent`, and a
// `ValueObservation` started and cancelled.
//
// The agreements checked (the second implementation is SQLite's C API):
// 1. GRDBLite reads what raw C calls read. On two copies of the file, a
//    `DatabaseQueue` and a connection of `sqlite3_open_v2` (the same flags,
//    extended result codes, no double-quoted strings) run the same reads:
//    the statements GRDBLite runs when it opens a file, `sqlite_master`,
//    the rows of each table (`SELECT *`), and `PRAGMA quick_check`. Each
//    read gives the same rows (the same storage classes and values), or
//    the same extended error code: a failed open of the queue is the code
//    of the first of its statements that fails in C. Text that is not
//    UTF-8 is a blob in both, as GRDBLite reads it (see `DatabaseValue`).
//    Deliberate gap: a schema that uses GRDB's built-in SQL functions or
//    collations, which only GRDBLite's connection has.
// 2. The process never crashes, and every error thrown is a
//    `DatabaseError`, a `RowDecodingError` (decoding), or a `RecordError`
//    (`update` of a record whose row is gone).

/// A record of any table: the columns of its row.
private struct AnyRecord: FetchableRecord, PersistableRecord {
    /// The table of the records (the fuzzer runs on one thread).
    nonisolated(unsafe) static var table = ""
    static var databaseTableName: String { table }

    var row: Row

    init(row: Row) {
        self.row = row.copy()
    }

    func encode(to container: inout PersistenceContainer) {
        for (column, value) in row {
            container[column] = value
        }
    }
}

/// Discards the dump.
private struct NullStream: TextOutputStream {
    mutating func write(_ string: String) { }
}

/// The folder of the database file, for the process.
private let directory: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("grdblite-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// Runs a step: an error must be one of the expected kinds.
private func step(_ name: String, _ body: () throws -> Void) {
    do {
        try body()
    } catch is DatabaseError {
    } catch is RowDecodingError {
    } catch is RecordError {
    } catch {
        fatalError("\(name): not a DatabaseError: \(type(of: error)) \(error)")
    }
}

/// The statements a `DatabaseQueue` runs when it opens a file (see
/// `Database.setUp`), with the default configuration.
private let openingStatements = ["SELECT COUNT(*) FROM sqlite_master", "PRAGMA foreign_keys = ON"]

/// The first read compared once the file is open: then the rows of each table.
private let schemaRead = "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master"

/// A value as both sides print it.
private func describe(_ value: DatabaseValue) -> String {
    switch value.storage {
    case .null: "NULL"
    case .int64(let value): "int \(value)"
    case .double(let value): "double \(value.bitPattern)"
    case .string(let value): "text \(value.debugDescription)"
    case .blob(let value): "blob \(value.map { String($0, radix: 16) }.joined(separator: " "))"
    }
}

/// What a read gives: its rows, or its error.
private enum Outcome: Equatable {
    case rows([[String]])
    case error(CInt)
}

/// The raw C side: a connection opened as GRDBLite opens one.
private struct Reference {
    let connection: OpaquePointer

    init?(path: String) {
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK, let connection else {
            sqlite3_close_v2(connection)
            return nil
        }
        sqlite3_extended_result_codes(connection, 1)
        grdblite_disable_dqs(connection)
        self.connection = connection
    }

    func read(_ sql: String) -> Outcome {
        var statement: OpaquePointer?
        var code = sqlite3_prepare_v2(connection, sql, -1, &statement, nil)
        guard code == SQLITE_OK else { return .error(sqlite3_extended_errcode(connection)) }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while true {
            code = sqlite3_step(statement)
            guard code == SQLITE_ROW else { break }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
        return code == SQLITE_DONE ? .rows(rows) : .error(sqlite3_extended_errcode(connection))
    }

    /// The names of the first 8 tables, if `sqlite_master` can be read.
    func tableNames() -> [String] {
        var statement: OpaquePointer?
        let sql = "SELECT name FROM sqlite_master WHERE type = 'table' LIMIT 8"
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(statement) }
        var names: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            guard let text = sqlite3_column_text(statement, 0) else { continue }
            names.append(String(cString: text))
        }
        return names
    }

    /// A column of the current row, read as `DatabaseValue` documents.
    private func column(_ statement: OpaquePointer?, _ index: CInt) -> String {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return "int \(sqlite3_column_int64(statement, index))"
        case SQLITE_FLOAT: return "double \(sqlite3_column_double(statement, index).bitPattern)"
        case SQLITE_TEXT, SQLITE_BLOB:
            let isText = sqlite3_column_type(statement, index) == SQLITE_TEXT
            let bytes: [UInt8]
            if isText, let text = sqlite3_column_text(statement, index) {
                bytes = Array(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))))
            } else if let blob = sqlite3_column_blob(statement, index) {
                let count = Int(sqlite3_column_bytes(statement, index))
                bytes = Array(UnsafeRawBufferPointer(start: blob, count: count))
            } else {
                bytes = []
            }
            if isText, let string = String(validating: bytes, as: UTF8.self) {
                return "text \(string.debugDescription)"
            }
            return "blob \(bytes.map { String($0, radix: 16) }.joined(separator: " "))"
        default: return "NULL"
        }
    }
}

/// Checks agreement (1): GRDBLite and raw C read the same from `data`.
private func compareWithC(_ data: UnsafePointer<UInt8>, _ size: Int) {
    let litePath = directory.appendingPathComponent("lite.sqlite").path
    let referencePath = directory.appendingPathComponent("reference.sqlite").path
    for path in [litePath, referencePath] {
        for suffix in ["", "-journal", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else {
            fatalError("can't write \(path)")
        }
    }
    guard let reference = Reference(path: referencePath) else { fatalError("can't open \(referencePath)") }
    defer { sqlite3_close_v2(reference.connection) }
    let dbQueue: DatabaseQueue
    do {
        dbQueue = try DatabaseQueue(path: litePath)
    } catch {
        guard let error = error as? DatabaseError else { fatalError("open: not a DatabaseError: \(error)") }
        // GRDBLite's open fails with the code of its first statement that fails.
        let code = error.extendedResultCode.rawValue
        let expected = openingStatements.lazy.compactMap { sql -> CInt? in
            if case .error(let code) = reference.read(sql) { code } else { nil }
        }.first
        guard expected == code else {
            fatalError("open: GRDBLite fails with \(code) \(error), C with \(expected.map(String.init) ?? "no error")")
        }
        return
    }
    defer { try? dbQueue.close() }
    for sql in openingStatements {
        guard case .rows = reference.read(sql) else {
            fatalError("open: GRDBLite opens, C fails \(sql): \(reference.read(sql))")
        }
    }
    func lite(_ sql: String) -> Outcome {
        do {
            let rows = try dbQueue.inDatabase { try Row.fetchAll($0, sql: sql) }
            return .rows(rows.map { $0.databaseValues.map(describe) })
        } catch let error as DatabaseError {
            return .error(error.extendedResultCode.rawValue)
        } catch {
            fatalError("\(sql): not a DatabaseError: \(error)")
        }
    }
    var reads = [schemaRead]
    for table in reference.tableNames() {
        reads.append("SELECT * FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\" LIMIT 16")
    }
    reads.append("PRAGMA quick_check")
    for sql in reads {
        let expected = reference.read(sql)
        let read = lite(sql)
        if read != expected {
            fatalError("\(sql): GRDBLite reads \(read), C reads \(expected)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    compareWithC(data, size)
    let path = directory.appendingPathComponent("db.sqlite").path
    for suffix in ["", "-journal", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
    }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size)) else {
        fatalError("can't write \(path)")
    }
    var dbQueue: DatabaseQueue?
    step("open") { dbQueue = try DatabaseQueue(path: path) }
    guard let dbQueue else { return 0 }
    var tables: [String] = []
    step("tables") {
        tables = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' LIMIT 8")
        }
    }
    for table in tables {
        step("table \(table)") {
            try dbQueue.write { db in
                guard try db.tableExists(table) else { return }
                step("columns") { _ = try db.columns(in: table) }
                step("indexes") { _ = try db.indexes(on: table) }
                step("foreignKeys") { _ = try db.foreignKeys(on: table) }
                let primaryKey = try db.primaryKey(table).columns
                AnyRecord.table = table
                let keyColumns = primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                let sql = "SELECT \(keyColumns), * FROM \(table.quotedDatabaseIdentifier) LIMIT 4"
                step("rows") { _ = try Row.fetchAll(db, sql: sql) }
                var records: [AnyRecord] = []
                step("records") { records = try AnyRecord.fetchAll(db, sql: sql) }
                for record in records.prefix(2) {
                    if primaryKey.count == 1 {
                        step("fetchOne(key:)") { _ = try AnyRecord.fetchOne(db, key: record.row[0] as DatabaseValue) }
                    }
                    step("exists") { _ = try record.exists(db) }
                    step("update") { try record.update(db) }
                }
            }
        }
    }
    step("dumpContent") {
        var stream = NullStream()
        try dbQueue.dumpContent(to: stream)
        stream.write("")
    }
    MainActor.assumeIsolated {
        let observation = ValueObservation.tracking { db in
            try String?.fetchAll(db, sql: "SELECT sql FROM sqlite_master")
        }
        let cancellable = observation.start(
            in: dbQueue, scheduling: .immediate,
            onError: { error in
                // The fetch decodes `String`: text that is not UTF-8 is a RowDecodingError.
                guard error is DatabaseError || error is RowDecodingError else {
                    fatalError("observation: not a DatabaseError: \(type(of: error)) \(error)")
                }
            },
            onChange: { _ in })
        cancellable.cancel()
    }
    step("close") { try dbQueue.close() }
    return 0
}
