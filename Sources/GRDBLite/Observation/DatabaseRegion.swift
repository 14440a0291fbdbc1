/// A part of the database: the full database, or a union of tables, each
/// with all or some of its columns, and all or some of its rows.
///
/// Regions say which changes matter to an observer, and which changes
/// ``Database/notifyChanges(in:)`` notifies:
///
/// ```swift
/// try db.notifyChanges(in: DatabaseRegion.fullDatabase)
/// try db.notifyChanges(in: DatabaseRegion(table: "player"))
/// try db.notifyChanges(in: DatabaseRegion(table: "player", columns: ["score"]))
/// ```
///
/// Table and column names are case-insensitive.
public struct DatabaseRegion: Sendable {
    /// nil for the full database.
    private var tableRegions: [CaseInsensitiveIdentifier: TableRegion]?

    private init(tableRegions: [CaseInsensitiveIdentifier: TableRegion]?) {
        self.tableRegions = tableRegions
    }

    /// The full database: all rows and columns of all tables.
    public static let fullDatabase = DatabaseRegion(tableRegions: nil)

    /// The empty region.
    public init() {
        self.init(tableRegions: [:])
    }

    /// All rows and columns of a table.
    @_spi(GRDBLite) public init(table: String) {
        self.init(tableRegions: [CaseInsensitiveIdentifier(table): TableRegion(columns: nil, rowIDs: nil)])
    }

    /// Some columns of a table, in all rows.
    @_spi(GRDBLite) public init(table: String, columns: Set<String>) {
        let columns = Set(columns.map(CaseInsensitiveIdentifier.init))
        self.init(tableRegions: [CaseInsensitiveIdentifier(table): TableRegion(columns: columns, rowIDs: nil)])
    }

    /// Some rows of a table, with all their columns.
    init(table: String, rowIDs: Set<Int64>) {
        self.init(tableRegions: [CaseInsensitiveIdentifier(table): TableRegion(columns: nil, rowIDs: rowIDs)])
    }

    /// Whether the region is empty.
    public var isEmpty: Bool {
        tableRegions?.isEmpty ?? false
    }

    /// Whether the region is the full database.
    public var isFullDatabase: Bool {
        tableRegions == nil
    }

    /// The same region with each table renamed by `transform`, or left out
    /// when it returns nil. The full database stays the full database.
    func mapTables(_ transform: (String) throws -> String?) rethrows -> DatabaseRegion {
        guard let tableRegions else { return self }
        // Usually every table keeps its name: no new dictionary then.
        if try tableRegions.keys.allSatisfy({ try transform($0.rawValue) == $0.rawValue }) { return self }
        var result: [CaseInsensitiveIdentifier: TableRegion] = [:]
        for (table, tableRegion) in tableRegions {
            guard let name = try transform(table.rawValue) else { continue }
            let key = CaseInsensitiveIdentifier(name)
            result[key] = result[key].map { $0.union(tableRegion) } ?? tableRegion
        }
        return DatabaseRegion(tableRegions: result)
    }

    /// The same region, with only `rowIDs` in `table`; without the table
    /// when `rowIDs` is empty.
    func restrictingRows(ofTable table: String, to rowIDs: Set<Int64>) -> DatabaseRegion {
        guard var tableRegions else { return self }
        let key = CaseInsensitiveIdentifier(table)
        guard let tableRegion = tableRegions[key] else { return self }
        let restricted = tableRegion.intersection(TableRegion(columns: nil, rowIDs: rowIDs))
        tableRegions[key] = restricted.isEmpty ? nil : restricted
        return DatabaseRegion(tableRegions: tableRegions)
    }

    /// The union of this region and another.
    public func union(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let tableRegions, let otherTableRegions = other.tableRegions else { return .fullDatabase }
        if tableRegions.isEmpty { return other }
        if otherTableRegions.isEmpty { return self }
        return DatabaseRegion(tableRegions: tableRegions.merging(otherTableRegions) { $0.union($1) })
    }

