/// Turns a ``TableDefinition`` into `CREATE TABLE` and `CREATE INDEX`
/// statements.
///
/// `belongsTo` foreign keys are resolved here, against the database: the
/// referenced table and its primary key give the names and types of the
/// added columns.
struct SQLTableGenerator {
    /// A column of a primary key, for `belongsTo` and implicit references.
    struct KeyColumn {
        var name: String
        var type: Database.ColumnType?
    }

    /// The columns and constraints that a `belongsTo` adds.
    private struct BelongsTo {
        var columns: [ColumnDefinition]
        var foreignKey: TableForeignKey?
        var index: IndexDefinition?
    }

    private let table: TableDefinition
    private let indexOptions: IndexOptions
    /// The primary key of the table being created, for references to
    /// itself; nil for a hidden rowid.
    private var primaryKey: [KeyColumn]?
    private var belongsTos: [ObjectIdentifier: BelongsTo] = [:]

    init(_ db: Database, table: TableDefinition) throws {
        self.table = table
        indexOptions = table.options.contains(.ifNotExists) ? .ifNotExists : []
        primaryKey = try forwardPrimaryKey(db)
        for case .belongsTo(let foreignKey) in table.columnComponents {
            belongsTos[ObjectIdentifier(foreignKey)] = try resolve(db, foreignKey, selfPrimaryKey: primaryKey)
        }
    }

    /// The `CREATE TABLE` statement, followed by `CREATE INDEX` statements.
    func statements(_ db: Database) throws -> [String] {
        var items: [String] = []
        var foreignKeys: [TableForeignKey] = []
        var indexes: [IndexDefinition] = []
        var columns: [ColumnDefinition] = []
        for component in table.columnComponents {
            switch component {
            case .column(let column):
                columns.append(column)
                items.append(try column.sql(db, table: table.name, primaryKey: { primaryKey }))
            case .sql(let sql):
                items.append(try sql.literalSQL(db))
            case .belongsTo(let foreignKey):
                let belongsTo = belongsTos[ObjectIdentifier(foreignKey)]!
                for column in belongsTo.columns {
                    columns.append(column)
                    items.append(try column.sql(db, table: table.name, primaryKey: { primaryKey }))
                }
                if let foreignKey = belongsTo.foreignKey { foreignKeys.append(foreignKey) }
                if let index = belongsTo.index { indexes.append(index) }
            case .foreignKey(let foreignKey):
                foreignKeys.append(foreignKey)
            }
        }
        indexes += columns.compactMap { $0.index(in: table.name, options: indexOptions) }

        if let constraint = table.primaryKeyConstraint {
            items.append("PRIMARY KEY " + keySQL(constraint))
        }
        for constraint in table.uniqueKeyConstraints {
            items.append("UNIQUE " + keySQL(constraint))
        }
        for foreignKey in foreignKeys {
            let reference = try foreignKey.reference.sql(db, originTable: table.name, primaryKey: { primaryKey })
            items.append("FOREIGN KEY (\(foreignKey.columns.quotedList)) REFERENCES \(reference)")
        }
        for check in table.checks {
            items.append("CHECK (\(try check.literalSQL(db)))")
        }
        for constraint in table.constraints {
            items.append(try constraint.literalSQL(db))
        }

        var sql = "CREATE "
        if table.options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "TABLE "
        if table.options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += "\(table.name.quotedDatabaseIdentifier) (\(items.joined(separator: ", ")))"
        var tableOptions: [String] = []
        if table.options.contains(.strict) { tableOptions.append("STRICT") }
        if table.options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
        return try [sql] + indexes.map { try $0.sql(db) }
    }

    /// `("a", "b") ON CONFLICT REPLACE`
    private func keySQL(_ constraint: TableDefinition.KeyConstraint) -> String {
        let columns = constraint.components.flatMap { component -> [String] in
            switch component {
            case .column(let name): [name]
            case .columnDefinition(let column): [column.name]
            case .foreignKey(let foreignKey): belongsTos[ObjectIdentifier(foreignKey)]!.columns.map(\.name)
            }
        }
        var sql = "(\(columns.quotedList))"
        if let conflictResolution = constraint.conflictResolution {
            sql += " ON CONFLICT \(conflictResolution.rawValue)"
        }
        return sql
    }

