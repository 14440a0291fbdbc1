import Foundation
import GRDBLite

/// The transactions that the crash writer commits, and what a database
/// must look like after any number of them.
///
/// Transaction `n` inserts a `txn` row and `itemCount(n)` items whose
/// payloads are a function of `(n, item)`, adds that count to the single
/// `counter` row, and deletes the items of transaction `n - 12` (setting
/// its `itemCount` to 0) unless `n - 12` is a multiple of 10, so that pages
/// are freed and reused and the file stays small. A committed transaction is all there or not at all:
/// ``verify(_:)`` checks it.
public enum CrashWorkload {
    public static let schema = """
        CREATE TABLE IF NOT EXISTS txn (
            id INTEGER PRIMARY KEY,
            itemCount INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS item (
            txn INTEGER NOT NULL REFERENCES txn(id),
            n INTEGER NOT NULL,
            payload BLOB NOT NULL,
            PRIMARY KEY (txn, n));
        CREATE TABLE IF NOT EXISTS counter (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            total INTEGER NOT NULL);
        INSERT OR IGNORE INTO counter (id, total) VALUES (1, 0);
        """

    /// The number of items of transaction `txn` (1...8).
    public static func itemCount(_ txn: Int) -> Int {
        1 + (txn &* 7919) % 8
    }

    /// The payload of item `n` of transaction `txn`: 16 to about 6 KB of
    /// bytes that depend on both.
    public static func payload(txn: Int, n: Int) -> Data {
        let count = 16 + (txn &* 7919 &+ n &* 104_729) % 6000
        var state = UInt64(truncatingIfNeeded: txn) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: n)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return Data(bytes)
    }

    /// Whether the items of `txn` are never deleted.
    static func isKept(_ txn: Int) -> Bool { txn % 10 == 0 }

    /// The items of `txn` once `last` has committed: none if transaction
    /// `txn + 12` deleted them.
    static func expectedItemCount(_ txn: Int, last: Int) -> Int {
        txn + 12 <= last && !isKept(txn) ? 0 : itemCount(txn)
    }

    /// Runs transaction `txn`.
    public static func write(_ db: Database, txn: Int) throws {
        let count = itemCount(txn)
        try db.execute(sql: "INSERT INTO txn (id, itemCount) VALUES (?, ?)", arguments: [txn, count])
        let insert = try db.cachedStatement(sql: "INSERT INTO item (txn, n, payload) VALUES (?, ?, ?)")
        for n in 0..<count {
            try insert.execute(arguments: [txn, n, payload(txn: txn, n: n)])
        }
        var delta = count
        let old = txn - 12
        if old > 0 && !isKept(old) {
            delta -= try Int.fetchOne(db, sql: "SELECT itemCount FROM txn WHERE id = ?", arguments: [old])!
            try db.execute(sql: "DELETE FROM item WHERE txn = ?", arguments: [old])
            try db.execute(sql: "UPDATE txn SET itemCount = 0 WHERE id = ?", arguments: [old])
        }
        try db.execute(sql: "UPDATE counter SET total = total + ? WHERE id = 1", arguments: [delta])
    }

    /// The id of the last committed transaction.
    public static func lastTransaction(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT MAX(id) FROM txn") ?? 0
    }

    /// A broken invariant of the database.
    public struct Violation: Error, CustomStringConvertible {
        public var description: String
    }

    /// Checks that the database holds transactions 1...N, each complete,
    /// and returns N.
    public static func verify(_ db: Database) throws -> Int {
        if try !db.tableExists("txn") { return 0 } // killed before creating the schema
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        guard integrity == ["ok"] else {
            throw Violation(description: "integrity_check: \(integrity)")
        }
        let last = try lastTransaction(db)
        let ids = try Int.fetchAll(db, sql: "SELECT id FROM txn ORDER BY id")
        guard ids == Array(stride(from: 1, through: last, by: 1)) else {
            throw Violation(description: "transactions are not 1...\(last): \(ids.count) rows")
        }
        var expectedTotal = 0
        let rows = try Row.fetchCursor(db, sql: "SELECT id, itemCount FROM txn ORDER BY id")
        while let row = try rows.next() {
            let txn: Int = row[0]
            let expected = expectedItemCount(txn, last: last)
            let itemCount: Int = row[1]
            guard itemCount == expected else {
                throw Violation(description: "txn \(txn): itemCount \(itemCount), expected \(expected)")
            }
            expectedTotal += expected
        }
        let items = try Row.fetchCursor(db, sql: "SELECT txn, n, payload FROM item ORDER BY txn, n")
        var itemsByTxn: [Int: Int] = [:]
        while let row = try items.next() {
            let txn: Int = row[0]
            let n: Int = row[1]
            guard row[2] as Data == payload(txn: txn, n: n) else {
                throw Violation(description: "txn \(txn) item \(n): wrong payload")
            }
            itemsByTxn[txn, default: 0] += 1
        }
        for txn in ids {
            let expected = expectedItemCount(txn, last: last)
            guard itemsByTxn[txn, default: 0] == expected else {
                throw Violation(description: "txn \(txn): \(itemsByTxn[txn, default: 0]) items, expected \(expected)")
            }
        }
        guard itemsByTxn.keys.allSatisfy({ $0 >= 1 && $0 <= last }) else {
            throw Violation(description: "items of unknown transactions")
        }
        let total = try Int.fetchOne(db, sql: "SELECT total FROM counter WHERE id = 1") ?? -1
        guard total == expectedTotal else {
            throw Violation(description: "counter \(total), expected \(expectedTotal)")
        }
        return last
    }
}