    /// Adds another region to this region.
    public mutating func formUnion(_ other: DatabaseRegion) {
        self = union(other)
    }

    /// The intersection of this region and another.
    func intersection(_ other: DatabaseRegion) -> DatabaseRegion {
        guard let tableRegions else { return other }
        guard let otherTableRegions = other.tableRegions else { return self }
        var result: [CaseInsensitiveIdentifier: TableRegion] = [:]
        for (table, tableRegion) in tableRegions {
            guard let otherTableRegion = otherTableRegions[table] else { continue }
            let intersection = tableRegion.intersection(otherTableRegion)
            if !intersection.isEmpty { result[table] = intersection }
        }
        return DatabaseRegion(tableRegions: result)
    }

    /// Whether changes of this kind can modify the region.
    public func isModified(byEventsOfKind eventKind: DatabaseEventKind) -> Bool {
        // `!intersection(eventKind.modifiedRegion).isEmpty`, without
        // building regions: observers ask it for each statement.
        guard let tableRegions else { return true }
        guard let tableRegion = Self.region(ofTable: eventKind.tableName, in: tableRegions),
              tableRegion.rowIDs?.isEmpty != true
        else { return false }
        switch eventKind {
        case .insert, .delete:
            return tableRegion.columns?.isEmpty != true
        case .update(_, let columnNames):
            guard let columns = tableRegion.columns else { return !columnNames.isEmpty }
            return columnNames.contains { columns.contains(CaseInsensitiveIdentifier($0)) }
        }
    }

    /// Whether this change modifies the region, for an event whose kind
    /// ``isModified(byEventsOfKind:)`` accepted.
    public func isModified(by event: DatabaseEvent) -> Bool {
        guard let tableRegions else { return true }
        guard let tableRegion = Self.region(ofTable: event.tableName, in: tableRegions) else {
            // A change SQLite did not announce when the statement compiled
            // (the shadow tables of FTS virtual tables): assume it matters.
            return true
        }
        return tableRegion.rowIDs?.contains(event.rowID) ?? true
    }

    /// The region of a table. Regions of a few tables are scanned: a
    /// comparison of names costs less than hashing one (observers ask for
    /// each statement and each changed row).
    private static func region(
        ofTable table: String,
        in tableRegions: [CaseInsensitiveIdentifier: TableRegion]) -> TableRegion?
    {
        if tableRegions.count > 4 { return tableRegions[CaseInsensitiveIdentifier(table)] }
        for (name, region) in tableRegions where name.matches(table) { return region }
        return nil
    }

    /// The kinds of changes that modify the region, in the tables that
    /// exist, with the actual names of tables and columns. The full
    /// database does not include `sqlite_master`: name it explicitly.
    func impactfulEventKinds(_ db: Database) throws -> [DatabaseEventKind] {
        var tables: [(name: String, columns: Set<String>)] = []
        if let tableRegions {
            for (table, tableRegion) in tableRegions.sorted(by: { $0.key < $1.key }) {
                guard let (name, schema) = try db.canonicalTable(table.rawValue) else { continue }
                var columns = try db.columnNames(ofTable: name, schema: schema)
                if let regionColumns = tableRegion.columns {
                    // Actual names, as the authorizer reports them.
                    columns = columns.filter { regionColumns.contains(CaseInsensitiveIdentifier($0)) }
                }
                tables.append((name, columns))
            }
        } else {
            tables = try db.observableTables()
        }
        return tables.flatMap { table in
            [
                DatabaseEventKind.delete(tableName: table.name),
                DatabaseEventKind.insert(tableName: table.name),
                DatabaseEventKind.update(tableName: table.name, columnNames: table.columns),
            ]
        }
    }
}