    // MARK: - Resolving primary keys

    /// The primary key of the table being created, before it exists.
    private func forwardPrimaryKey(_ db: Database) throws -> [KeyColumn]? {
        if let constraint = table.primaryKeyConstraint {
            var keyColumns: [KeyColumn] = []
            for component in constraint.components {
                switch component {
                case .column(let name):
                    keyColumns.append(KeyColumn(name: name, type: declaredType(ofColumn: name)))
                case .columnDefinition(let column):
                    keyColumns.append(KeyColumn(name: column.name, type: column.type))
                case .foreignKey(let foreignKey):
                    // A reference to the table itself can't be part of its
                    // own primary key: resolve against the database.
                    let belongsTo = try resolve(db, foreignKey, selfPrimaryKey: nil)
                    keyColumns += belongsTo.columns.map { KeyColumn(name: $0.name, type: $0.type) }
                }
            }
            return keyColumns
        }
        for case .column(let column) in table.columnComponents where column.primaryKey != nil {
            return [KeyColumn(name: column.name, type: column.type)]
        }
        return nil
    }

    private func declaredType(ofColumn name: String) -> Database.ColumnType? {
        for case .column(let column) in table.columnComponents
        where CaseInsensitiveIdentifier(column.name) == CaseInsensitiveIdentifier(name) {
            return column.type
        }
        return nil
    }

    /// The columns, foreign key and index of a `belongsTo`.
    private func resolve(
        _ db: Database,
        _ foreignKey: ForeignKeyDefinition,
        selfPrimaryKey: [KeyColumn]??) throws -> BelongsTo
    {
        // A reference to the table itself? (`belongsTo("parent", inTable: "node")`
        // in "node", or `belongsTo("node")` in "nodes")
        let isSelfReference = if let destination = foreignKey.table {
            CaseInsensitiveIdentifier(destination) == CaseInsensitiveIdentifier(table.name)
        } else {
                CaseInsensitiveIdentifier(foreignKey.name.singularized)
                    == CaseInsensitiveIdentifier(table.name.singularized)
        }
        let destinationTable: String
        let destinationKey: [KeyColumn]?
        if isSelfReference, let selfPrimaryKey {
            destinationTable = table.name
            destinationKey = selfPrimaryKey
        } else {
            destinationTable = try foreignKey.destinationTable(db)
            destinationKey = try db.primaryKey(destinationTable).columnInfos?.map {
                KeyColumn(name: $0.name, type: $0.columnType)
            }
        }

        guard let destinationKey, destinationKey.count > 1 else {
            // One column: `authorId INTEGER REFERENCES author(id)`.
            // A hidden rowid is referenced as `<name>Id INTEGER`.
            let keyColumn = destinationKey?.first
            let type: Database.ColumnType? = if let keyColumn { keyColumn.type } else { .integer }
            let column = ColumnDefinition(
                name: foreignKey.name + (keyColumn?.name ?? "id").uppercasingFirstCharacter,
                type: type)
            column.references(
                destinationTable, column: keyColumn?.name,
                onDelete: foreignKey.deleteAction, onUpdate: foreignKey.updateAction,
                deferred: foreignKey.isDeferred)
            if let conflictResolution = foreignKey.notNullConflictResolution {
                column.notNull(onConflict: conflictResolution)
            }
            switch foreignKey.indexing {
            case nil: break
            case .index: column.indexed()
            case .unique: column.unique()
            }
            return BelongsTo(columns: [column], foreignKey: nil, index: nil)
        }

        // Composite key: one column per key column, a table-level foreign
        // key, and an index on all columns.
        let columns = destinationKey.map { keyColumn in
            let column = ColumnDefinition(
                name: foreignKey.name + keyColumn.name.uppercasingFirstCharacter, type: keyColumn.type)
            if let conflictResolution = foreignKey.notNullConflictResolution {
                column.notNull(onConflict: conflictResolution)
            }
            return column
        }
        let columnNames = columns.map(\.name)
        let index: IndexDefinition? = foreignKey.indexing.map { indexing in
            IndexDefinition(
                name: Database.defaultIndexName(on: table.name, columns: columnNames),
                table: table.name,
                expressions: columnNames.map { .column($0) },
                options: indexing == .unique ? indexOptions.union(.unique) : indexOptions,
                condition: nil)
        }
        return BelongsTo(
            columns: columns,
            foreignKey: TableForeignKey(columns: columnNames, reference: ReferenceClause(
                table: destinationTable, columns: destinationKey.map(\.name),
                deleteAction: foreignKey.deleteAction, updateAction: foreignKey.updateAction,
                isDeferred: foreignKey.isDeferred)),
            index: index)
    }
}

