/// A row that breaks a foreign key, as `PRAGMA foreign_key_check` reports it.
///
/// ```swift
/// for violation in try Array(db.foreignKeyViolations()) {
///     print(try violation.failureDescription(db))
/// }
/// try db.checkForeignKeys() // throws the first violation
/// ```
public struct ForeignKeyViolation: Sendable {
    /// The table of the referencing row.
    public var originTable: String
    /// The rowid of the referencing row (nil in a WITHOUT ROWID table).
    public var originRowID: Int64?
    /// The referenced table.
    public var destinationTable: String
    /// The ``ForeignKeyInfo/id`` of the broken foreign key.
    public var foreignKeyId: Int

    /// A violation from a row of `PRAGMA foreign_key_check`.
    public init(row: Row) {
        originTable = row[0]
        originRowID = row[1]
        destinationTable = row[2]
        foreignKeyId = row[3]
    }

    /// A description with the columns of the foreign key and the content
    /// of the referencing row:
    /// `FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:1 authorId:2]`.
    public func failureDescription(_ db: Database) throws -> String {
        var text = "FOREIGN KEY constraint violation - from \(originTable)"
        if let foreignKey = try db.foreignKeys(on: originTable).first(where: { $0.id == foreignKeyId }) {
            text += "(\(foreignKey.originColumns.joined(separator: ", "))) to \(destinationTable)"
            text += "(\(foreignKey.destinationColumns.joined(separator: ", ")))"
        } else {
            text += " to \(destinationTable)"
        }
        if let originRowID {
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = ?",
                arguments: [originRowID])
            text += ", in " + (row.map(String.init(describing:)) ?? "rowid \(originRowID)")
        }
        return text
    }

    /// The error that ``Database/checkForeignKeys()`` throws:
    /// `SQLITE_CONSTRAINT_FOREIGNKEY` with the ``failureDescription(_:)``.
    public func databaseError(_ db: Database) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
            message: (try? failureDescription(db)) ?? description)
    }
}

extension ForeignKeyViolation: CustomStringConvertible {
    /// `FOREIGN KEY constraint violation - from book to author, in rowid 1`
    public var description: String {
        var text = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID { text += ", in rowid \(originRowID)" }
        return text
    }
}
