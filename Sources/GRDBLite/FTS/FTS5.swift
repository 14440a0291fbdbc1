import CSQLite

/// The FTS5 full-text module (https://www.sqlite.org/fts5.html).
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS5()) { t in
///     t.tokenizer = .porter()
///     t.column("title")
///     t.column("body")
/// }
/// ```
public struct FTS5: Sendable {
    /// How the `unicode61` tokenizer handles diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "é" and "e" are different.
        case keep
        /// Diacritics are removed from Latin script characters that have a
        /// single one (`remove_diacritics 1`, the default).
        case removeLegacy
        /// Diacritics are removed from all Latin script characters
        /// (`remove_diacritics 2`).
        case remove
    }

    /// The FTS5 module.
    public init() { }

    /// The tokens of a query string for the `ascii` tokenizer, without
    /// colocated tokens (synonyms).
    static func tokenize(query string: String) throws -> [String] {
        try DatabaseQueue().inDatabase { db in
            try db.makeTokenizer(.ascii()).tokenize(query: string).compactMap { token, flags in
                flags.contains(.colocated) ? nil : token
            }
        }
    }

    /// The `fts5_api` of the connection, through which tokenizers are
    /// found and registered (https://www.sqlite.org/fts5.html#extending_fts5).
    public static func api(_ db: Database) -> UnsafePointer<fts5_api> {
        guard let api = try? apiIfAvailable(db) else {
            fatalError("FTS5 is not available in this SQLite build")
        }
        return api
    }

    /// The `fts5_api` of the connection: `SELECT fts5(?)` writes it into a
    /// pointer bound with the "fts5_api_ptr" type.
    static func apiIfAvailable(_ db: Database) throws -> UnsafePointer<fts5_api> {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db.sqliteHandle, "SELECT fts5(?)", -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard code == SQLITE_OK, let statement else {
            throw DatabaseError(resultCode: code, message: "FTS5 is not available")
        }
        var api: UnsafePointer<fts5_api>?
        var stepCode = SQLITE_OK
        try withUnsafeMutablePointer(to: &api) { apiPointer in // the pointer stays alive during the step
            let bindCode = sqlite3_bind_pointer(statement, 1, apiPointer, fts5APIPointerType, nil)
            guard bindCode == SQLITE_OK else {
                throw DatabaseError(resultCode: bindCode, message: "FTS5 is not available")
            }
            stepCode = sqlite3_step(statement)
        }
        guard let api else {
            // Out of memory, or no FTS5.
            let resultCode = stepCode == SQLITE_ROW || stepCode == SQLITE_DONE ? SQLITE_ERROR : stepCode
            throw DatabaseError(resultCode: resultCode, message: "FTS5 is not available")
        }
        return api
    }
}

/// The pointer type that `fts5()` expects: a C string that lives as long
/// as the program (SQLite compares it with strcmp).
// nonisolated(unsafe): immutable after initialization
nonisolated(unsafe) private let fts5APIPointerType: UnsafePointer<CChar> = {
    let bytes = Array("fts5_api_ptr".utf8CString)
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    pointer.initialize(from: bytes, count: bytes.count)
    return UnsafePointer(pointer)
}()

extension FTS5: VirtualTableModule {
    /// `fts5`
    public var moduleName: String { "fts5" }

