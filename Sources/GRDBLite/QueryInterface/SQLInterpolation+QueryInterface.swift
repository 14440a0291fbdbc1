extension SQLInterpolation {
    /// The quoted name of the table of a record type:
    /// `"SELECT * FROM \(Player.self)"`.
    public mutating func appendInterpolation(_ table: (some TableRecord).Type) {
        appendLiteral(table.databaseTableName.quotedDatabaseIdentifier)
    }

    /// The quoted name of the table of a record type of unknown type.
    @_disfavoredOverload
    public mutating func appendInterpolation(_ table: any TableRecord.Type) {
        appendLiteral(table.databaseTableName.quotedDatabaseIdentifier)
    }

    /// The quoted name of a table: `"SELECT * FROM \(Table("player"))"`.
    @_disfavoredOverload
    public mutating func appendInterpolation<T>(_ table: Table<T>) {
        appendLiteral(table.tableName.quotedDatabaseIdentifier)
    }

    /// The quoted name of the table of a record:
    /// `"INSERT INTO \(tableOf: player) DEFAULT VALUES"`.
    public mutating func appendInterpolation(tableOf record: some TableRecord) {
        appendInterpolation(type(of: record))
    }

    /// The quoted name of the table of a record of unknown type.
    @_disfavoredOverload
    public mutating func appendInterpolation(tableOf record: any TableRecord) {
        appendInterpolation(type(of: record))
    }

    /// The selection of a record type, qualified by its table name or by
    /// `tableAlias`: `"SELECT \(columnsOf: Player.self) FROM player"` is
    /// `SELECT "player".* FROM player`.
    public mutating func appendInterpolation(columnsOf recordType: (some TableRecord).Type, tableAlias: String? = nil) {
        // The alias names the table, so that `.allColumns(excluding:)`
        // finds its columns.
        let tableName = recordType.databaseTableName
        let alias = TableAliasBase(tableName: tableName, userName: tableAlias ?? tableName)
        for (index, selectable) in recordType.databaseSelection.enumerated() {
            if index > 0 { appendLiteral(", ") }
            elements.append(.selection(selectable.sqlSelection.qualified(with: alias)))
        }
    }

    /// The quoted name of a common table expression:
    /// `"WITH \(definitionFor: cte) SELECT * FROM \(cte)"`.
    public mutating func appendInterpolation(_ cte: CommonTableExpression<some Any>) {
        appendLiteral(cte.tableName.quotedDatabaseIdentifier)
    }

    /// The definition of a common table expression, for a WITH clause:
    /// `"cte"("a", "b") AS (SELECT ...)`.
    public mutating func appendInterpolation(definitionFor cte: CommonTableExpression<some Any>) {
        var sql = cte.tableName.quotedDatabaseIdentifier
        if let columns = cte.cte.columns, !columns.isEmpty {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        appendLiteral(sql + " AS (")
        elements.append(.subquery(cte.cte.subquery))
        appendLiteral(")")
    }
}
