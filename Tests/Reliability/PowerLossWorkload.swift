import Foundation
import GRDBLite
import TestSupport

/// A random workload for the power-loss tests, drawn from a seed:
/// transactions of inserts, updates and deletes of rows of 50 to 5,000
/// bytes, with savepoints released or rolled back, migrations, checkpoints
/// (WAL) and reads (on a pool, through its readers, and a snapshot held
/// across the next steps). Every step that commits (a transaction, a migration)
/// also adds one to `meta.commits`, so that the state of the database
/// names the commit it should be: a torn transaction matches no state of
/// the model.
struct PowerLossWorkload: Sendable {
    enum Operation: Sendable {
        case write(id: Int, size: Int, salt: UInt8)
        case delete(id: Int)
        case savepoint([Operation], rollback: Bool)
    }

    enum Step: Sendable {
        case transaction([Operation])
        /// Migrates up to the migration of this index: one commit.
        case migration(Int)
        case checkpoint(Database.CheckpointMode)
        case read
    }

    static let migrationCount = 3
    static let migrationRows = 3

    var pageSize: Int
    var steps: [Step]

    /// A workload drawn from `seed`, with a page size of 1024 or 4096
    /// bytes unless `pageSize` says; checkpoints only in WAL.
    init(seed: UInt64, wal: Bool, pageSize: Int? = nil) {
        var random = SeededGenerator(seed: seed)
        let drawnPageSize = Bool.random(using: &random) ? 1024 : 4096
        self.pageSize = pageSize ?? drawnPageSize
        var steps: [Step] = []
        var nextMigration = 0
        for _ in 0..<Int.random(in: 8...12, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                steps.append(.transaction(Self.operations(depth: 0, using: &random)))
            case 6 where nextMigration < Self.migrationCount:
                steps.append(.migration(nextMigration))
                nextMigration += 1
            case 7 where wal:
                let modes: [Database.CheckpointMode] = [.passive, .full, .restart, .truncate]
                steps.append(.checkpoint(modes.randomElement(using: &random)!))
            default:
                steps.append(.read)
            }
        }
        self.steps = steps
    }

    static func operations(depth: Int, using random: inout SeededGenerator) -> [Operation] {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in
            let kind = Int.random(in: 0..<8, using: &random)
            if kind < 5 {
                return .write(
                    id: Int.random(in: 1...12, using: &random), size: Int.random(in: 50...5_000, using: &random),
                    salt: UInt8.random(in: 0...255, using: &random))
            }
            if kind < 7 && depth == 0 {
                return .savepoint(
                    operations(depth: depth + 1, using: &random), rollback: Bool.random(using: &random))
            }
            return .delete(id: Int.random(in: 1...12, using: &random))
        }
    }

    static func payload(size: Int, salt: UInt8) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ salt })
    }

    static func migrationIdentifier(_ index: Int) -> String { "m\(index)" }

    /// The migrator of every workload: migration `i` creates `mig_i`, fills
    /// it, and counts one commit. Made at each use: no global for the leak
    /// checker to misread.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for index in 0..<migrationCount {
            migrator.registerMigration(migrationIdentifier(index)) { db in
                try db.execute(sql: "CREATE TABLE mig_\(index) (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
                for row in 1...migrationRows {
                    try db.execute(
                        sql: "INSERT INTO mig_\(index) (id, payload) VALUES (?, ?)",
                        arguments: [row, payload(size: 1_500, salt: UInt8(index * 16 + row))])
                }
                try db.execute(sql: "UPDATE meta SET commits = commits + 1")
            }
        }
        return migrator
    }

    /// The state of the database the workload writes.
    struct State: Equatable, Sendable {
        var commits = 0
        var items: [Int: Data] = [:]
        /// The migration tables and their rows.
        var migrationTables: [String: [Int: Data]] = [:]
        var appliedMigrations: Set<String> = []

        init() { }

        /// Reads the state of `db`.
        init(_ db: Database) throws {
            commits = try Int.fetchOne(db, sql: "SELECT commits FROM meta") ?? -1
            items = try Self.rows(db, table: "item")
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'mig\\_%' ESCAPE '\\'")
            for table in tables { migrationTables[table] = try Self.rows(db, table: table) }
            appliedMigrations = try PowerLossWorkload.migrator.appliedIdentifiers(db)
        }

        static func rows(_ db: Database, table: String) throws -> [Int: Data] {
            var rows: [Int: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, payload FROM \(table)") {
                rows[row["id"]] = row["payload"]
            }
            return rows
        }

        mutating func apply(_ operations: [Operation]) {
            for operation in operations {
                switch operation {
                case .write(let id, let size, let salt): items[id] = PowerLossWorkload.payload(size: size, salt: salt)
                case .delete(let id): items[id] = nil
                case .savepoint(let inner, let rollback): if !rollback { apply(inner) }
                }
            }
        }

        mutating func applyMigration(_ index: Int) {
            var rows: [Int: Data] = [:]
            for row in 1...PowerLossWorkload.migrationRows {
                rows[row] = PowerLossWorkload.payload(size: 1_500, salt: UInt8(index * 16 + row))
            }
            migrationTables["mig_\(index)"] = rows
            appliedMigrations.insert(PowerLossWorkload.migrationIdentifier(index))
        }
    }

    /// The state after each commit: `snapshots[k]` after `k` commits.
    var snapshots: [State] {
        var state = State()
        var snapshots = [state]
        for step in steps {
            switch step {
            case .transaction(let operations): state.apply(operations)
            case .migration(let index): state.applyMigration(index)
            case .checkpoint, .read: continue
            }
            state.commits += 1
            snapshots.append(state)
        }
        return snapshots
    }

    /// Runs `operations` in `db`, savepoints included.
    static func execute(_ operations: [Operation], in db: Database) throws {
        for operation in operations {
            switch operation {
            case .write(let id, let size, let salt):
                try db.execute(
                    sql: "INSERT OR REPLACE INTO item (id, payload) VALUES (?, ?)",
                    arguments: [id, payload(size: size, salt: salt)])
            case .delete(let id):
                try db.execute(sql: "DELETE FROM item WHERE id = ?", arguments: [id])
            case .savepoint(let inner, let rollback):
                try db.inSavepoint {
                    try execute(inner, in: db)
                    return rollback ? .rollback : .commit
                }
            }
        }
    }

    /// Runs the workload on `database`. `acknowledge` is called after each
    /// commit returned, with the number of commits so far; reads compare
    /// what they see with `snapshots`, and throw on a difference. On a
    /// pool, every other read step also takes a `DatabaseSnapshot`, which
    /// pins its commit in the WAL until the next read step checks it
    /// (checkpoints are passive meanwhile: the others wait for readers).
    func run(on database: any DatabaseWriter, snapshots: [State], acknowledge: (Int) -> Void) throws {
        var commits = 0
        var held: (snapshot: DatabaseSnapshot, commits: Int)?
        defer { try? held?.snapshot.close() }
        for step in steps {
            switch step {
            case .transaction(let operations):
                try database.write { db in
                    try Self.execute(operations, in: db)
                    try db.execute(sql: "UPDATE meta SET commits = commits + 1")
                }
            case .migration(let index):
                try Self.migrator.migrate(database, upTo: Self.migrationIdentifier(index))
            case .checkpoint(let mode):
                _ = try database.writeWithoutTransaction { db in try db.checkpoint(held == nil ? mode : .passive) }
                continue
            case .read:
                let state = try database.read { db in try State(db) }
                if state != snapshots[commits] {
                    throw PowerLossTests.Violation(description: "a read saw commit \(state.commits), not \(commits)")
                }
                if let (snapshot, snapshotCommits) = held {
                    let state = try snapshot.read { db in try State(db) }
                    if state != snapshots[snapshotCommits] {
                        throw PowerLossTests.Violation(
                            description: "a snapshot of commit \(snapshotCommits) saw commit \(state.commits)")
                    }
                    try snapshot.close()
                    held = nil
                } else if let pool = database as? DatabasePool {
                    held = (try pool.makeSnapshot(), commits)
                }
                continue
            }
            commits += 1
            acknowledge(commits)
        }
    }
}
