import CSQLite

// An optional is NULL when nil. Reading NULL or a missing column gives nil;
// a value that does not convert to the wrapped type is still an error.

// An optional expression is NULL when nil, and its wrapped expression
// otherwise: `Column?` and `SQLExpression?` are expressions, with their
// operators (`optionalColumn == 1`), orderings and selections.

extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    /// The wrapped expression, or NULL.
    public var sqlExpression: SQLExpression {
        self?.sqlExpression ?? .null
    }
}

extension Optional: SQLOrderingTerm where Wrapped: SQLOrderingTerm {
    /// The wrapped ordering, or NULL.
    public var sqlOrdering: SQLOrdering {
        self?.sqlOrdering ?? .expression(.null)
    }
}

extension Optional: SQLSelectable where Wrapped: SQLSelectable {
    /// The wrapped selection, or NULL.
    public var sqlSelection: SQLSelection {
        self?.sqlSelection ?? .expression(.null)
    }
}

extension Optional: SQLSpecificExpressible where Wrapped: SQLSpecificExpressible { }

extension Optional: StatementBinding where Wrapped: StatementBinding {
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        if let self { return self.bind(to: sqliteStatement, at: index) }
        return sqlite3_bind_null(sqliteStatement, index)
    }
}

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
}

extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }

    @inlinable
    // @inline(__always): fetch-wide-macro-records, +0.6% instructions without it (callgrind, quick).
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
