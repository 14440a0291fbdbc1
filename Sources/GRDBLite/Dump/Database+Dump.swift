import Foundation

// The dump methods of a connection. Each prints to `stream`, or to the
// standard output when it is nil.

extension Database {
    /// Runs all statements of `sql` and prints the rows of each.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpSQL("SELECT * FROM player ORDER BY id")
    /// }
    /// ```
    ///
    /// - throws: A ``DatabaseError`` if a statement fails; the rows of the
    ///   statements before it are printed.
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        var stream = DumpStream(stream)
        try dumpStatements(allStatements(literal: sql), format: format, to: &stream)
    }

    /// Prints the rows of `request`, then, for each to-many association
    /// it includes (`including(all:)`), the key of the association and
    /// its rows.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     try db.dumpRequest(Player.orderByPrimaryKey())
    /// }
    /// ```
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        var stream = DumpStream(stream)
        try dumpPreparedRequest(request.makePreparedRequest(self, forSingleResult: false), format: format, to: &stream)
    }

    /// Prints the rows of tables and views: tables in the order of their
    /// primary key, views in their own order, or, with `stableOrder`, in
    /// the order of all their columns (or the primary key the schema
    /// source gives them).
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     // player
    ///     // 1|Arthur|500
    ///     // 2|Barbara|1000
    ///     //
    ///     // team
    ///     // 1|Red
    ///     // 2|Blue
    ///     try db.dumpTables(["player", "team"])
    /// }
    /// ```
    ///
    /// - parameter tables: The tables and views, in the order printed.
    /// - parameter format: The format of the rows; by default `.debug()`.
    /// - parameter tableHeader: Whether the name of each table is printed
    ///   before its rows; by default when there are several tables.
    /// - parameter stableOrder: Whether rows are sorted by primary key (or
    ///   by all columns), for output that doesn't depend on storage order.
    /// - parameter stream: Where the output goes; by default the standard
    ///   output.
    /// - throws: A ``DatabaseError`` if a table or view does not exist.
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        var stream = DumpStream(stream)
        try dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: &stream)
    }

    /// Prints the schema (as ``dumpSchema(to:)``), then the rows of all
    /// tables, sorted by name, in a stable order.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     try db.dumpContent()
    /// }
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// //
    /// // player
    /// // 1|Arthur|500
    /// // 2|Barbara|1000
    /// ```
    ///
    /// Internal schema objects (whose name starts with `sqlite_` or
    /// `grdb_`) and the shadow tables of virtual tables are left out.
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        var stream = DumpStream(stream)
        try dumpSchema(to: &stream)
        stream.margin()
        let shadowTables = try self.shadowTables()
        let tables = try String
            .fetchAll(self, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name COLLATE NOCASE")
            .filter { !isDumpIgnored($0, shadowTables: shadowTables) }
        try dumpTables(tables, format: format, tableHeader: .always, stableOrder: true, to: &stream)
    }

    /// Prints the SQL of the schema objects, grouped by table, each
    /// table first.
    ///
    /// ```swift
    /// try dbQueue.read { db in
    ///     try db.dumpSchema()
    /// }
    /// // sqlite_master
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER);
    /// ```
    ///
    /// Internal schema objects (whose name starts with `sqlite_` or
    /// `grdb_`) and the shadow tables of virtual tables are left out.
    public func dumpSchema(
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        var stream = DumpStream(stream)
        try dumpSchema(to: &stream)
    }
}

extension Database {
    private func dumpStatements(
        _ statements: some Cursor<Statement>,
        format: some DumpFormat,
        to stream: inout DumpStream)
    throws
    {
        while let statement = try statements.next() {
            try dumpStatement(statement, format: format, to: &stream)
        }
    }

    /// Prints the rows of `statement`, with a fresh copy of `format`.
    private func dumpStatement(
        _ statement: Statement,
        format: some DumpFormat,
        to stream: inout DumpStream)
    throws
    {
        var format = format
        let rows = try Row.fetchCursor(statement)
        while try rows.next() != nil {
            try format.writeRow(self, statement: statement, to: &stream)
        }
        format.finalize(self, statement: statement, to: &stream)
    }

    private func dumpPreparedRequest(
        _ request: PreparedRequest,
        format: some DumpFormat,
        to stream: inout DumpStream)
    throws
    {
        try dumpStatement(request.statement, format: format, to: &stream)
        guard request.observedSupplementaryFetch != nil else { return }
        // Each prefetched association: an empty line, its key, its rows.
        _ = try request.fetchAllRows(self) { prefetchRequest, keyPath in
            stream.write("\n")
            stream.writeLine(keyPath.joined(separator: "."))
            try dumpPreparedRequest(prefetchRequest, format: format, to: &stream)
        }
    }

    private func dumpTables(
        _ tables: [String],
        format: some DumpFormat,
        tableHeader: DumpTableHeaderOptions,
        stableOrder: Bool,
        to stream: inout DumpStream)
    throws
    {
        let printsNames = switch tableHeader {
        case .always: true
        case .automatic: tables.count > 1
        }
        for (position, table) in tables.enumerated() {
            if position > 0 { stream.write("\n") }
            if printsNames { stream.writeLine(table) }
            let request: QueryInterfaceRequest<Row>
            if try tableExists(table) {
                request = Table(table).orderByPrimaryKey()
            } else if stableOrder {
                request = Table(table).all().withStableOrder()
            } else {
                request = Table(table).all()
            }
            try dumpPreparedRequest(
                request.makePreparedRequest(self, forSingleResult: false), format: format, to: &stream)
        }
    }

    private func dumpSchema(to stream: inout DumpStream) throws {
        stream.writeLine("sqlite_master")
        let shadowTables = try self.shadowTables()
        let rows = try Row.fetchAll(self, sql: """
            SELECT sql || ';', name
            FROM sqlite_master
            WHERE sql IS NOT NULL
            ORDER BY
              tbl_name COLLATE NOCASE,
              CASE type WHEN 'table' THEN 'a' WHEN 'index' THEN 'aa' ELSE type END,
              name COLLATE NOCASE,
              sql
            """)
        // Text repaired if a damaged file holds invalid UTF-8 (see `Row.schemaText`).
        for row in rows where !isDumpIgnored(row.schemaText("name") ?? "", shadowTables: shadowTables) {
            stream.writeLine(row.schemaText("sql || ';'") ?? "")
        }
    }

    /// Whether dumps of the whole database leave `name` out.
    private func isDumpIgnored(_ name: String, shadowTables: Set<String>) -> Bool {
        Database.isSQLiteInternalTable(name)
            || Database.isGRDBInternalTable(name)
            || shadowTables.contains(name)
    }

    /// The shadow tables of the virtual tables of the main schema; empty
    /// when SQLite can't tell (before 3.37).
    private func shadowTables() throws -> Set<String> {
        guard Database.sqliteLibVersionNumber >= 3037000 else { return [] }
        return try Set(
            String.fetchAll(self, sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'"))
    }
}
