extension Database {
    /// Whether a table exists in the main or temp schema (case-insensitive).
    /// Views are not tables, as in GRDB.
    public func tableExists(_ name: String) throws -> Bool {
        try Bool.fetchOne(self, sql: """
            SELECT EXISTS (
                SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE
                UNION ALL
                SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = ? COLLATE NOCASE)
            """, arguments: [name, name]) ?? false
    }

    /// The columns of a table, in order.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist.
    public func columns(in tableName: String) throws -> [ColumnInfo] {
        let key = "columns:\(tableName.lowercased())"
        if let columns = schemaCache[key] as? [ColumnInfo] { return columns }
        let columns = try Row.fetchAll(self, sql: "PRAGMA table_xinfo(\(tableName.quotedDatabaseIdentifier))")
            .filter { ($0["hidden"] as Int? ?? 0) != 1 } // hidden columns of virtual tables
            .map(ColumnInfo.init(row:))
        if columns.isEmpty {
            throw DatabaseError(message: "no such table: \(tableName)")
        }
        schemaCache[key] = columns
        return columns
    }

    /// The primary key of a table: explicit columns, or the rowid.
    ///
    /// - throws: A ``DatabaseError`` if the table does not exist.
    public func primaryKey(_ tableName: String) throws -> PrimaryKeyInfo {
        let key = "primaryKey:\(tableName.lowercased())"
        if let primaryKey = schemaCache[key] as? PrimaryKeyInfo { return primaryKey }
        let columns = try self.columns(in: tableName)
        let primaryKeyColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        let primaryKey: PrimaryKeyInfo
        switch primaryKeyColumns.count {
        case 0:
            primaryKey = .hiddenRowID
        case 1 where primaryKeyColumns[0].type.uppercased() == "INTEGER":
            primaryKey = PrimaryKeyInfo(columns: [primaryKeyColumns[0].name], rowIDColumn: primaryKeyColumns[0].name)
        default:
            primaryKey = PrimaryKeyInfo(columns: primaryKeyColumns.map(\.name), rowIDColumn: nil)
        }
        schemaCache[key] = primaryKey
        return primaryKey
    }

    /// Forgets cached schema information and cached statements. GRDBLite
    /// does it after each statement that changes the schema; call it after
    /// the schema was changed by another connection.
    public func clearSchemaCache() {
        schemaCache.removeAll()
        statementCache.removeAll()
    }
}

/// A column of a table, as `PRAGMA table_info` describes it.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The declared type (`"INTEGER"`, `"TEXT"`, or `""`).
    public let type: String
    /// Whether the column is NOT NULL.
    public let isNotNull: Bool
    /// The SQL of the default value, if any.
    public let defaultValueSQL: String?
    /// The position in the primary key (1-based), or 0.
    public let primaryKeyIndex: Int

    /// A column from a row of `PRAGMA table_info`.
    public init(row: Row) {
        name = row["name"]
        type = row["type"]
        isNotNull = row["notnull"]
        defaultValueSQL = row["dflt_value"]
        primaryKeyIndex = row["pk"]
    }
}

/// The primary key of a table.
public struct PrimaryKeyInfo: Sendable, Hashable {
    /// The primary key columns (`["rowid"]` for the hidden rowid).
    public let columns: [String]
    /// The column that is the rowid (an INTEGER PRIMARY KEY, or `rowid`),
    /// if any.
    public let rowIDColumn: String?

    /// Whether the primary key is the rowid (hidden or aliased).
    public var isRowID: Bool { rowIDColumn != nil }

    /// The hidden rowid of a table without explicit primary key.
    static let hiddenRowID = PrimaryKeyInfo(columns: ["rowid"], rowIDColumn: "rowid")

    init(columns: [String], rowIDColumn: String?) {
        self.columns = columns
        self.rowIDColumn = rowIDColumn
    }
}