    /// A fresh FTS5 table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS5TableDefinition {
        FTS5TableDefinition(configuration: configuration)
    }

    /// The columns and options of the table, in FTS5's syntax.
    ///
    /// - throws: A ``DatabaseError`` if the table has no column.
    public func moduleArguments(for definition: FTS5TableDefinition, in db: Database) throws -> [String] {
        guard !definition.columns.isEmpty else {
            throw DatabaseError(message: "an FTS5 table needs at least one column")
        }
        /// A string option, as an SQL string literal.
        func quoted(_ string: String) -> String { string.databaseValue.sqlLiteral }

        var arguments = definition.columns.map { $0.isIndexed ? $0.name : $0.name + " UNINDEXED" }
        if let tokenizer = definition.tokenizer {
            // Each component is a string literal, and so is the whole list.
            arguments.append("tokenize=" + quoted(tokenizer.components.map(quoted).joined(separator: " ")))
        }
        if let contentTable = definition.synchronizedTable {
            arguments.append("content=" + quoted(contentTable))
            if let rowID = try db.primaryKey(contentTable).rowIDColumn {
                arguments.append("content_rowid=" + quoted(rowID))
            }
        } else {
            if let content = definition.rawContent {
                arguments.append("content=" + quoted(content))
            }
            if let contentRowID = definition.rawContentRowID {
                arguments.append("content_rowid=" + quoted(contentRowID))
            }
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=" + quoted(prefixes.sorted().map(String.init).joined(separator: " ")))
        }
        if let columnSize = definition.columnSize {
            arguments.append("columnSize=\(columnSize)")
        }
        if let detail = definition.detail {
            arguments.append("detail=\(detail)")
        }
        return arguments
    }

    /// Installs the triggers that keep a table synchronized with its
    /// content table, and fills it.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS5TableDefinition) throws {
        guard let contentTable = definition.synchronizedTable else { return }
        guard !definition.configuration.temporary else {
            throw DatabaseError(message: "temporary synchronized FTS5 tables are not supported")
        }
        let rowID = try db.primaryKey(contentTable).rowIDColumn ?? "rowid"
        let columns = definition.columns.map(\.name)
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let targetColumns = (["rowid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let oldValues = ([rowID] + columns).map { "old." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let ifNotExists = definition.configuration.ifNotExists ? "IF NOT EXISTS " : ""
        func trigger(_ suffix: String, _ event: String, _ body: [String]) -> String {
            let name = "__\(tableName)_\(suffix)".quotedDatabaseIdentifier
            let statements = body.map { "    \($0);\n" }.joined()
            return "CREATE TRIGGER \(ifNotExists)\(name) AFTER \(event) ON \(content) BEGIN\n\(statements)END;\n"
        }
        // External content FTS5 tables forget a row with the special
        // 'delete' command, given the old values.
        let insert = "INSERT INTO \(ftsTable)(\(targetColumns)) VALUES (\(newValues))"
        let delete = "INSERT INTO \(ftsTable)(\(ftsTable), \(targetColumns)) VALUES('delete', \(oldValues))"
        try db.execute(sql: trigger("ai", "INSERT", [insert])
            + trigger("ad", "DELETE", [delete])
            + trigger("au", "UPDATE", [delete, insert]))
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }
}

/// The definition of an FTS5 table, given to the closure of
/// `db.create(virtualTable:using:_:)`.
public final class FTS5TableDefinition {
    fileprivate let configuration: VirtualTableConfiguration
    fileprivate var columns: [FTS5ColumnDefinition] = []
    /// The content table whose changes the table follows, if any.
    fileprivate var synchronizedTable: String?
    fileprivate var rawContent: String?
    fileprivate var rawContentRowID: String?

    /// The tokenizer (`unicode61` when nil).
    public var tokenizer: FTS5TokenizerDescriptor?

    /// The `content` option: an external content table, or `""` for a
    /// contentless table. Setting it ends a synchronization.
    public var content: String? {
        get { synchronizedTable ?? rawContent }
        set {
            synchronizedTable = nil
            rawContent = newValue
        }
    }

    /// The `content_rowid` option: the integer primary key of the external
    /// content table. Setting it ends a synchronization.
    public var contentRowID: String? {
        get { synchronizedTable == nil ? rawContentRowID : nil }
        set {
            synchronizedTable = nil
            rawContentRowID = newValue
        }
    }

    /// The `prefix` option: the lengths of the prefix indexes.
    public var prefixes: Set<Int>?

    /// The `columnsize` option: 0 stores no column sizes.
    public var columnSize: Int?

    /// The `detail` option: `"full"`, `"column"` or `"none"`.
    public var detail: String?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Adds a column.
    @discardableResult
    public func column(_ name: String) -> FTS5ColumnDefinition {
        let column = FTS5ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, kept up
    /// to date by triggers, and filled from it when it is created.
    public func synchronize(withTable tableName: String) {
        rawContent = nil
        rawContentRowID = nil
        synchronizedTable = tableName
    }
}

// A mutable class, used in the closure that defines a table only.
@available(*, unavailable)
extension FTS5TableDefinition: Sendable { }

/// A column of an FTS5 table.
public final class FTS5ColumnDefinition {
    fileprivate let name: String
    fileprivate var isIndexed = true

    init(name: String) {
        self.name = name
    }

    /// The column is stored but not indexed (`UNINDEXED`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }
}

// A mutable class, used in the closure that defines a table only.
@available(*, unavailable)
extension FTS5ColumnDefinition: Sendable { }

extension Column {
    /// The `rank` hidden column of FTS5 tables: `order(Column.rank)` sorts
    /// the best matches first.
    public static let rank = Column("rank")
}

extension Database {
    /// Drops the triggers that keep the full-text table `tableName` in
    /// sync with its content table (see
    /// ``FTS5TableDefinition/synchronize(withTable:)``).
    public func dropFTS5SynchronizationTriggers(forTable tableName: String) throws {
        for suffix in ["ai", "ad", "au"] {
            try execute(sql: "DROP TRIGGER IF EXISTS " + "__\(tableName)_\(suffix)".quotedDatabaseIdentifier)
        }
    }
}
