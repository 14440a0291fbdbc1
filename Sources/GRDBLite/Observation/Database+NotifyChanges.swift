extension Database {
    /// Tells transaction observers about changes SQLite does not report
    /// (see ``TransactionObserver``): changes made by another connection or
    /// process, through the SQLite C API, to `WITHOUT ROWID` tables, or to
    /// the schema. Each observer that observes one kind of change in the
    /// region gets ``TransactionObserver/databaseDidChange()``.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.notifyChanges(in: .fullDatabase)
    ///     try db.notifyChanges(in: DatabaseRegion(table: "player"))
    ///     // A schema change:
    ///     try db.notifyChanges(in: DatabaseRegion(table: "sqlite_master"))
    /// }
    /// ```
    ///
    /// Rowids in the region are ignored: the whole table is notified. Tables
    /// that don't exist, and views, are ignored. It has no effect in a
    /// read-only access, whose transaction observers are not told about.
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        preconditionValidAccess()
        guard !isReadOnly, let broker = observationBroker else { return }
        let eventKinds = try region.databaseRegion(self).impactfulEventKinds(self)
        broker.notifyChanges(withEventsOfKind: eventKinds)
    }

    // MARK: - Tables of a region

    /// The actual name and schema of a table, or nil if there is no such
    /// table (views included).
    func canonicalTable(_ name: String) throws -> (name: String, schema: String)? {
        for (schema, master) in [("main", "sqlite_master"), ("temp", "sqlite_temp_master")] {
            // SQLite lists the temp schema once it is created (reading
            // sqlite_temp_master creates it).
            if schema == "temp",
                try !Row.fetchAll(self, sql: "PRAGMA database_list").contains(where: { $0[1] == "temp" })
            {
                return nil
            }
            if let name = try String.fetchOne(self, sql: """
                SELECT name FROM \(master) WHERE type = 'table' AND name = ? COLLATE NOCASE
                """, arguments: [name])
            {
                return (name, schema)
            }
            if CaseInsensitiveIdentifier(name) == CaseInsensitiveIdentifier(master) {
                return (master, schema)
            }
        }
        return nil
    }

    /// The column names of a table.
    func columnNames(ofTable table: String, schema: String) throws -> Set<String> {
        try Set(String.fetchAll(self, sql: "SELECT name FROM pragma_table_info(?, ?)", arguments: [table, schema]))
    }

    /// The tables of the main and temp schemas, with their columns.
    func observableTables() throws -> [(name: String, columns: Set<String>)] {
        var tables: [(name: String, columns: Set<String>)] = []
        for (schema, master) in [("main", "sqlite_master"), ("temp", "sqlite_temp_master")] {
            let rows = try Row.fetchAll(self, sql: """
                SELECT m.name, p.name FROM \(master) AS m JOIN pragma_table_info(m.name, ?) AS p
                WHERE m.type = 'table' ORDER BY m.name
                """, arguments: [schema])
            for row in rows {
                let table: String = row[0]
                let column: String = row[1]
                if tables.last?.name == table {
                    tables[tables.count - 1].columns.insert(column)
                } else {
                    tables.append((table, [column]))
                }
            }
        }
        return tables
    }
}