/// A table-level `FOREIGN KEY` constraint.
struct TableForeignKey {
    var columns: [String]
    var reference: ReferenceClause
}

/// The `REFERENCES` clause of a column or table foreign key.
struct ReferenceClause {
    var table: String
    /// Nil: the primary key of the referenced table.
    var columns: [String]?
    var deleteAction: Database.ForeignKeyAction?
    var updateAction: Database.ForeignKeyAction?
    var isDeferred: Bool

    /// `"parent"("id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED`
    ///
    /// - parameter primaryKey: The primary key of `originTable`, for a
    ///   reference to itself (nil for a hidden rowid).
    func sql(
        _ db: Database,
        originTable: String,
        primaryKey: () throws -> [SQLTableGenerator.KeyColumn]?) throws -> String
    {
        let columns: [String]
        if let explicitColumns = self.columns {
            columns = explicitColumns
        } else if CaseInsensitiveIdentifier(table) == CaseInsensitiveIdentifier(originTable) {
            columns = try primaryKey()?.map(\.name) ?? ["rowid"]
        } else {
            columns = try db.primaryKey(table).columns
        }
        var sql = "\(table.quotedDatabaseIdentifier)(\(columns.quotedList))"
        if let deleteAction { sql += " ON DELETE \(deleteAction.rawValue)" }
        if let updateAction { sql += " ON UPDATE \(updateAction.rawValue)" }
        if isDeferred { sql += " DEFERRABLE INITIALLY DEFERRED" }
        return sql
    }
}

extension ColumnDefinition {
    /// The column definition in CREATE TABLE or ALTER TABLE ADD COLUMN:
    /// `"name" TEXT NOT NULL UNIQUE CHECK (...) DEFAULT ... COLLATE ... REFERENCES ...`.
    func sql(
        _ db: Database,
        table: String,
        primaryKey: () throws -> [SQLTableGenerator.KeyColumn]?) throws -> String
    {
        var chunks = [name.quotedDatabaseIdentifier]
        if let type { chunks.append(type.rawValue) }
        if let (conflictResolution, autoincrement) = self.primaryKey {
            chunks.append("PRIMARY KEY")
            if let conflictResolution { chunks.append("ON CONFLICT \(conflictResolution.rawValue)") }
            if autoincrement { chunks.append("AUTOINCREMENT") }
        }
        switch notNullConflictResolution {
        case nil: break
        case .abort?: chunks.append("NOT NULL")
        case let conflictResolution?: chunks.append("NOT NULL ON CONFLICT \(conflictResolution.rawValue)")
        }
        if case .unique(let conflictResolution) = indexing {
            chunks.append(conflictResolution == .abort ? "UNIQUE" : "UNIQUE ON CONFLICT \(conflictResolution.rawValue)")
        }
        for check in checks {
            chunks.append("CHECK (\(try check.literalSQL(db)))")
        }
        if let defaultExpression {
            chunks.append("DEFAULT \(try defaultExpression.literalSQL(db))")
        }
        if let collationName {
            chunks.append("COLLATE \(collationName.sqlName)")
        }
        for reference in references {
            chunks.append("REFERENCES \(try reference.sql(db, originTable: table, primaryKey: primaryKey))")
        }
        if let (expression, qualification) = generated {
            chunks.append("GENERATED ALWAYS AS (\(try expression.literalSQL(db)))")
            chunks.append(qualification == .stored ? "STORED" : "VIRTUAL")
        }
        return chunks.joined(separator: " ")
    }
}

extension [String] {
    /// `"a", "b"`
    var quotedList: String {
        map(\.quotedDatabaseIdentifier).joined(separator: ", ")
    }
}
