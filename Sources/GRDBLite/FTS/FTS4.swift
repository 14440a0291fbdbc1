/// The FTS4 full-text module (https://www.sqlite.org/fts3.html).
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.synchronize(withTable: "bookContent")
///     t.column("title")
///     t.column("body")
/// }
/// ```
public struct FTS4: Sendable {
    /// The FTS4 module.
    public init() { }
}

extension FTS4: VirtualTableModule {
    /// `fts4`
    public var moduleName: String { "fts4" }

    /// A fresh FTS4 table definition.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS4TableDefinition {
        FTS4TableDefinition(configuration: configuration)
    }

    /// The columns and options of the table, in FTS4's syntax.
    public func moduleArguments(for definition: FTS4TableDefinition, in db: Database) -> [String] {
        var arguments: [String] = []
        for column in definition.columns {
            if column.isLanguageId {
                arguments.append("languageid=\"\(column.name)\"")
                continue
            }
            arguments.append(column.name)
            if !column.isIndexed {
                arguments.append("notindexed=\(column.name)")
            }
        }
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.moduleArgument)
        }
        if let content = definition.content {
            arguments.append("content=\"\(content)\"")
        }
        let quotedOptions: [(String, String?)] = [
            ("compress", definition.compress),
            ("uncompress", definition.uncompress),
            ("matchinfo", definition.matchinfo),
        ]
        for case let (option, value?) in quotedOptions {
            arguments.append("\(option)=\"\(value)\"")
        }
        if let prefixes = definition.prefixes {
            arguments.append("prefix=\"" + prefixes.sorted().map(String.init).joined(separator: ",") + "\"")
        }
        if let order = definition.order {
            arguments.append("order=\(order)")
        }
        return arguments
    }

    /// Installs the triggers that keep a table synchronized with its
    /// content table, and fills it.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS4TableDefinition) throws {
        guard let contentTable = definition.synchronizedTable else { return }
        guard !definition.configuration.temporary else {
            throw DatabaseError(message: "temporary synchronized FTS4 tables are not supported")
        }
        let rowID = try db.primaryKey(contentTable).rowIDColumn ?? "rowid"
        let columns = definition.columns.map(\.name)
        let ftsTable = tableName.quotedDatabaseIdentifier
        let content = contentTable.quotedDatabaseIdentifier
        let targetColumns = (["docid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let oldRowID = "old." + rowID.quotedDatabaseIdentifier
        let ifNotExists = definition.configuration.ifNotExists ? "IF NOT EXISTS " : ""
        func trigger(_ suffix: String, _ timing: String, _ body: String) -> String {
            let name = "__\(tableName)_\(suffix)".quotedDatabaseIdentifier
            return "CREATE TRIGGER \(ifNotExists)\(name) \(timing) ON \(content) BEGIN\n    \(body);\nEND;\n"
        }
        let delete = "DELETE FROM \(ftsTable) WHERE docid=\(oldRowID)"
        let insert = "INSERT INTO \(ftsTable)(\(targetColumns)) VALUES(\(newValues))"
        try db.execute(sql: trigger("bu", "BEFORE UPDATE", delete)
            + trigger("bd", "BEFORE DELETE", delete)
            + trigger("au", "AFTER UPDATE", insert)
            + trigger("ai", "AFTER INSERT", insert))
        try db.execute(sql: "INSERT INTO \(ftsTable)(\(ftsTable)) VALUES('rebuild')")
    }
}

/// The definition of an FTS4 table, given to the closure of
/// `db.create(virtualTable:using:_:)`.
public final class FTS4TableDefinition {
    fileprivate let configuration: VirtualTableConfiguration
    fileprivate var columns: [FTS4ColumnDefinition] = []
    /// The content table whose changes the table follows, if any.
    fileprivate var synchronizedTable: String?
    private var rawContent: String?

    /// The tokenizer (`simple` when nil).
    public var tokenizer: FTS3TokenizerDescriptor?

    /// The `content` option: an external content table, or `""` for a
    /// contentless table. Setting it ends a synchronization.
    public var content: String? {
        get { synchronizedTable ?? rawContent }
        set {
            synchronizedTable = nil
            rawContent = newValue
        }
    }

    /// The `compress` option: the SQL function that compresses content.
    public var compress: String?

    /// The `uncompress` option: the SQL function that uncompresses content.
    public var uncompress: String?

    /// The `matchinfo` option (`"fts3"`).
    public var matchinfo: String?

    /// The `prefix` option: the lengths of the prefix indexes.
    public var prefixes: Set<Int>?

    /// The `order` option (`"DESC"`).
    @_spi(GRDBLite) public var order: String?

    init(configuration: VirtualTableConfiguration) {
        self.configuration = configuration
    }

    /// Adds a column.
    @discardableResult
    public func column(_ name: String) -> FTS4ColumnDefinition {
        let column = FTS4ColumnDefinition(name: name)
        columns.append(column)
        return column
    }

    /// Makes the table an external content table of `tableName`, kept up
    /// to date by triggers, and filled from it when it is created.
    public func synchronize(withTable tableName: String) {
        rawContent = nil
        synchronizedTable = tableName
    }
}

// A mutable class, used in the closure that defines a table only.
@available(*, unavailable)
extension FTS4TableDefinition: Sendable { }

/// A column of an FTS4 table.
public final class FTS4ColumnDefinition {
    fileprivate let name: String
    fileprivate var isIndexed = true
    fileprivate var isLanguageId = false

    init(name: String) {
        self.name = name
    }

    /// The column is stored but not indexed (`notindexed=`).
    @discardableResult
    public func notIndexed() -> Self {
        isIndexed = false
        return self
    }

    /// The column holds the language id of each row (`languageid=`).
    @discardableResult
    public func asLanguageId() -> Self {
        isLanguageId = true
        return self
    }
}

// A mutable class, used in the closure that defines a table only.
@available(*, unavailable)
extension FTS4ColumnDefinition: Sendable { }

extension Database {
    /// Drops the triggers that keep the full-text table `tableName` in
    /// sync with its content table (see
    /// ``FTS4TableDefinition/synchronize(withTable:)``).
    public func dropFTS4SynchronizationTriggers(forTable tableName: String) throws {
        for suffix in ["bu", "bd", "au", "ai"] {
            try execute(sql: "DROP TRIGGER IF EXISTS " + "__\(tableName)_\(suffix)".quotedDatabaseIdentifier)
        }
    }
}
