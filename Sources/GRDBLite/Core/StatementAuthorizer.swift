import CSQLite

/// What a statement does, as SQLite's authorizer reports it while the
/// statement compiles.
struct StatementInfo: Sendable {
    /// How a statement changes the transaction state.
    enum TransactionEffect: Equatable, Sendable {
        case beginTransaction
        case commitTransaction
        case rollbackTransaction
        case beginSavepoint(String)
        case releaseSavepoint(String)
        case rollbackSavepoint(String)

        /// Whether the statement undoes changes (ROLLBACK, ROLLBACK TO).
        var rollsBack: Bool {
            switch self {
            case .rollbackTransaction, .rollbackSavepoint: true
            default: false
            }
        }
    }

    /// A table the statement writes into.
    enum TableWrite: Equatable, Sendable {
        case insert(table: String)
        case delete(table: String)
        case update(table: String, columns: Set<String>)
    }

    var transactionEffect: TransactionEffect?
    var writes: [TableWrite] = []
    /// Whether the statement changes the schema (CREATE, DROP, ALTER...).
    var changesSchema = false
    var isDrop = false
}

/// Collects ``StatementInfo`` while a statement compiles. Installed once per
/// connection; it costs nothing while statements run.
final class StatementAuthorizer {
    private(set) var info = StatementInfo()
    /// Only statements that GRDBLite compiles are described.
    private var isCompiling = false
    /// The columns read by the compiled statements, collected only on
    /// demand (``selectedColumns(_:)``) so that ordinary compilations don't
    /// pay.
    private var selectedColumns: [SelectedColumn]?
    /// Decides whether deletions must be reported row by row. The database
    /// owns the authorizer (no weak reference: it would slow down every
    /// unowned reference to the database).
    // unowned(unsafe): the database owns the authorizer, which never outlives it.
    private unowned(unsafe) var database: Database?

    func install(on db: Database) {
        database = db
        // Unmanaged, unretained: the database that retains the authorizer removes it in uninstall.
        sqlite3_set_authorizer(db.sqliteHandle, { pointer, action, arg1, arg2, _, _ in
            // Unmanaged, unretained: the database that retains the authorizer removes it in uninstall.
            Unmanaged<StatementAuthorizer>.fromOpaque(pointer!).takeUnretainedValue()
                .authorize(action, arg1, arg2)
        }, Unmanaged.passUnretained(self).toOpaque()) // Unmanaged, unretained: removed in uninstall, before it goes
    }

    func uninstall(from db: Database) {
        sqlite3_set_authorizer(db.sqliteHandle, nil, nil)
    }

    /// Compiles with `body` and returns what the compiled statement does.
    func describing<T>(_ body: () throws -> T) rethrows -> (T, StatementInfo) {
        info = StatementInfo()
        isCompiling = true
        defer { isCompiling = false }
        let result = try body()
        return (result, info)
    }

    /// A column that a statement reads, as SQLite's authorizer reports it.
    struct SelectedColumn {
        var table: String
        /// Empty for a read of the table itself (`COUNT(*)`).
        var column: String
    }

    /// Whether ``selectedColumns(_:)`` is running.
    var isRecordingSelection: Bool { selectedColumns != nil }

    /// Runs `body`, which compiles statements, and returns the columns
    /// they read (the observation layer makes regions of them).
    func selectedColumns(_ body: () throws -> Void) rethrows -> [SelectedColumn] {
        let outer = selectedColumns
        selectedColumns = []
        defer { selectedColumns = outer }
        try body()
        return selectedColumns!
    }

    private func authorize(_ action: CInt, _ arg1: UnsafePointer<CChar>?, _ arg2: UnsafePointer<CChar>?) -> CInt {
        guard isCompiling else { return SQLITE_OK }
        switch action {
        case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX,
             SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW, SQLITE_DROP_TRIGGER, SQLITE_DROP_TEMP_TRIGGER,
             SQLITE_DROP_VTABLE:
            info.isDrop = true
            info.changesSchema = true
        case SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX,
             SQLITE_CREATE_VIEW, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER,
             SQLITE_CREATE_VTABLE, SQLITE_ALTER_TABLE, SQLITE_ATTACH, SQLITE_DETACH:
            info.changesSchema = true
        case SQLITE_READ:
            guard selectedColumns != nil, let arg1, let arg2 else { break }
            selectedColumns!.append(SelectedColumn(table: String(cString: arg1), column: String(cString: arg2)))
        case SQLITE_INSERT:
            if let arg1 { info.writes.append(.insert(table: String(cString: arg1))) }
        case SQLITE_UPDATE:
            if let arg1, let arg2 { recordUpdate(table: String(cString: arg1), column: String(cString: arg2)) }
        case SQLITE_DELETE:
            // DROP deletes from sqlite_master: not a row deletion to report.
            guard !info.isDrop, let arg1 else { return SQLITE_OK }
            let table = String(cString: arg1)
            if table == "sqlite_master" || table == "sqlite_temp_master" { return SQLITE_OK }
            info.writes.append(.delete(table: table))
            // SQLITE_IGNORE disables the truncate optimization, so that the
            // update hook reports each deleted row to observers.
            if let observer = database?.executionObserver, observer.observesDeletions(on: table) {
                return SQLITE_IGNORE
            }
        case SQLITE_TRANSACTION:
            guard let arg1 else { break }
            switch String(cString: arg1) {
            case "BEGIN": info.transactionEffect = .beginTransaction
            case "COMMIT": info.transactionEffect = .commitTransaction
            case "ROLLBACK": info.transactionEffect = .rollbackTransaction
            default: break
            }
        case SQLITE_SAVEPOINT:
            guard let arg1, let arg2 else { break }
            let name = String(cString: arg2)
            switch String(cString: arg1) {
            case "BEGIN": info.transactionEffect = .beginSavepoint(name)
            case "RELEASE": info.transactionEffect = .releaseSavepoint(name)
            case "ROLLBACK": info.transactionEffect = .rollbackSavepoint(name)
            default: break
            }
        default:
            break
        }
        return SQLITE_OK
    }

    private func recordUpdate(table: String, column: String) {
        for (index, write) in info.writes.enumerated() {
            if case .update(table, var columns) = write {
                columns.insert(column)
                info.writes[index] = .update(table: table, columns: columns)
                return
            }
        }
        info.writes.append(.update(table: table, columns: [column]))
    }
}
