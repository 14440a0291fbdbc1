import CSQLite

// Enums and other `RawRepresentable` types whose raw value is a database
// value get database powers by declaring the conformance:
//
//     enum Color: String { case red, white }
//     extension Color: DatabaseValueConvertible { }
//
// A raw value that matches no case does not convert (an error, or a trap
// through a row subscript).

extension DatabaseValueConvertible where Self: RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        RawValue.fromDatabaseValue(dbValue).flatMap(Self.init(rawValue:))
    }
}

extension StatementColumnConvertible where Self: RawRepresentable, Self.RawValue: StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let rawValue = RawValue(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(rawValue: rawValue)
    }

    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        RawValue.fromStatement(sqliteStatement, atUncheckedIndex: index).flatMap(Self.init(rawValue:))
    }
}

// A generic wrapper can get its SQL powers from its raw value, one protocol
// at a time, as in GRDB:
//
//     struct Wrapper<RawValue>: RawRepresentable { var rawValue: RawValue }
//     extension Wrapper: SQLExpressible where RawValue: SQLExpressible { }
//     extension Wrapper: StatementBinding where RawValue: StatementBinding { }
//     extension Wrapper: DatabaseValueConvertible where RawValue: DatabaseValueConvertible { }

extension SQLExpressible where Self: RawRepresentable, Self.RawValue: SQLExpressible {
    public var sqlExpression: SQLExpression {
        rawValue.sqlExpression
    }
}

extension StatementBinding where Self: RawRepresentable, Self.RawValue: StatementBinding {
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        rawValue.bind(to: sqliteStatement, at: index)
    }
}

extension SQLSelectable where Self: RawRepresentable, Self.RawValue: SQLSelectable {
    public var sqlSelection: SQLSelection {
        rawValue.sqlSelection
    }
}

extension SQLOrderingTerm where Self: RawRepresentable, Self.RawValue: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering {
        rawValue.sqlOrdering
    }
}
