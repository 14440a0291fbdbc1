extension Database {
    /// Adds `region` to the region that the fetch of a ``ValueObservation``
    /// tracks; does nothing outside of such a fetch.
    ///
    /// It lets a ``ValueObservation/trackingConstantRegion(_:)``
    /// observation declare the regions it reads only sometimes:
    ///
    /// ```swift
    /// let observation = ValueObservation.trackingConstantRegion { db -> Int in
    ///     try db.registerAccess(to: Table("food"))
    ///     try db.registerAccess(to: Table("beverage"))
    ///     let table = try String.fetchOne(db, sql: "SELECT t FROM choice")!
    ///     return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!
    /// }
    /// ```
    public func registerAccess(to region: some DatabaseRegionConvertible) throws {
        preconditionValidAccess()
        guard let recorder = selectionRecorder as? RegionRecorder else { return }
        recorder.region.formUnion(try region.databaseRegion(self))
    }

    /// Runs `body` and returns its result, with the region that its
    /// read-only statements read, as SQLite's authorizer reports it.
    /// Nested recordings also record into the enclosing ones.
    func recordingSelection<T>(_ body: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let outer = selectionRecorder
        let recorder = RegionRecorder()
        selectionRecorder = recorder
        defer {
            selectionRecorder = outer
            (outer as? RegionRecorder)?.region.formUnion(recorder.region)
        }
        let value = try body()
        return (value, recorder.region)
    }
}

/// Accumulates the region that the statements of a fetch read.
final class RegionRecorder: StatementSelectionRecorder {
    var region = DatabaseRegion()

    func statementWillRead(_ statement: Statement) {
        guard !region.isFullDatabase else { return }
        // The full database if the statement did not compile again (out of
        // memory); a query interface request may narrow it to rows, or add
        // the associations it prefetches (`Statement.databaseRegion`).
        region.formUnion(statement.databaseRegion)
    }
}

extension DatabaseRegion {
    /// The region without what observers can't be told about: views,
    /// tables that don't exist, and SQLite's internal tables
    /// (`sqlite_master`, the `pragma_` table-valued functions).
    ///
    /// - parameter canonicalNames: Whether to rename tables as the schema
    ///   names them (regions recorded by the authorizer already do).
    func observableRegion(_ db: Database, canonicalNames: Bool) throws -> DatabaseRegion {
        try mapTables { table in
            if Database.isSQLiteInternalTable(table) { return nil }
            if canonicalNames {
                guard let (name, _) = try db.canonicalTable(table), !Database.isSQLiteInternalTable(name) else {
                    return nil
                }
                return name
            }
            return try db.tableExists(table) ? table : nil
        }
    }

    /// The union of the regions, in `db`.
    static func union(_ regions: [any DatabaseRegionConvertible], in db: Database) throws -> DatabaseRegion {
        try regions.reduce(into: DatabaseRegion()) { region, convertible in
            region.formUnion(try convertible.databaseRegion(db))
        }
    }
}
