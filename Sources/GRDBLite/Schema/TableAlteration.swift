/// The changes to a table made by ``Database/alter(table:body:)``.
///
/// ```swift
/// try db.alter(table: "player") { t in // t is a TableAlteration
///     t.add(column: "email", .text).indexed()
///     t.rename(column: "name", to: "fullName")
///     t.drop(column: "legacy")
/// }
/// ```
public final class TableAlteration {
    enum Change {
        case add(ColumnDefinition)
        case addSQL(SQL)
        case rename(old: String, new: String)
        case drop(String)
    }

    let name: String
    var changes: [Change] = []

    init(name: String) {
        self.name = name
    }

    /// Adds a column: `ALTER TABLE ... ADD COLUMN`.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        changes.append(.add(column))
        return column
    }

    /// Adds a column defined with SQL: `t.addColumn(sql: "name TEXT")`.
    public func addColumn(sql: String) {
        changes.append(.addSQL(SQL(sql: sql)))
    }

    /// Adds a column defined with an SQL literal, whose interpolated values
    /// are written as SQL literals.
    public func addColumn(literal: SQL) {
        changes.append(.addSQL(literal))
    }

    /// Renames a column: `ALTER TABLE ... RENAME COLUMN`.
    public func rename(column name: String, to newName: String) {
        changes.append(.rename(old: name, new: newName))
    }

    /// Drops a column: `ALTER TABLE ... DROP COLUMN`.
    public func drop(column name: String) {
        changes.append(.drop(name))
    }

    /// One statement per change, and the indexes of added indexed columns.
    func statements(_ db: Database) throws -> [String] {
        let table = name.quotedDatabaseIdentifier
        var statements: [String] = []
        for change in changes {
            switch change {
            case .add(let column):
                let sql = try column.sql(db, table: name, primaryKey: {
                    try db.primaryKey(self.name).columnInfos?.map {
                        SQLTableGenerator.KeyColumn(name: $0.name, type: $0.columnType)
                    }
                })
                statements.append("ALTER TABLE \(table) ADD COLUMN \(sql)")
                if let index = column.index(in: name, options: []) {
                    statements.append(try index.sql(db))
                }
            case .addSQL(let sql):
                statements.append("ALTER TABLE \(table) ADD COLUMN \(try sql.literalSQL(db))")
            case let .rename(old, new):
                statements.append(
                    "ALTER TABLE \(table) RENAME COLUMN \(old.quotedDatabaseIdentifier) TO \(new.quotedDatabaseIdentifier)"
                )
            case .drop(let column):
                statements.append("ALTER TABLE \(table) DROP COLUMN \(column.quotedDatabaseIdentifier)")
            }
        }
        return statements
    }
}

@available(*, unavailable)
extension TableAlteration: Sendable { }
