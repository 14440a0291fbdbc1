import GRDBLite

/// The migrations that the crash writer applies one by one, and what a
/// database must look like after any number of them.
///
/// Migration `m<i>` (i in 1...20) creates table `t<i>` with `i` rows, and
/// from the second on adds a column to the previous table and fills it: a
/// migration changes the schema and data of more than one table, and is
/// all there or not at all (``verify(_:)`` checks it).
public enum CrashMigrations {
    public static let count = 20

    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for index in 1...count {
            migrator.registerMigration("m\(index)") { db in
                try db.create(table: "t\(index)") { t in
                    t.column("n", .integer).notNull()
                }
                for n in 1...index {
                    try db.execute(sql: "INSERT INTO t\(index) (n) VALUES (?)", arguments: [n])
                }
                if index > 1 {
                    try db.alter(table: "t\(index - 1)") { t in t.add(column: "next", .integer) }
                    try db.execute(sql: "UPDATE t\(index - 1) SET next = n + 1")
                }
            }
        }
        return migrator
    }

    /// Checks that the applied migrations are m1...mN, that the tables are
    /// exactly those they create, complete, and returns N.
    public static func verify(_ db: Database) throws -> Int {
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        guard integrity == ["ok"] else {
            throw CrashWorkload.Violation(description: "integrity_check: \(integrity)")
        }
        let applied = try db.tableExists("grdb_migrations") ? try migrator.appliedMigrations(db) : []
        let last = applied.count
        guard applied == (0..<last).map({ "m\($0 + 1)" }) else {
            throw CrashWorkload.Violation(description: "applied migrations are not m1...m\(last): \(applied)")
        }
        for index in 1...count {
            let exists = try db.tableExists("t\(index)")
            guard exists == (index <= last) else {
                throw CrashWorkload.Violation(
                    description: "t\(index) \(exists ? "exists" : "is missing") after \(last) migrations")
            }
            guard exists else { continue }
            let hasNext = try db.columns(in: "t\(index)").contains { $0.name == "next" }
            guard hasNext == (index < last) else {
                throw CrashWorkload.Violation(description: "t\(index).next: \(hasNext), after \(last) migrations")
            }
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM t\(index) ORDER BY n")
            let expected = (1...index).map { n -> [Int?] in hasNext ? [n, n + 1] : [n] }
            let found = rows.map { row in (0..<row.count).map { row[$0] as Int? } }
            guard found == expected else {
                throw CrashWorkload.Violation(description: "t\(index) rows: \(found), expected \(expected)")
            }
        }
        return last
    }
}
