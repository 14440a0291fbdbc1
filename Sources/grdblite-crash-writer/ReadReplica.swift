import CSQLite
import GRDBLite

/// Loads an SQLite extension into the process, as a user of GRDBLite does
/// for the Litestream VFS (see BeyondOneMachine.md): through a connection
/// of its own, since a VFS, once registered, serves every connection.
enum ReadReplica {
    static func loadExtension(_ path: String) throws {
        let loader = try DatabaseQueue()
        try loader.inDatabase { db in
            sqlite3_enable_load_extension(db.sqliteConnection, 1)
            var message: UnsafeMutablePointer<CChar>?
            let code = sqlite3_load_extension(db.sqliteConnection, path, nil, &message)
            defer { sqlite3_free(message) }
            guard code == SQLITE_OK else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: message.map { String(cString: $0) } ?? "cannot load \(path)")
            }
        }
    }
}
