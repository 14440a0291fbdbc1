extension Database {
    // MARK: - Tables

    /// Creates a table.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("name", .text).notNull()
    ///     t.column("score", .integer).notNull().defaults(to: 0)
    /// }
    /// ```
    ///
    /// Identifiers are quoted, and default values are written as SQL
    /// literals. See ``TableDefinition``.
    ///
    /// - throws: A ``DatabaseError`` if the statement fails, or if a
    ///   `belongsTo` refers to a missing table.
    public func create(
        table name: String,
        options: TableOptions = [],
        body: (TableDefinition) throws -> Void) throws
    {
        let table = TableDefinition(name: name, options: options)
        try body(table)
        try execute(statements: SQLTableGenerator(self, table: table).statements(self))
    }

    /// Creates a table (the spelling of older GRDB versions).
    @_disfavoredOverload
    public func create(
        table name: String,
        temporary: Bool = false,
        ifNotExists: Bool = false,
        withoutRowID: Bool = false,
        body: (TableDefinition) throws -> Void) throws
    {
        var options: TableOptions = []
        if temporary { options.insert(.temporary) }
        if ifNotExists { options.insert(.ifNotExists) }
        if withoutRowID { options.insert(.withoutRowID) }
        try create(table: name, options: options, body: body)
    }

    /// Renames a table: `ALTER TABLE ... RENAME TO`.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Modifies a table: adds, renames and drops columns.
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.add(column: "email", .text)
    /// }
    /// ```
    ///
    /// See ``TableAlteration``. For other changes, SQLite requires
    /// recreating the table: <https://www.sqlite.org/lang_altertable.html#otheralter>.
    public func alter(table name: String, body: (TableAlteration) -> Void) throws {
        let alteration = TableAlteration(name: name)
        body(alteration)
        try execute(statements: alteration.statements(self))
    }

    /// Drops a table: `DROP TABLE`.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    // MARK: - Views

    /// Creates a view from SQL, whose interpolated values are written as
    /// SQL literals.
    ///
    /// ```swift
    /// try db.create(view: "champion", asLiteral: "SELECT * FROM player WHERE score > \(1000)")
    /// ```
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        asLiteral sqlLiteral: SQL) throws
    {
        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "VIEW "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " "
        if let columns { sql += "(\(columns.quotedList)) " }
        sql += "AS " + (try sqlLiteral.literalSQL(self))
        try execute(sql: sql)
    }

    /// Creates a view from a request (an `SQLRequest` or a request of the
    /// query interface), whose values are written as SQL literals.
    ///
    /// ```swift
    /// try db.create(view: "champion", as: Player.filter { $0.score > 1000 })
    /// ```
    public func create(
        view name: String,
        options: ViewOptions = [],
        columns: [String]? = nil,
        as request: any SQLSubqueryable) throws
    {
        try create(
            view: name, options: options, columns: columns, asLiteral: SQL(elements: [.subquery(request.sqlSubquery)]))
    }

    /// Drops a view: `DROP VIEW`.
    public func drop(view name: String) throws {
        try execute(sql: "DROP VIEW \(name.quotedDatabaseIdentifier)")
    }

    // MARK: - Indexes

    /// Creates an index on columns.
    ///
    /// ```swift
    /// try db.create(index: "player_on_email", on: "player", columns: ["email"], options: .unique)
    /// ```
    ///
    /// - parameter name: The name of the index.
    /// - parameter table: The indexed table.
    /// - parameter columns: The indexed columns, in order.
    /// - parameter options: `.unique`, `.ifNotExists`.
    /// - parameter condition: For a partial index, the rows to index.
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        try create(
            index: name, on: table, expressions: columns.map { Column($0) }, options: options, condition: condition)
    }

    /// Creates an index on columns (the spelling of older GRDB versions).
    @_disfavoredOverload
    public func create(
        index name: String,
        on table: String,
        columns: [String],
        unique: Bool = false,
        ifNotExists: Bool = false,
        condition: (any SQLExpressible)? = nil) throws
    {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Creates an index on expressions.
    public func create(
        index name: String,
        on table: String,
        expressions: [any SQLExpressible],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        let index = IndexDefinition(
            name: name, table: table,
            expressions: expressions.map(\.sqlExpression),
            options: options,
            condition: condition?.sqlExpression)
        try execute(sql: index.sql(self))
    }

    /// Creates an index named `index_<table>_on_<columns>`.
    public func create(
        indexOn table: String,
        columns: [String],
        options: IndexOptions = [],
        condition: (any SQLExpressible)? = nil) throws
    {
        try create(
            index: Database.defaultIndexName(on: table, columns: columns),
            on: table, columns: columns, options: options, condition: condition)
    }

    /// Drops an index: `DROP INDEX`.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Drops the index on exactly these columns, if there is one.
    public func drop(indexOn table: String, columns: [String]) throws {
        let columns = columns.map(CaseInsensitiveIdentifier.init)
        let matches = try indexes(on: table).filter { $0.columns.map(CaseInsensitiveIdentifier.init) == columns }
        if matches.count == 1 {
            try drop(index: matches[0].name)
        }
    }

    /// Rebuilds the indexes that use a collation, after its ordering
    /// changed.
    public func reindex(collation: Database.CollationName) throws {
        try execute(sql: "REINDEX \(collation.rawValue.sqlName)")
    }

    /// Rebuilds the indexes that use a custom collation.
    public func reindex(collation: DatabaseCollation) throws {
        try reindex(collation: Database.CollationName(rawValue: collation.name))
    }

    /// Runs statements in order.
    private func execute(statements: [String]) throws {
        for sql in statements {
            try execute(sql: sql)
        }
    }
}

/// Options of ``Database/create(view:options:columns:asLiteral:)``.
public struct ViewOptions: OptionSet, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Creates the view only if it does not exist yet: `IF NOT EXISTS`.
    public static let ifNotExists = ViewOptions(rawValue: 1 << 0)
    /// Creates a temporary view, dropped when the connection closes.
    public static let temporary = ViewOptions(rawValue: 1 << 1)
}
