extension Database {
    // MARK: - Schema objects

    /// Whether a table exists, in any schema or in `schemaName` (`"main"`,
    /// `"temp"`, or an attached database). Names are case-insensitive.
    /// Views are not tables: see ``viewExists(_:in:)``.
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        guard schemaName == nil else { return try objectExists(type: "table", name: name, in: schemaName) }
        let cache = cache(SchemaCache.self)
        if cache.existingTables.contains(where: { $0.matches(name) }) { return true }
        guard try objectExists(type: "table", name: name, in: nil) else { return false }
        if cache.existingTables.count < 32 { cache.existingTables.append(CaseInsensitiveIdentifier(name)) }
        return true
    }

    /// Whether a view exists, in any schema or in `schemaName`.
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(type: "view", name: name, in: schemaName)
    }

    /// Whether a trigger exists, in any schema or in `schemaName`.
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(type: "trigger", name: name, in: schemaName)
    }

    /// Whether a table is an SQLite internal table (`sqlite_sequence`...).
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.hasPrefix("sqlite_") || tableName.hasPrefix("pragma_")
    }

    /// Whether a table is a GRDB internal table (`grdb_migrations`...).
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.hasPrefix("grdb_")
    }

    /// The schema version, which SQLite increments on each schema change.
    public func schemaVersion() throws -> Int32 {
        try Int32.fetchOne(self, sql: "PRAGMA schema_version")!
    }

    /// Forgets cached schema information. GRDBLite does it after each
    /// statement that changes the schema; call it after the schema was
    /// changed by another connection.
    public func clearSchemaCache() {
        dropCachesAfterSchemaChange()
    }

    // MARK: - Columns and keys

    /// The columns of a table or view, in order.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist.
    public func columns(in tableName: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        try cachedSchemaInfo(\.columns, tableName, schemaName) {
            try checkSchemaExists(schemaName)
            let columns = try Row.fetchAll(
                self, sql: "PRAGMA \(schemaPrefix(schemaName))table_xinfo(\(tableName.quotedDatabaseIdentifier))"
            )
                .filter { ($0["hidden"] as Int? ?? 0) != 1 } // hidden columns of virtual tables
                .map(ColumnInfo.init(row:))
            if columns.isEmpty {
                throw DatabaseError.noSuchTable(tableName)
            }
            return columns
        }
    }

    /// The primary key of a table: the hidden rowid, an `INTEGER PRIMARY
    /// KEY`, or other columns. A view has the primary key its
    /// ``Database/schemaSource`` gives it, if any.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist, or is
    ///   a view without primary key.
    public func primaryKey(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        if let primaryKey = try primaryKeyIfAny(tableName, in: schemaName) {
            return primaryKey
        }
        throw DatabaseError(message: "database view \(tableName) has no primary key")
    }

    /// The primary key of a table or view, nil for a view without one.
    ///
    /// - throws: A ``DatabaseError`` if no such table or view exists.
    func primaryKeyIfAny(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo? {
        try cachedSchemaInfo(\.primaryKeys, tableName, schemaName) { () -> PrimaryKeyInfo? in
            guard try tableExists(tableName, in: schemaName) else {
                guard let viewSchema = try schemaContaining(type: "view", name: tableName, in: schemaName) else {
                    throw DatabaseError.noSuchTable(tableName)
                }
                let view = DatabaseObjectID(name: tableName, schemaID: DatabaseSchemaID(name: viewSchema))
                guard let columns = try schemaSource?.columnsForPrimaryKey(self, inView: view), !columns.isEmpty else {
                    return nil
                }
                return try viewPrimaryKey(view, columns: columns)
            }
            let columns = try self.columns(in: tableName, in: schemaName)
                .filter { $0.primaryKeyIndex > 0 }
                .sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
            if columns.isEmpty {
                return .hiddenRowID
            }
            // A single INTEGER primary key is an alias for the rowid.
            // (SQLite makes an exception for `INTEGER PRIMARY KEY DESC`,
            // ignored here as in GRDB.)
            if columns.count == 1 && CaseInsensitiveIdentifier(columns[0].type) == CaseInsensitiveIdentifier("INTEGER")
            {
                return .rowID(columns[0])
            }
            return try .regular(columns, tableHasRowID: tableHasRowID(tableName, in: schemaName))
        }
    }

    /// The primary key a schema source gives to a view.
    private func viewPrimaryKey(_ view: DatabaseObjectID, columns: [String]) throws -> PrimaryKeyInfo {
        let viewColumns = try self.columns(in: view.name, in: view.schemaID.name)
        let keyColumns = try columns.enumerated().map { index, name in
            guard
                let column = viewColumns.first(where: {
                    CaseInsensitiveIdentifier($0.name) == CaseInsensitiveIdentifier(name)
                })
            else {
                throw DatabaseError(
                    message:
                        "no such column in view \(view.name): \(name) (given by the schema source as a primary key column)"
                )
            }
            return column.withPrimaryKeyIndex(index + 1)
        }
        return .regular(keyColumns, tableHasRowID: false)
    }

    /// Whether the table is not a WITHOUT ROWID table.
    private func tableHasRowID(_ tableName: String, in schemaName: String?) throws -> Bool {
        let rows = try Row.fetchAll(
            self, sql: "PRAGMA \(schemaPrefix(schemaName))table_list(\(tableName.quotedDatabaseIdentifier))")
        // The temp schema shadows the others.
        let row = rows.first { $0.schemaText("schema") == "temp" } ?? rows.first
        return !(row?["wr"] as Bool? ?? false)
    }

    /// The foreign keys of a table.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist.
    public func foreignKeys(on tableName: String, in schemaName: String? = nil) throws -> [ForeignKeyInfo] {
        try cachedSchemaInfo(\.foreignKeys, tableName, schemaName) {
            try checkSchemaExists(schemaName)
            // Rows: id, seq, table, from, to, ...; one row per column.
            let rows = try Row.fetchAll(
                self, sql: "PRAGMA \(schemaPrefix(schemaName))foreign_key_list(\(tableName.quotedDatabaseIdentifier))")
            if rows.isEmpty, try !tableExists(tableName, in: schemaName) {
                throw DatabaseError.noSuchTable(tableName)
            }
            var foreignKeys: [ForeignKeyInfo] = []
            var index = rows.startIndex
            while index < rows.endIndex {
                let id: Int = rows[index]["id"]
                let group = rows[index...].prefix { ($0["id"] as Int) == id }.sorted {
                    ($0["seq"] as Int) < ($1["seq"] as Int)
                }
                index += group.count
                let destinationTable = group[0].schemaText("table") ?? ""
                let origins = group.map { $0.schemaText("from") ?? "" }
                var destinations = group.map { $0.schemaText("to") }
                if destinations.contains(nil) {
                    // `REFERENCES parent` refers to the primary key of parent.
                    destinations = try primaryKey(destinationTable).columns
                }
                foreignKeys.append(ForeignKeyInfo(
                    id: id,
                    destinationTable: destinationTable,
                    mapping: zip(origins, destinations).map { ($0, $1!) }))
            }
            return foreignKeys
        }
    }

    /// The indexes of a table, except indexes on expressions.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist.
    public func indexes(on tableName: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        try cachedSchemaInfo(\.indexes, tableName, schemaName) {
            try checkSchemaExists(schemaName)
            let prefix = schemaPrefix(schemaName)
            let rows = try Row.fetchAll(self, sql: "PRAGMA \(prefix)index_list(\(tableName.quotedDatabaseIdentifier))")
            if rows.isEmpty, try !tableExists(tableName, in: schemaName) {
                throw DatabaseError.noSuchTable(tableName)
            }
            return try rows.compactMap { row -> IndexInfo? in
                let name = row.schemaText("name") ?? ""
                let columns = try Row.fetchAll(
                    self, sql: "PRAGMA \(prefix)index_info(\(name.quotedDatabaseIdentifier))"
                )
                    .sorted { ($0["seqno"] as Int) < ($1["seqno"] as Int) }
                    .map { $0.schemaText("name") }
                // An expression has no column name.
                guard !columns.contains(nil) else { return nil }
                return IndexInfo(
                    name: name,
                    columns: columns.map { $0! },
                    isUnique: row["unique"],
                    origin: IndexInfo.Origin(rawValue: row["origin"]))
            }
        }
    }

    /// Whether the columns (in any order) contain a unique key: the
    /// primary key, or the columns of a unique index.
    ///
    /// ```swift
    /// // CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c, UNIQUE(a, b))
    /// try db.table("t", hasUniqueKey: ["id"])      // true
    /// try db.table("t", hasUniqueKey: ["b", "a"])  // true
    /// try db.table("t", hasUniqueKey: ["a", "c"])  // false
    /// ```
    ///
    /// A view has no unique key, unless the schema source gives it a
    /// primary key.
    public func table(_ tableName: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        let columns = Set(columns.map(CaseInsensitiveIdentifier.init))
        if columns.isEmpty { return false }
        guard let primaryKey = try primaryKeyIfAny(tableName) else {
            return false // a view without primary key
        }
        if primaryKey.tableHasRowID && columns.contains(CaseInsensitiveIdentifier("rowid")) {
            return true
        }
        if Set(primaryKey.columns.map(CaseInsensitiveIdentifier.init)).isSubset(of: columns) {
            return true
        }
        guard try tableExists(tableName) else {
            return false // a view has no index
        }
        return try indexes(on: tableName).contains { index in
            index.isUnique && Set(index.columns.map(CaseInsensitiveIdentifier.init)).isSubset(of: columns)
        }
    }

    // MARK: - Foreign key checks

    /// The rows that break a foreign key, in all tables.
    ///
    /// Foreign keys are not checked when `PRAGMA foreign_keys` is off
    /// (during a migration with deferred checks, for example): this finds
    /// what they would have refused.
    public func foreignKeyViolations() throws -> MapCursor<RowCursor, ForeignKeyViolation> {
        try Row.fetchCursor(self, sql: "PRAGMA foreign_key_check").map(ForeignKeyViolation.init(row:))
    }

    /// The rows of a table that break a foreign key.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist.
    public func foreignKeyViolations(
        in tableName: String,
        in schemaName: String? = nil) throws -> MapCursor<RowCursor, ForeignKeyViolation>
    {
        guard try tableExists(tableName, in: schemaName) else {
            throw DatabaseError.noSuchTable(tableName)
        }
        return try Row.fetchCursor(
            self,
            sql: "PRAGMA \(schemaPrefix(schemaName))foreign_key_check(\(tableName.quotedDatabaseIdentifier))")
            .map(ForeignKeyViolation.init(row:))
    }

    /// Throws the first foreign key violation, if any, as a
    /// ``DatabaseError`` with code `SQLITE_CONSTRAINT_FOREIGNKEY` and a
    /// message that describes it.
    public func checkForeignKeys() throws {
        if let violation = try foreignKeyViolations().next() {
            throw violation.databaseError(self)
        }
    }

    /// Throws the first foreign key violation in a table, if any.
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        if let violation = try foreignKeyViolations(in: tableName, in: schemaName).next() {
            throw violation.databaseError(self)
        }
    }

    // MARK: - Support

    /// `"schema".`, or nothing.
    private func schemaPrefix(_ schemaName: String?) -> String {
        schemaName.map { $0.quotedDatabaseIdentifier + "." } ?? ""
    }

    /// Information about a table, cached until the schema changes.
    private func cachedSchemaInfo<T>(
        _ entries: ReferenceWritableKeyPath<SchemaCache, [SchemaCache.TableKey: T]>,
        _ tableName: String,
        _ schemaName: String?,
        fetch: () throws -> T) throws -> T
    {
        let key = SchemaCache.TableKey(
            schema: schemaName.map(CaseInsensitiveIdentifier.init), table: CaseInsensitiveIdentifier(tableName))
        if let value = cache(SchemaCache.self)[keyPath: entries][key] { return value }
        let value = try fetch()
        // `fetch` may have dropped the cache (a rollback): store in the current one.
        cache(SchemaCache.self)[keyPath: entries][key] = value
        return value
    }

    /// The schemas that hold tables, temp first since it shadows the others.
    private func schemaNames() throws -> [String] {
        if let names = cache(SchemaCache.self).schemaNames { return names }
        let attached = try Row.fetchAll(self, sql: "PRAGMA database_list")
            .map { $0.schemaText("name") ?? "" }
            .filter { $0 != "main" && $0 != "temp" }
        let names = ["temp", "main"] + attached
        cache(SchemaCache.self).schemaNames = names
        return names
    }

    /// Whether an object of the type (`table`, `view`, `trigger`, `index`)
    /// exists in a schema (in any if nil).
    private func objectExists(type: String, name: String, in schemaName: String?) throws -> Bool {
        try schemaContaining(type: type, name: name, in: schemaName) != nil
    }

    /// The first schema, in SQLite's resolution order, that contains an
    /// object of the type (`table`, `view`, `trigger`, `index`); only
    /// `schemaName` if it is not nil.
    private func schemaContaining(type: String, name: String, in schemaName: String?) throws -> String? {
        let searched = try schemaName.map { try [existingSchemaName($0)] } ?? schemaNames()
        let object = SchemaCache.SchemaObject(type: type, name: CaseInsensitiveIdentifier(name))
        return try searched.first { schemaName in
            try schemaObjects(schemaName).contains(object)
        }
    }

    /// Throws "no such schema" unless the schema is nil or exists.
    private func checkSchemaExists(_ schemaName: String?) throws {
        if let schemaName { _ = try existingSchemaName(schemaName) }
    }

    /// The name of an existing schema, as `schemaNames()` spells it, or
    /// a "no such schema" error.
    private func existingSchemaName(_ schemaName: String) throws -> String {
        guard let match = try schemaNames().first(where: CaseInsensitiveIdentifier(schemaName).matches) else {
            throw DatabaseError(message: "no such schema: \(schemaName)")
        }
        return match
    }

    /// The objects of a schema, from its `sqlite_master` table.
    private func schemaObjects(_ schemaName: String) throws -> Set<SchemaCache.SchemaObject> {
        if let objects = cache(SchemaCache.self).schemaObjects[schemaName] { return objects }
        let master =
            schemaName == "temp" ? "sqlite_temp_master" : "\(schemaName.quotedDatabaseIdentifier).sqlite_master"
        // Read as `schemaText`: a damaged file may hold bytes or NULL there.
        let objects = try Set(Row.fetchAll(self, sql: "SELECT type, name FROM \(master)").map {
            SchemaCache.SchemaObject(
                type: $0.schemaText("type") ?? "", name: CaseInsensitiveIdentifier($0.schemaText("name") ?? ""))
        })
        cache(SchemaCache.self).schemaObjects[schemaName] = objects
        return objects
    }
}

extension DatabaseError {
    /// `no such table: <name>`, with code `SQLITE_ERROR`.
    static func noSuchTable(_ tableName: String) -> DatabaseError {
        DatabaseError(message: "no such table: \(tableName)")
    }
}

extension Row {
    /// A name or an SQL text of SQLite's schema pragmas, nil for NULL.
    /// A damaged file can hold text that is not valid UTF-8, which rows
    /// hold as bytes: it is read repaired (invalid bytes become U+FFFD),
    /// as GRDB reads all text, instead of trapping as a `String` subscript
    /// does. A repaired name names no table: using it throws.
    func schemaText(_ column: String) -> String? {
        switch (self[column] as DatabaseValue).storage {
        case .string(let text): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        case .int64(let value): String(value)
        case .double(let value): String(value)
        case .null: nil
        }
    }
}
