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
// The agreement checked (the second implementation is SQLite's own error
// reporting): the process never crashes, and every error thrown is a
// `DatabaseError`, a `RowDecodingError` (decoding), or a `RecordError`
// (`update` of a record whose row is gone).

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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
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
