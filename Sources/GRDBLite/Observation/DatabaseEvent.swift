import CSQLite

/// An inserted, updated or deleted row, given to
/// ``TransactionObserver/databaseDidChange(with:)``.
///
/// An event is only valid during the call: keep a copy if you need it later.
///
/// ```swift
/// func databaseDidChange(with event: DatabaseEvent) {
///     events.append(event.copy())
/// }
/// ```
public struct DatabaseEvent {
    /// The kind of change, with SQLite's codes as raw values.
    public enum Kind: CInt, Sendable {
        /// An inserted row (`SQLITE_INSERT`).
        case insert = 18
        /// A deleted row (`SQLITE_DELETE`).
        case delete = 9
        /// An updated row (`SQLITE_UPDATE`).
        case update = 23
    }

    /// Names read from SQLite while the event is live, copied otherwise.
    enum Names {
        case live(database: UnsafePointer<CChar>, table: UnsafePointer<CChar>)
        case copied(database: String, table: String)
    }

    /// The kind of change.
    public let kind: Kind
    /// The rowid of the changed row.
    public let rowID: Int64
    let names: Names

    /// The name of the changed database ("main", "temp"...).
    public var databaseName: String {
        switch names {
        case .live(let database, _): String(cString: database)
        case .copied(let database, _): database
        }
    }

    /// The name of the changed table.
    public var tableName: String {
        switch names {
        case .live(_, let table): String(cString: table)
        case .copied(_, let table): table
        }
    }

    /// A copy that stays valid after the notification.
    public func copy() -> DatabaseEvent {
        if case .copied = names { return self }
        return DatabaseEvent(kind: kind, rowID: rowID, names: .copied(database: databaseName, table: tableName))
    }
}

// A live event points into SQLite's memory.
@available(*, unavailable)
extension DatabaseEvent: Sendable { }