extension DatabaseRegion {
    /// The tables and columns that the authorizer reports. A table
    /// reported under two spellings (`foo` and `FOO`) keeps the first, as
    /// in GRDB: a dictionary keeps the key it was first given.
    init(selectedColumns: [StatementAuthorizer.SelectedColumn]) {
        var tableRegions: [CaseInsensitiveIdentifier: TableRegion] = [:]
        for selected in selectedColumns {
            let table = CaseInsensitiveIdentifier(selected.table)
            if selected.column.isEmpty {
                // The whole table (`COUNT(*)`).
                tableRegions[table] = TableRegion(columns: nil, rowIDs: nil)
            } else {
                tableRegions[table, default: TableRegion(columns: [], rowIDs: nil)]
                    .columns?.insert(CaseInsensitiveIdentifier(selected.column))
            }
        }
        self.init(tableRegions: tableRegions)
    }
}

extension DatabaseRegion: Equatable {
    /// Two regions are equal when they hold the same tables, columns and
    /// rows (table names compared case-insensitively).
    public static func == (lhs: DatabaseRegion, rhs: DatabaseRegion) -> Bool {
        lhs.tableRegions == rhs.tableRegions
    }
}

extension DatabaseRegion: CustomStringConvertible {
    /// For example `player(*),team(id,name)[1,2]`.
    public var description: String {
        guard let tableRegions else { return "full database" }
        if tableRegions.isEmpty { return "empty" }
        return tableRegions
            .sorted { $0.key < $1.key }
            .map { table, tableRegion in
                var description = table.rawValue
                if let columns = tableRegion.columns {
                    description += "(" + columns.map(\.rawValue).sorted().joined(separator: ",") + ")"
                } else {
                    description += "(*)"
                }
                if let rowIDs = tableRegion.rowIDs {
                    description += "[" + rowIDs.sorted().map(String.init).joined(separator: ",") + "]"
                }
                return description
            }
            .joined(separator: ",")
    }
}

/// The part of a table in a region: nil means all columns, or all rows.
private struct TableRegion: Equatable, Sendable {
    var columns: Set<CaseInsensitiveIdentifier>?
    var rowIDs: Set<Int64>?

    var isEmpty: Bool {
        columns?.isEmpty == true || rowIDs?.isEmpty == true
    }

    func intersection(_ other: TableRegion) -> TableRegion {
        TableRegion(
            columns: Self.intersect(columns, other.columns),
            rowIDs: Self.intersect(rowIDs, other.rowIDs))
    }

    func union(_ other: TableRegion) -> TableRegion {
        TableRegion(
            columns: Self.unite(columns, other.columns),
            rowIDs: Self.unite(rowIDs, other.rowIDs))
    }

    /// nil is the set of all values.
    private static func intersect<T>(_ lhs: Set<T>?, _ rhs: Set<T>?) -> Set<T>? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return lhs.intersection(rhs)
    }

    private static func unite<T>(_ lhs: Set<T>?, _ rhs: Set<T>?) -> Set<T>? {
        guard let lhs, let rhs else { return nil }
        return lhs.union(rhs)
    }
}

// MARK: - DatabaseRegionConvertible

/// A type that designates a ``DatabaseRegion``: a region itself, and (from
/// the query interface) tables and requests.
public protocol DatabaseRegionConvertible: Sendable {
    /// The designated region.
    func databaseRegion(_ db: Database) throws -> DatabaseRegion
}

extension DatabaseRegionConvertible where Self == DatabaseRegion {
    /// The full database, as in `try db.notifyChanges(in: .fullDatabase)`.
    public static var fullDatabase: DatabaseRegion { DatabaseRegion.fullDatabase }
}

extension DatabaseRegion: DatabaseRegionConvertible {
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion { self }
}

/// A type-erased ``DatabaseRegionConvertible``.
public struct AnyDatabaseRegionConvertible: DatabaseRegionConvertible {
    private let region: @Sendable (Database) throws -> DatabaseRegion

    /// A region computed by a function.
    public init(_ region: @escaping @Sendable (Database) throws -> DatabaseRegion) {
        self.region = region
    }

    /// The region of another value.
    public init(_ region: some DatabaseRegionConvertible) {
        self.region = { try region.databaseRegion($0) }
    }

    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try region(db)
    }
}
