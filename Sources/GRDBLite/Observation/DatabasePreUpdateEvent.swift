import CSQLite

/// A row about to be inserted, updated or deleted, with its values before
/// and after the change, given to
/// ``TransactionObserver/databaseWillChange(with:)``.
///
/// It comes from SQLite's pre-update hook (`SQLITE_ENABLE_PREUPDATE_HOOK`,
/// enabled in Debian's SQLite). An event is only valid during the call: keep
/// a copy if you need it later.
///
/// ```swift
/// func databaseWillChange(with event: DatabasePreUpdateEvent) {
///     // [1, "Arthur"] -> [1, "Barbara"]
///     print(event.initialDatabaseValues, event.finalDatabaseValues)
/// }
/// ```
public struct DatabasePreUpdateEvent {
    /// The kind of change, with SQLite's codes as raw values.
    public enum Kind: CInt, Sendable {
        /// A row about to be inserted (`SQLITE_INSERT`).
        case insert = 18
        /// A row about to be deleted (`SQLITE_DELETE`).
        case delete = 9
        /// A row about to be updated (`SQLITE_UPDATE`).
        case update = 23
    }

    /// What is read from SQLite while the event is live, copied otherwise.
    enum Storage {
        case live(connection: SQLiteConnection, database: UnsafePointer<CChar>, table: UnsafePointer<CChar>)
        case copied(database: String, table: String, count: Int, depth: CInt,
                    initialValues: [DatabaseValue]?, finalValues: [DatabaseValue]?)
    }

    /// The kind of change.
    public let kind: Kind
    /// The rowid of the row before an update or a delete; nil for an insert.
    public let initialRowID: Int64?
    /// The rowid of the row after an insert or an update; nil for a delete.
    public let finalRowID: Int64?
    let storage: Storage

    /// The name of the changed database ("main", "temp"...).
    public var databaseName: String {
        switch storage {
        case .live(_, let database, _): String(cString: database)
        case .copied(let database, _, _, _, _, _): database
        }
    }

    /// The name of the changed table.
    public var tableName: String {
        switch storage {
        case .live(_, _, let table): String(cString: table)
        case .copied(_, let table, _, _, _, _): table
        }
    }

    /// The number of columns of the row.
    public var count: Int {
        switch storage {
        case .live(let connection, _, _): Int(sqlite3_preupdate_count(connection))
        case .copied(_, _, let count, _, _, _): count
        }
    }

    /// 0 for a change made by the statement itself, 1 for a change made by
    /// a trigger of the statement, 2 by a trigger of a trigger, and so on.
    public var depth: CInt {
        switch storage {
        case .live(let connection, _, _): sqlite3_preupdate_depth(connection)
        case .copied(_, _, _, let depth, _, _): depth
        }
    }

    /// The values of the row before an update or a delete, in the order of
    /// the table columns; nil for an insert.
    public var initialDatabaseValues: [DatabaseValue]? {
        switch storage {
        case .live(let connection, _, _):
            guard kind != .insert else { return nil }
            return (0..<count).map { readValue(connection, column: $0, initial: true) }
        case .copied(_, _, _, _, let values, _):
            return values
        }
    }

    /// The values of the row after an insert or an update, in the order of
    /// the table columns; nil for a delete.
    public var finalDatabaseValues: [DatabaseValue]? {
        switch storage {
        case .live(let connection, _, _):
            guard kind != .delete else { return nil }
            return (0..<count).map { readValue(connection, column: $0, initial: false) }
        case .copied(_, _, _, _, _, let values):
            return values
        }
    }

    /// The value of a column before an update or a delete; nil for an
    /// insert.
    ///
    /// - precondition: `index` is in `0..<count`.
    public func initialDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        precondition(index >= 0 && index < count, "column index out of range")
        switch storage {
        case .live(let connection, _, _):
            guard kind != .insert else { return nil }
            return readValue(connection, column: index, initial: true)
        case .copied(_, _, _, _, let values, _):
            return values?[index]
        }
    }

    /// The value of a column after an insert or an update; nil for a delete.
    ///
    /// - precondition: `index` is in `0..<count`.
    public func finalDatabaseValue(atIndex index: Int) -> DatabaseValue? {
        precondition(index >= 0 && index < count, "column index out of range")
        switch storage {
        case .live(let connection, _, _):
            guard kind != .delete else { return nil }
            return readValue(connection, column: index, initial: false)
        case .copied(_, _, _, _, _, let values):
            return values?[index]
        }
    }

    /// A copy that stays valid after the notification.
    public func copy() -> DatabasePreUpdateEvent {
        if case .copied = storage { return self }
        return DatabasePreUpdateEvent(
            kind: kind, initialRowID: initialRowID, finalRowID: finalRowID,
            storage: .copied(
                database: databaseName, table: tableName, count: count, depth: depth,
                initialValues: initialDatabaseValues, finalValues: finalDatabaseValues))
    }

    /// Reads a value with `sqlite3_preupdate_old` or `sqlite3_preupdate_new`.
    private func readValue(_ connection: SQLiteConnection, column: Int, initial: Bool) -> DatabaseValue {
        var value: OpaquePointer?
        let code = initial
            ? sqlite3_preupdate_old(connection, CInt(column), &value)
            : sqlite3_preupdate_new(connection, CInt(column), &value)
        guard code == SQLITE_OK, let value else { return .null }
        return DatabaseValue(sqliteValue: value)
    }
}

extension DatabasePreUpdateEvent {
    /// An event from the pre-update hook. SQLite's rowids are only defined
    /// for the rows that exist before (update, delete) and after (insert,
    /// update) the change.
    init(connection: SQLiteConnection, sqliteKind: CInt, initialRowID: Int64, finalRowID: Int64,
         database: UnsafePointer<CChar>, table: UnsafePointer<CChar>)
    {
        let kind = Kind(rawValue: sqliteKind)!
        self.init(
            kind: kind,
            initialRowID: kind == .insert ? nil : initialRowID,
            finalRowID: kind == .delete ? nil : finalRowID,
            storage: .live(connection: connection, database: database, table: table))
    }
}

// A live event points into SQLite's memory.
@available(*, unavailable)
extension DatabasePreUpdateEvent: Sendable { }
