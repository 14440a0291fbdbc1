#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram
import Foundation
import Synchronization

extension Interpreter {
    /// A read of `pool` that fetches `query`, then waits while the writer
    /// runs `writes` in a transaction, then fetches again; then a new read fetches. Returns
    /// what each fetch saw. Every wait times out (`timeout` in the result).
    func racingRead(_ query: Query, writes: [Step], path: String, _ pool: DatabasePool) -> String {
        let opened = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let seen = SeenLines()
        DispatchQueue.global().async {
            do {
                try pool.read { db in
                    seen.append("before: " + Self.fetch(query, db))
                    opened.signal()
                    let waited = written.wait(timeout: .now() + 10)
                    seen.append(waited == .timedOut ? "during: timeout" : "during: " + Self.fetch(query, db))
                }
            } catch {
                seen.append("read: \(Canonical.text(error))")
                opened.signal()
            }
            done.signal()
        }
        guard opened.wait(timeout: .now() + 10) == .success else { return "timeout before the writes" }
        let wrote = Result {
            // One transaction, as `transaction` steps (each error caught).
            try pool.writeWithoutTransaction { db in
                try db.inTransaction {
                    try runBlock(writes, path: path, db, catches: true)
                    return .commit
                }
            }
        }
        written.signal()
        guard done.wait(timeout: .now() + 10) == .success else { return "timeout after the writes" }
        var lines = seen.lines.withLock { $0 }
        if case .failure(let error) = wrote { lines.append("write: \(Canonical.text(error))") }
        do {
            try lines.append("after: " + pool.read { db in Self.fetch(query, db) })
        } catch {
            lines.append("after read: \(Canonical.text(error))")
        }
        return lines.joined(separator: "\n")
    }

    /// The query's result, or its error, as text.
    static func fetch(_ query: Query, _ db: Database) -> String {
        do {
            return try Requests.fetch(query, db)
        } catch {
            return "error: \(Canonical.text(error))"
        }
    }
}

/// What the racing read's fetches saw, from its thread.
final class SeenLines: Sendable {
    let lines = Mutex<[String]>([])

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}
