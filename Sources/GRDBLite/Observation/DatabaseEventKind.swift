/// A kind of change that a statement can perform, given to
/// ``TransactionObserver/observes(eventsOfKind:)``.
public enum DatabaseEventKind: Sendable {
    /// Insertions in a table.
    case insert(tableName: String)
    /// Deletions from a table.
    case delete(tableName: String)
    /// Updates of some columns of a table.
    case update(tableName: String, columnNames: Set<String>)

    /// The changed table.
    public var tableName: String {
        switch self {
        case .insert(let tableName), .delete(let tableName), .update(let tableName, _):
            tableName
        }
    }

    /// The region that changes of this kind modify.
    var modifiedRegion: DatabaseRegion {
        switch self {
        case .insert(let tableName), .delete(let tableName):
            DatabaseRegion(table: tableName)
        case .update(let tableName, let columnNames):
            DatabaseRegion(table: tableName, columns: columnNames)
        }
    }

    /// The kind of the changes a statement writes, as the authorizer saw
    /// them when the statement compiled.
    init(_ write: StatementInfo.TableWrite) {
        switch write {
        case .insert(let table): self = .insert(tableName: table)
        case .delete(let table): self = .delete(tableName: table)
        case .update(let table, let columns): self = .update(tableName: table, columnNames: columns)
        }
    }

    /// Whether a change of this SQLite kind (`SQLITE_INSERT`...) in this
    /// table is of this kind.
    func matches(_ sqliteKind: CInt, table: String) -> Bool {
        switch self {
        case .insert(let tableName): sqliteKind == DatabaseEvent.Kind.insert.rawValue && tableName == table
        case .delete(let tableName): sqliteKind == DatabaseEvent.Kind.delete.rawValue && tableName == table
        case .update(let tableName, _): sqliteKind == DatabaseEvent.Kind.update.rawValue && tableName == table
        }
    }
}
