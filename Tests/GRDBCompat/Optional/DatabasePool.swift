// Optional support of GRDB's base test class: compiled only when the
// library has `DatabasePool` (Scripts/grdb-compat.sh sets it aside, with
// the test files that call these makers, when it doesn't compile).

import GRDBLite

extension GRDBTestCase {
    /// A database pool opened with `dbConfiguration`.
    func makeDatabasePool(filename: String? = nil) throws -> DatabasePool {
        try makeDatabasePool(filename: filename, configuration: dbConfiguration)
    }

    /// A database pool, then `setup(_:)`.
    func makeDatabasePool(filename: String? = nil, configuration: Configuration) throws -> DatabasePool {
        let dbPool = try DatabasePool(path: makeDatabasePath(filename: filename), configuration: configuration)
        try setup(dbPool)
        return dbPool
    }
}
