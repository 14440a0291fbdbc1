/// The two tables a program may create, each with the record type that
/// stands for it in the interpreters.
public enum TableName: String, Sendable, Codable, CaseIterable {
    /// `Team`: a hand-written `FetchableRecord, PersistableRecord` (id, name, city).
    case team
    /// `Player`: a `Codable` `MutablePersistableRecord` (id, teamId, name, score, createdAt).
    case player

    /// The columns of the table, in order, as its record encodes them.
    public var columns: [String] {
        switch self {
        case .team: ["id", "name", "city"]
        case .player: ["id", "teamId", "name", "score", "createdAt"]
        }
    }
}

/// `Database.ColumnType`: the types a column may have.
public enum ColumnType: String, Sendable, Codable, CaseIterable {
    case integer, text, real, datetime, any
}

/// A foreign key's `ON DELETE` action.
public enum DeleteAction: String, Sendable, Codable, CaseIterable {
    case cascade, setNull, restrict
}

/// How a table declares its primary key.
public enum PrimaryKey: Sendable, Codable, Hashable {
    /// `t.autoIncrementedPrimaryKey("id")`.
    case autoIncremented
    /// `t.column("id", .integer).primaryKey()`.
    case integer
    /// `t.primaryKey(["id", column])`, a composite key.
    case composite(String)
}

/// A column's definition: `t.column(name, type)` and its constraints.
public struct ColumnSchema: Sendable, Codable, Hashable {
    public var name: String
    public var type: ColumnType?
    public var notNull = false
    public var unique = false
    public var defaultValue: Value?
    /// `.references("team", onDelete:)`.
    public var references: TableName?
    public var onDelete: DeleteAction?

    public init(name: String, type: ColumnType?) {
        self.name = name
        self.type = type
    }
}

/// `db.create(table:)`: the id column, then the others.
public struct TableSchema: Sendable, Codable, Hashable {
    public var name: TableName
    public var primaryKey: PrimaryKey
    /// The columns other than `id`.
    public var columns: [ColumnSchema]

    public init(name: TableName, primaryKey: PrimaryKey, columns: [ColumnSchema]) {
        self.name = name
        self.primaryKey = primaryKey
        self.columns = columns
    }
}

/// `db.create(index:on:columns:unique:)`.
public struct IndexSchema: Sendable, Codable, Hashable {
    public var name: String
    public var table: TableName
    public var columns: [String]
    public var unique: Bool

    public init(name: String, table: TableName, columns: [String], unique: Bool) {
        self.name = name
        self.table = table
        self.columns = columns
        self.unique = unique
    }
}

/// One migration: tables, then indexes.
public struct Migration: Sendable, Codable, Hashable {
    public var tables: [TableSchema]
    public var indexes: [IndexSchema]

    public init(tables: [TableSchema], indexes: [IndexSchema]) {
        self.tables = tables
        self.indexes = indexes
    }
}

/// The schema: 1–3 migrations, registered in a `DatabaseMigrator` or run
/// one after the other in `write`.
public struct Schema: Sendable, Codable, Hashable {
    public var migrations: [Migration]
    public var usesMigrator: Bool

    public init(migrations: [Migration], usesMigrator: Bool) {
        self.migrations = migrations
        self.usesMigrator = usesMigrator
    }
}
