// The child process of GRDBLite's crash and multi-process tests
// (Tests/Reliability). Not a user tool.
//
//     grdblite-crash-writer write PATH rollback|wal|pool
//         Commits CrashWorkload transactions in a loop, forever, and prints
//         "begin N" on stdout before each `write`, "committed N" after it
//         returns (so the test knows where its kill landed). The test kills
//         it with SIGKILL. `pool` writes through a DatabasePool (WAL) while
//         reader threads and concurrent reads check every state they see,
//         and passive checkpoints run; a read that sees a broken state
//         exits with an error.
//     grdblite-crash-writer write PATH vacuum|checkpoint
//         The same loop, with maintenance between transactions: `vacuum`
//         (rollback journal) runs VACUUM after every third transaction,
//         `checkpoint` (WAL) a truncating checkpoint after each one.
//     grdblite-crash-writer write PATH erase
//         The same loop (rollback journal), and after every fifth
//         transaction prints "erase", erases the database, prints
//         "erased", and starts again from transaction 1.
//     grdblite-crash-writer write PATH litestream
//         The `pool` loop, configured for a database that Litestream
//         replicates (WAL, a 5 s busy timeout: see BeyondOneMachine.md),
//         without its checkpoints (Litestream runs them), after it
//         applies CrashMigrations one by one, printing "migrated N" after
//         each. A write that fails (as one that meets
//         Litestream's lock without the busy timeout) exits with an error.
//     grdblite-crash-writer verify PATH litestream
//         Opens the database (a restored replica), checks CrashMigrations
//         and CrashWorkload, and prints "verified M N": M migrations, N
//         transactions, each whole.
//     grdblite-crash-writer replica URI litestream
//         A read replica through the Litestream VFS (the extension in
//         GRDBLITE_LITESTREAM_VFS, the replica in LITESTREAM_REPLICA_URL):
//         a DatabaseQueue on URI (the VFS doesn't write), whose
//         ValueObservation of the last transaction prints "seen N" on each
//         change (a poller notifies it when the VFS's `litestream_txid`
//         moves), and checks that the replica only goes forward, through
//         whole transactions.
//     grdblite-crash-writer write PATH shared
//         The same loop (WAL), for several processes at once: each
//         transaction takes the next number inside the transaction (with
//         a busy callback that retries often), prints "begin" before and
//         "committed N" after.
//     grdblite-crash-writer migrate PATH rollback|wal
//         Applies CrashMigrations one at a time, printing "migrating N"
//         before and "migrated N" after each, then prints "done".
//     grdblite-crash-writer hold PATH rollback|wal
//         Opens an IMMEDIATE transaction that inserts a row in `t`, prints
//         "locked", waits for a line on stdin, commits, prints "committed".
//     grdblite-crash-writer hold-exclusive PATH rollback
//         Opens an EXCLUSIVE transaction that deletes the rows of `t`
//         (nobody else can read), prints "locked", waits for a line on
//         stdin, rolls back, prints "rolled back".
//     grdblite-crash-writer serve
//         Forks a child for each command on stdin (see `serve()`).
//     grdblite-crash-writer allocations PATH pool
//         Counts the allocations of `await dbPool.read` (see AllocationCount).
//
// Errors go to stderr, with exit status 1.
import Foundation
import GRDBLite

/// Writes a line on stdout at once (unbuffered).
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("grdblite-crash-writer: \(message)\n".utf8))
    exit(1)
}

func configuration(_ mode: String) -> Configuration {
    var config = Configuration()
    switch mode {
    case "wal", "checkpoint": config.journalMode = .wal
    case "litestream":
        // What BeyondOneMachine.md tells a user whose database Litestream
        // replicates: Litestream takes the write lock when it checkpoints.
        config.journalMode = .wal
        config.busyMode = .timeout(5)
    case "shared":
        config.journalMode = .wal
        // Retries every 0.2 ms, 30 s at most: SQLite's busy timeout sleeps up
        // to 100 ms between tries, and rarely finds the lock free between
        // two transactions of a writer in a loop, which starves the other.
        config.busyMode = .callback { tries in
            usleep(200)
            return tries < 150_000
        }
    case "rollback", "pool", "vacuum", "erase": config.journalMode = .default
    default: fail("unknown journal mode \(mode)")
    }
    return config
}

