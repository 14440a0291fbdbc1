// The child process of GRDBLite's crash and multi-process tests
// (Tests/Reliability). Not a user tool.
//
//     grdblite-crash-writer write PATH rollback|wal
//         Commits CrashWorkload transactions in a loop, forever, and prints
//         "committed N" on stdout after each `write` returns. The test kills
//         it with SIGKILL.
//     grdblite-crash-writer hold PATH rollback|wal
//         Opens an IMMEDIATE transaction that inserts a row in `t`, prints
//         "locked", waits for a line on stdin, commits, prints "committed".
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
    case "wal": config.journalMode = .wal
    case "rollback": config.journalMode = .default
    default: fail("unknown journal mode \(mode)")
    }
    return config
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    fail("usage: grdblite-crash-writer write|hold PATH rollback|wal")
}
let (command, path, mode) = (arguments[1], arguments[2], arguments[3])

do {
    let dbQueue = try DatabaseQueue(path: path, configuration: configuration(mode))
    switch command {
    case "write":
        try dbQueue.write { try $0.execute(sql: CrashWorkload.schema) }
        var txn = try dbQueue.read(CrashWorkload.lastTransaction)
        while true {
            txn += 1
            try dbQueue.write { try CrashWorkload.write($0, txn: txn) }
            report("committed \(txn)")
        }
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
    default:
        fail("unknown command \(command)")
    }
} catch {
    fail("\(error)")
}
