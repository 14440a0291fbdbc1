import CSQLite

// `execute(named:)` for 1 to 16 values, one overload per count, preferred
// by the compiler to the variadic form of `Statement.swift`.
//
// Performance: in a parameter pack of `(String, each Value)` tuples, each
// element is a tuple of a type known only at run time; projecting its
// value asks the runtime for the tuple's metadata, for every value of
// every call (about 190 instructions a value). Fixed parameters are plain
// `(String, V)` tuples that specialize to concrete types: no metadata.

/// The state of an `execute(named:)` call, while it binds its values.
@usableFromInline
struct NamedValueBinding {
    @usableFromInline let statement: Statement
    /// The number of values bound so far.
    @usableFromInline var count = 0
    /// Bit i is set once parameter i + 1 has its value.
    @usableFromInline var bound: UInt64 = 0
    /// The first binding error, if any.
    @usableFromInline var code = SQLITE_OK

    @inlinable
    init(statement: Statement) {
        self.statement = statement
    }

    /// Binds `value` to the parameter named `name`.
    @inlinable
    @inline(__always)
    mutating func bind<Value: DatabaseValueConvertible>(_ name: String, _ value: Value) throws {
        let offset = try statement.parameterOffset(named: name, hint: count)
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: offset)
        if bound & bit != 0 { try statement.rejectNamedValues(duplicate: name) }
        bound |= bit
        if code == SQLITE_OK {
            code = value.bind(to: statement.sqliteStatement, at: CInt(truncatingIfNeeded: offset &+ 1))
        }
        count &+= 1
    }
}

extension Statement {
    /// `execute(named:)` with 1 value.
    @inlinable
    @_spi(GRDBLite)
    public func execute(named v0: (String, some DatabaseValueConvertible)) throws {
        try executeNamed(
            { try $0.bind(v0.0, v0.1) },
            arguments: { namedDatabaseValues(v0) })
    }

    /// `execute(named:)` with 2 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1) },
            arguments: { namedDatabaseValues(v0, v1) })
    }

    /// `execute(named:)` with 3 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1) },
            arguments: { namedDatabaseValues(v0, v1, v2) })
    }

    /// `execute(named:)` with 4 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3) })
    }

    /// `execute(named:)` with 5 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4) })
    }

    /// `execute(named:)` with 6 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5) })
    }

    /// `execute(named:)` with 7 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6) })
    }

    /// `execute(named:)` with 8 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7) })
    }

    /// `execute(named:)` with 9 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8) })
    }

    /// `execute(named:)` with 10 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible),
        _ v9: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1); try $0.bind(v9.0, v9.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9) })
    }

    /// `execute(named:)` with 11 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible),
        _ v9: (String, some DatabaseValueConvertible), _ v10: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1); try $0.bind(v9.0, v9.1); try $0.bind(v10.0, v10.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10) })
    }

    /// `execute(named:)` with 12 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible),
        _ v9: (String, some DatabaseValueConvertible), _ v10: (String, some DatabaseValueConvertible),
        _ v11: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1); try $0.bind(v9.0, v9.1); try $0.bind(v10.0, v10.1); try $0.bind(v11.0, v11.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11) })
    }

    /// `execute(named:)` with 13 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible),
        _ v9: (String, some DatabaseValueConvertible), _ v10: (String, some DatabaseValueConvertible),
        _ v11: (String, some DatabaseValueConvertible), _ v12: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1); try $0.bind(v9.0, v9.1); try $0.bind(v10.0, v10.1); try $0.bind(v11.0, v11.1);
              try $0.bind(v12.0, v12.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12) })
    }

    /// `execute(named:)` with 14 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible),
        _ v9: (String, some DatabaseValueConvertible), _ v10: (String, some DatabaseValueConvertible),
        _ v11: (String, some DatabaseValueConvertible), _ v12: (String, some DatabaseValueConvertible),
        _ v13: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1); try $0.bind(v9.0, v9.1); try $0.bind(v10.0, v10.1); try $0.bind(v11.0, v11.1);
              try $0.bind(v12.0, v12.1); try $0.bind(v13.0, v13.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13) })
    }

    /// `execute(named:)` with 15 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible),
        _ v9: (String, some DatabaseValueConvertible), _ v10: (String, some DatabaseValueConvertible),
        _ v11: (String, some DatabaseValueConvertible), _ v12: (String, some DatabaseValueConvertible),
        _ v13: (String, some DatabaseValueConvertible), _ v14: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1); try $0.bind(v9.0, v9.1); try $0.bind(v10.0, v10.1); try $0.bind(v11.0, v11.1);
              try $0.bind(v12.0, v12.1); try $0.bind(v13.0, v13.1); try $0.bind(v14.0, v14.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14) })
    }

    /// `execute(named:)` with 16 values.
    @inlinable
    @_spi(GRDBLite)
    public func execute(
        named v0: (String, some DatabaseValueConvertible),
        _ v1: (String, some DatabaseValueConvertible), _ v2: (String, some DatabaseValueConvertible),
        _ v3: (String, some DatabaseValueConvertible), _ v4: (String, some DatabaseValueConvertible),
        _ v5: (String, some DatabaseValueConvertible), _ v6: (String, some DatabaseValueConvertible),
        _ v7: (String, some DatabaseValueConvertible), _ v8: (String, some DatabaseValueConvertible),
        _ v9: (String, some DatabaseValueConvertible), _ v10: (String, some DatabaseValueConvertible),
        _ v11: (String, some DatabaseValueConvertible), _ v12: (String, some DatabaseValueConvertible),
        _ v13: (String, some DatabaseValueConvertible), _ v14: (String, some DatabaseValueConvertible),
        _ v15: (String, some DatabaseValueConvertible)) throws
    {
        try executeNamed(
            { try $0.bind(v0.0, v0.1); try $0.bind(v1.0, v1.1); try $0.bind(v2.0, v2.1); try $0.bind(v3.0, v3.1);
              try $0.bind(v4.0, v4.1); try $0.bind(v5.0, v5.1); try $0.bind(v6.0, v6.1); try $0.bind(v7.0, v7.1);
              try $0.bind(v8.0, v8.1); try $0.bind(v9.0, v9.1); try $0.bind(v10.0, v10.1); try $0.bind(v11.0, v11.1);
              try $0.bind(v12.0, v12.1); try $0.bind(v13.0, v13.1); try $0.bind(v14.0, v14.1);
              try $0.bind(v15.0, v15.1) },
            arguments: { namedDatabaseValues(v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15) })
    }
}
