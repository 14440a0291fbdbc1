import CSQLite

// An optional is NULL when nil. Reading NULL or a missing column gives nil;
// a value that does not convert to the wrapped type is still an error.

extension Optional: SQLExpressible where Wrapped: DatabaseValueConvertible { }

extension Optional: StatementBinding where Wrapped: DatabaseValueConvertible { }

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        self?.databaseValue ?? .null
    }

    /// The wrapped type converts first, as in GRDB: `DatabaseValue?` reads
    /// NULL as `.null`, not nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(.some(value)) }
        if dbValue.isNull { return .some(.none) }
        return nil
    }

    public static func fromMissingColumn() -> Self? { .some(.none) }

    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        if let self { return self.bind(to: sqliteStatement, at: index) }
        return sqlite3_bind_null(sqliteStatement, index)
    }
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }

    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        if let value = Wrapped.fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return .some(.some(value))
        }
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            return .some(.none)
        }
        return nil
    }
}
