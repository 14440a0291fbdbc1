/// A virtual table module: the kind of table that
/// `db.create(virtualTable:using:_:)` creates (``FTS3``, ``FTS4``,
/// ``FTS5``, or a module of your own).
///
/// ```swift
/// try db.create(virtualTable: "book", using: FTS4()) { t in
///     t.column("title")
///     t.column("body")
/// }
/// ```
public protocol VirtualTableModule {
    /// The object that the table-building closure receives.
    associatedtype TableDefinition

    /// The name of the module, as in `CREATE VIRTUAL TABLE ... USING name`.
    var moduleName: String { get }

    /// A fresh table definition.
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// The arguments of the module, written between parentheses after its
    /// name: `USING fts4(title, body, tokenize=porter)`.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Called after the table has been created, in the same savepoint: the
    /// place to add triggers or populate the table.
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is created: given to
/// ``VirtualTableModule/makeTableDefinition(configuration:)``.
public struct VirtualTableConfiguration {
    /// Whether the statement has `IF NOT EXISTS`.
    var ifNotExists: Bool
    /// Whether the table is created in the temporary schema.
    var temporary: Bool
}

/// Options of `db.create(virtualTable:options:using:)`.
public struct VirtualTableOptions: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: Int

    /// Options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `CREATE VIRTUAL TABLE IF NOT EXISTS`: no error if the table exists.
    public static let ifNotExists = VirtualTableOptions(rawValue: 1)
    /// The table is created in the temporary schema (`temp."name"`).
    public static let temporary = VirtualTableOptions(rawValue: 2)
}

extension Database {
    /// The head of a CREATE VIRTUAL TABLE statement, up to `USING`.
    private func virtualTableHead(_ name: String, options: VirtualTableOptions) -> String {
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        return sql + name.quotedDatabaseIdentifier + " USING "
    }

    /// Creates a virtual table whose module and arguments are given as SQL.
    ///
    /// ```swift
    /// // CREATE VIRTUAL TABLE "place" USING rtree(id, minX, maxX)
    /// try db.create(virtualTable: "place", using: "rtree(id, minX, maxX)")
    /// ```
    public func create(virtualTable name: String, options: VirtualTableOptions = [], using module: String) throws {
        try execute(sql: virtualTableHead(name, options: options) + module)
    }

    /// Creates a virtual table with a module such as ``FTS4`` or ``FTS5``;
    /// the closure defines its columns and options.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book", using: FTS5()) { t in
    ///     t.column("title")
    ///     t.tokenizer = .porter()
    /// }
    /// ```
    ///
    /// The table and whatever the module adds (triggers...) are created
    /// together, or not at all.
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        let configuration = VirtualTableConfiguration(
            ifNotExists: options.contains(.ifNotExists),
            temporary: options.contains(.temporary))
        let definition = module.makeTableDefinition(configuration: configuration)
        try body?(definition)
        let arguments = try module.moduleArguments(for: definition, in: self)
        var sql = virtualTableHead(tableName, options: options) + module.moduleName
        if !arguments.isEmpty {
            sql += "(" + arguments.joined(separator: ", ") + ")"
        }
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: tableName, using: definition)
            return .commit
        }
    }

    /// Creates a virtual table whose module and arguments are given as SQL.
    @_disfavoredOverload
    public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
        try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module)
    }

    /// Creates a virtual table with a module such as ``FTS4`` or ``FTS5``.
    @_disfavoredOverload
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        ifNotExists: Bool = false,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil) throws
    {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }
}
