import Dispatch
import SQLiteNIO

/// Vapor's SQLite stack, written as a Vapor app writes it: async/await on
/// one `SQLiteConnection` opened with its defaults (NIO's singleton thread
/// pool and event loop group). SQLiteNIO runs every statement on its
/// thread pool and hands each row to the connection's event loop, so a
/// statement costs thread hops on top of SQLite: that is the stack's
/// design, measured here as is.
///
/// SQLiteNIO links its own copy of SQLite (VaporCSQLite, SQLite 3.53 in
/// 1.13.2), opened serialized (`SQLITE_OPEN_FULLMUTEX`): see
/// ``sqliteInfo(fixture:)`` and the README.
///
/// The record workloads, through SQLKit, live in `VaporSide+Records.swift`.
enum VaporSide: BenchSide {
    static func sqliteInfo(fixture: Fixture) throws -> SQLiteInfo {
        let connection = try open(fixture.fetchPath)
        defer { try? close(connection) }
        let (version, options) = try awaitBlocking {
            let version = try await connection.query("SELECT sqlite_version() AS version").first?.column("version")?
                .string
            let options = try await connection.query("PRAGMA compile_options").compactMap {
                $0.columns.first?.data.string
            }
            return (version ?? "?", options)
        }
        return SQLiteInfo(
            version: version,
            library: "vendored in SQLiteNIO (VaporCSQLite)",
            threadsafe: threadsafeOption(options),
            connectionMode: "serialized",
            connectionModeSource: "SQLiteConnection opens with SQLITE_OPEN_FULLMUTEX (sqlite-nio's source)")
    }

    /// A connection opened as an app opens it, with NIO's singletons.
    static func open(_ path: String) throws -> SQLiteConnection {
        try awaitBlocking { try await SQLiteConnection.open(storage: .file(path: path)) }
    }

    static func close(_ connection: SQLiteConnection) throws {
        try awaitBlocking { try await connection.close() }
    }

    // MARK: - Fetch

    static func fetchByIndex(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                digest = try awaitBlocking {
                    var rows = Digest()
                    for row in try await connection.query(BenchSQL.select) {
                        let columns = row.columns
                        rows.add(try int(columns[0].data), try int(columns[1].data), try int(columns[2].data),
                                 try int(columns[3].data), try int(columns[4].data), try int(columns[5].data),
                                 try int(columns[6].data), try int(columns[7].data), try int(columns[8].data),
                                 try int(columns[9].data))
                    }
                    return rows
                }
            },
            fetched: { digest },
            api: "SQLiteNIO", runsOnOtherThreads: true,
            close: { try close(connection) })
    }

    static func fetchByName(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                digest = try awaitBlocking {
                    var rows = Digest()
                    for row in try await connection.query(BenchSQL.select) {
                        rows.add(try int(row.column("i0")), try int(row.column("i1")), try int(row.column("i2")),
                                 try int(row.column("i3")), try int(row.column("i4")), try int(row.column("i5")),
                                 try int(row.column("i6")), try int(row.column("i7")), try int(row.column("i8")),
                                 try int(row.column("i9")))
                    }
                    return rows
                }
            },
            fetched: { digest },
            api: "SQLiteNIO", runsOnOtherThreads: true,
            close: { try close(connection) })
    }

    /// An integer, or an error: a missing column or a NULL is a wrong result.
    @inline(__always)
    private static func int(_ data: SQLiteData?) throws -> Int {
        guard let value = data?.integer else {
            throw BenchError("SQLiteNIO: not an integer: \(String(describing: data))")
        }
        return value
    }

    // MARK: - Insert

    static func insertByIndex(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.insertPath)
        let count = fixture.insertRowCount
        return SideJob(
            run: {
                try awaitBlocking {
                    _ = try await connection.query("BEGIN")
                    for i in 0..<count {
                        let value = SQLiteData.integer(i)
                        _ = try await connection.query(
                            BenchSQL.insertPositional,
                            [value, value, value, value, value, value, value, value, value, value])
                    }
                    _ = try await connection.query("COMMIT")
                }
            },
            api: "SQLiteNIO", runsOnOtherThreads: true,
            close: { try close(connection) })
    }
}

/// Runs async code from the bench's synchronous code, and waits for it:
/// the bench thread blocks while the task runs on Swift's global executor,
/// as a Vapor route handler's task would.
func awaitBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            outcome.result = .success(try await body())
        } catch {
            outcome.result = .failure(error)
        }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

/// The result of a task, written by the task before it signals and read
/// after the wait: the semaphore orders the two accesses.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
