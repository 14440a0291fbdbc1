import Foundation

/// A type that is tied to a database table.
///
/// ```swift
/// struct Player: TableRecord {
///     // Optional: the default is the type name with a lowercased first
///     // letter ("player").
///     static let databaseTableName = "player"
///
///     // Optional: columns for requests (`Player.filter { $0.score > 1000 }`).
///     enum Columns {
///         static let name = Column("name")
///         static let score = Column("score")
///     }
/// }
/// try Player.fetchCount(db)
/// try Player.deleteAll(db)
/// ```
public protocol TableRecord: SendableMetatype {
    /// The columns of the table, for requests written with closures:
    /// `Player.filter { $0.score > 1000 }`. Declare a nested `Columns` enum
    /// with static `Column` properties.
    associatedtype Columns = Never

    /// What the closures of requests receive; `Columns.Type` by default.
    associatedtype DatabaseComponents = Columns.Type

    /// The table name. Defaults to the type name with a lowercased first
    /// letter (`Player` → `player`, `HTTPRequest` → `httpRequest`).
    static var databaseTableName: String { get }

    /// The columns selected by requests. Defaults to all columns (`*`).
    static var databaseSelection: [any SQLSelectable] { get }

    /// The value given to the closures of requests.
    static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord {
    public static var databaseTableName: String {
        defaultDatabaseTableName
    }

    public static var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    /// The type name with a lowercased first letter, or a lowercased
    /// leading acronym (`URL` → `url`, `HTTPRequest` → `httpRequest`).
    /// `self`, not `Self`: the name of a subclass is its own.
    static var defaultDatabaseTableName: String {
        let key = ObjectIdentifier(self)
        if let name = defaultTableNames.withLock({ $0[key] }) { return name }
        var typeName = String(describing: self)
        if let genericStart = typeName.firstIndex(of: "<") {
            typeName = String(typeName[..<genericStart])
        }
        let capitals = typeName.prefix(while: \.isUppercase)
        let name: String
        switch capitals.count {
        case 0: name = typeName
        case 1: name = capitals.lowercased() + typeName.dropFirst()
        case typeName.count: name = typeName.lowercased()
        default: name = capitals.dropLast().lowercased() + typeName.dropFirst(capitals.count - 1)
        }
        defaultTableNames.withLock { $0[key] = name }
        return name
    }
}

private let defaultTableNames = Locked<[ObjectIdentifier: String]>([:])

extension TableRecord where DatabaseComponents == Columns.Type {
    public static var databaseComponents: DatabaseComponents { Columns.self }
}

extension TableRecord {
    // MARK: - Counting and deleting all

    /// The number of rows in the table.
    public static func fetchCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(databaseTableName.quotedDatabaseIdentifier)"))!
    }

    /// Deletes all rows; returns the number of deleted rows.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int {
        try db.changesCount(writing: databaseTableName) {
            try db.cachedStatement(sql: "DELETE FROM \(databaseTableName.quotedDatabaseIdentifier)").execute()
        }
    }

    /// Runs `DELETE FROM table WHERE condition`; returns the number of
    /// deleted rows.
    static func deleteAll(_ db: Database, where condition: some SQLExpressible) throws -> Int {
        let (sql, arguments) = try SQL(condition).build(db)
        return try db.changesCount(writing: databaseTableName) {
            try db.cachedStatement(sql: "DELETE FROM \(databaseTableName.quotedDatabaseIdentifier) WHERE \(sql)")
                .execute(arguments: arguments)
        }
    }

    /// Whether a row matches `condition`.
    static func exists(_ db: Database, where condition: some SQLExpressible) throws -> Bool {
        let (sql, arguments) = try SQL(condition).build(db)
        return try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS (SELECT * FROM \(databaseTableName.quotedDatabaseIdentifier) WHERE \(sql))"),
            arguments: arguments)!
    }

    // MARK: - Primary keys

    /// Whether a row has this primary key. A nil key matches no row: the
    /// database is not hit, as in GRDB.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        let key = key.databaseValue
        if key.isNull { return false }
        return try exists(db, where: RecordKeys.primaryKey(db, table: databaseTableName, values: [key]))
    }

    /// Deletes the row with this primary key; returns whether a row was
    /// deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try deleteAll(db, where: RecordKeys.primaryKey(db, table: databaseTableName, values: [key.databaseValue])) > 0
    }

    /// Deletes the rows with these primary keys; returns the number of
    /// deleted rows.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        if keys.isEmpty { return 0 }
        return try deleteAll(
            db, where: RecordKeys.primaryKey(db, table: databaseTableName, values: keys.map(\.databaseValue)))
    }

    // MARK: - Unique keys

    /// Whether a row matches this unique key: `["email": "a@example.com"]`.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try exists(db, where: RecordKeys.uniqueKeys(db, table: databaseTableName, keys: [key]))
    }

    /// Deletes the row with this unique key; returns whether a row was
    /// deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try deleteAll(db, where: RecordKeys.uniqueKeys(db, table: databaseTableName, keys: [key])) > 0
    }

    /// Deletes the rows with these unique keys; returns the number of
    /// deleted rows.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        return try deleteAll(db, where: RecordKeys.uniqueKeys(db, table: databaseTableName, keys: keys))
    }

    /// The error for a missing primary key.
    public static func recordNotFound(_ db: Database, key: some DatabaseValueConvertible) -> any Error {
        do {
            let primaryKey = try db.primaryKey(databaseTableName)
            return RecordError.recordNotFound(
                databaseTableName: databaseTableName,
                key: [primaryKey.columns.first ?? "rowid": key.databaseValue])
        } catch {
            return error
        }
    }

    /// The error for a missing unique key.
    public static func recordNotFound(key: [String: (any DatabaseValueConvertible)?]) -> RecordError {
        RecordError.recordNotFound(
            databaseTableName: databaseTableName,
            key: key.mapValues { $0?.databaseValue ?? .null })
    }
}

extension TableRecord where Self: EncodableRecord {
    /// The error for the missing row of this record:
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` with its
    /// primary key, or the error that prevented reading the key.
    public func recordNotFound(_ db: Database) -> any Error {
        do {
            return try PersistenceEngine(db, self).recordNotFound()
        } catch {
            return error
        }
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// Whether a row has this primary key.
    public static func exists(_ db: Database, id: ID) throws -> Bool {
        try exists(db, key: id)
    }

    /// Deletes the row with this primary key; returns whether a row was
    /// deleted.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool {
        try deleteOne(db, key: id)
    }

    /// Deletes the rows with these primary keys; returns the number of
    /// deleted rows.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }

    /// The error for a missing primary key.
    public static func recordNotFound(_ db: Database, id: ID) -> any Error {
        recordNotFound(db, key: id)
    }
}

/// An error of record methods.
public enum RecordError: Error, Sendable {
    /// No row matches the primary or unique key: thrown by `update`, `find`...
    case recordNotFound(databaseTableName: String, key: [String: DatabaseValue])
}

extension RecordError: CustomStringConvertible {
    /// `Key not found in table player: [id:1]`
    public var description: String {
        switch self {
        case let .recordNotFound(databaseTableName, key):
            let pairs = key.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
            return "Key not found in table \(databaseTableName): [\(pairs.joined(separator: " "))]"
        }
    }
}

/// The former name of ``RecordError``.
public typealias PersistenceError = RecordError