/// `serve`: reads requests "COMMAND\tPATH\tMODE\tSTDERR" on stdin, and
/// for each forks a child that runs `COMMAND PATH MODE` with its stderr
/// in the file STDERR, prints "pid N" first, and shares the server's
/// stdout. Once the child is dead, the server prints "exited signal N"
/// or "exited status N", and reaps it at the next request: until then a
/// `kill` of its pid can't reach another process. Forking saves the
/// start-up of a process (mostly the dynamic linker's, some 13 ms of CPU
/// in a debug build) in each round of the crash tests. The server starts
/// no thread before it forks: the child is free to start its own.
func serve() -> (command: String, path: String, mode: String) {
    var previous: pid_t?
    while let request = readLine() {
        if let previous {
            var status: Int32 = 0
            while waitpid(previous, &status, 0) < 0 && errno == EINTR {}
        }
        let words = request.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard words.count == 4 else { fail("serve: bad request \(request)") }
        let pid = fork()
        if pid < 0 { fail("serve: fork: errno \(errno)") }
        if pid == 0 {
            let fd = open(words[3], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if fd < 0 { fail("serve: can't open \(words[3])") }
            dup2(fd, 2)
            close(fd)
            report("pid \(getpid())")
            return (words[0], words[1], words[2])
        }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
        let code = info.si_code
        let status = info._sifields._sigchld.si_status
        report(code == CLD_EXITED ? "exited status \(status)" : "exited signal \(status)")
        previous = pid
    }
    exit(0)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 2 && arguments[1] == "serve" else {
    fail("usage: grdblite-crash-writer write|hold PATH rollback|wal")
}
let (command, path, mode) = arguments[1] == "serve" ? serve() : (arguments[1], arguments[2], arguments[3])

/// Commits transactions through a pool, with reads of every kind running
/// at the same time, each checking that it sees whole transactions.
func writeThroughAPool() throws -> Never {
    let dbPool = try DatabasePool(path: path, configuration: configuration(mode))
    if mode == "litestream" {
        let migrator = CrashMigrations.migrator
        var applied = try dbPool.read(migrator.appliedMigrations).count
        while applied < CrashMigrations.count {
            applied += 1
            try migrator.migrate(dbPool, upTo: "m\(applied)")
            report("migrated \(applied)")
        }
    }
    try dbPool.write { try $0.execute(sql: CrashWorkload.schema) }
    var txn = try dbPool.read(CrashWorkload.lastTransaction)
    for reader in 0..<2 {
        Thread {
            var last = 0
            while true {
                do {
                    let seen = try dbPool.read(CrashWorkload.verify)
                    if seen < last { fail("reader \(reader) went back from transaction \(last) to \(seen)") }
                    last = seen
                } catch {
                    fail("reader \(reader): \(error)")
                }
            }
        }.start()
    }
    while true {
        txn += 1
        report("begin \(txn)")
        try dbPool.write { try CrashWorkload.write($0, txn: txn) }
        report("committed \(txn)")
        let committed = txn
        try dbPool.writeWithoutTransaction { db in
            if committed % 3 == 0 {
                dbPool.asyncConcurrentRead { dbResult in
                    do {
                        let seen = try CrashWorkload.verify(dbResult.get())
                        if seen != committed { fail("concurrent read saw \(seen), expected \(committed)") }
                    } catch {
                        fail("concurrent read: \(error)")
                    }
                }
            }
            // Not under Litestream, which runs the checkpoints: a passive
            // checkpoint of ours throws SQLITE_BUSY while one of its runs.
            if committed % 7 == 0 && mode != "litestream" {
                // Passive: it copies what no reader needs, and never waits.
                try db.checkpoint(.passive)
            }
        }
    }
}

/// Follows a Litestream replica (see `replica` above).
func followReplica() throws -> Never {
    guard let extensionPath = ProcessInfo.processInfo.environment["GRDBLITE_LITESTREAM_VFS"] else {
        fail("GRDBLITE_LITESTREAM_VFS is not set")
    }
    try ReadReplica.loadExtension(extensionPath)
    // Not `readonly`: `notifyChanges` has no effect on a connection
    // opened read-only. The VFS doesn't write the replica.
    let replica = try DatabaseQueue(path: path)
    let observation = ValueObservation.tracking { db -> Int in
        // The replica may start before the writer's schema.
        if try !db.tableExists("txn") { return 0 }
        let last = try CrashWorkload.lastTransaction(db)
        // Whole transactions: the counter is the sum of their items.
        let total = try Int.fetchOne(db, sql: "SELECT total FROM counter") ?? 0
        let items = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0
        if total != items { fail("replica: counter \(total), \(items) items, at transaction \(last)") }
        return last
    }
    let seen = Seen()
    let cancellable = observation.start(
        in: replica, scheduling: .async(onQueue: DispatchQueue(label: "replica")),
        onError: { fail("replica observation: \($0)") },
        onChange: { last in
            if last < seen.swap(last) { fail("replica went back to transaction \(last)") }
            report("seen \(last)")
        })
    var txid = ""
    while true {
        let current = try replica.read { try String.fetchOne($0, sql: "PRAGMA litestream_txid") } ?? ""
        if current != txid {
            txid = current
            // Deferred: a transaction that writes nothing; its commit
            // tells the observation.
            try replica.inTransaction(.deferred) { db in
                try db.notifyChanges(in: .fullDatabase)
                return .commit
            }
        }
        usleep(10_000)
    }
    withExtendedLifetime(cancellable) {}
}

/// The last value the replica's observation saw.
private final class Seen: @unchecked Sendable {
    // @unchecked Sendable: `last` is only used under `lock`.
    private let lock = NSLock()
    private var last = 0

    func swap(_ value: Int) -> Int {
        lock.withLock {
            defer { last = value }
            return last
        }
    }
}

do {
    if command == "replica" { try followReplica() }
    if command == "write" && (mode == "pool" || mode == "litestream") { try writeThroughAPool() }
    if command == "allocations" { try AllocationCount.run(path: path) }
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration(mode))
    switch command {
    case "write" where mode == "shared":
        try dbQueue.write { try $0.execute(sql: CrashWorkload.schema) }
        while true {
            report("begin")
            let txn = try dbQueue.write { db in
                let txn = try CrashWorkload.lastTransaction(db) + 1
                try CrashWorkload.write(db, txn: txn)
                return txn
            }
            report("committed \(txn)")
        }
    case "write":
        try dbQueue.write { try $0.execute(sql: CrashWorkload.schema) }
        var txn = try dbQueue.read(CrashWorkload.lastTransaction)
        while true {
            txn += 1
            report("begin \(txn)")
            try dbQueue.write { try CrashWorkload.write($0, txn: txn) }
            report("committed \(txn)")
            switch mode {
            case "vacuum" where txn % 3 == 0:
                try dbQueue.vacuum()
            case "checkpoint":
                _ = try dbQueue.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            case "erase" where txn % 5 == 0:
                report("erase")
                try dbQueue.erase()
                report("erased")
                try dbQueue.write { try $0.execute(sql: CrashWorkload.schema) }
                txn = 0
            default:
                break
            }
        }
    case "verify":
        let migrations = try dbQueue.read(CrashMigrations.verify)
        let transactions = try dbQueue.read(CrashWorkload.verify)
        report("verified \(migrations) \(transactions)")
    case "migrate":
        let migrator = CrashMigrations.migrator
        var applied = try dbQueue.read(migrator.appliedMigrations).count
        while applied < CrashMigrations.count {
            applied += 1
            report("migrating \(applied)")
            try migrator.migrate(dbQueue, upTo: "m\(applied)")
            report("migrated \(applied)")
        }
        report("done")
    case "hold":
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (who TEXT NOT NULL)")
            try db.inTransaction(.immediate) {
                try db.execute(sql: "INSERT INTO t (who) VALUES ('child')")
                report("locked")
                _ = readLine()
                return .commit
            }
        }
        report("committed")
    case "hold-exclusive":
        try dbQueue.inDatabase { db in
            try db.inTransaction(.exclusive) {
                try db.execute(sql: "DELETE FROM t")
                report("locked")
                _ = readLine()
                return .rollback
            }
        }
        report("rolled back")
    default:
        fail("unknown command \(command)")
    }
} catch {
    fail("\(error)")
}
