import CSQLite
import Foundation

extension RowKeyedDecodingContainer {
    // MARK: Any Decodable

    // Dates and decimals of a planned column take the fast path, inlined in
    // the witnesses (a decimal read straight from its column, as GRDB does);
    // other values, mismatches, and the first record, an outlined function.

    @inlinable
    // @inline(__always): fetch-decimals-decodable, +2.5% instructions without it and decodeColumn (callgrind, quick).
    @inline(__always)
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self == Date.self, let (sqliteStatement, column) = plannedColumn(forKey: key) {
            let date = try plannedDefaultDate(sqliteStatement: sqliteStatement, column: column)
                ?? decodePlannedDate(sqliteStatement: sqliteStatement, column: column)
            // Unsafe: T is Date (a cast with `as!` is a runtime call).
            return unsafeBitCast(date, to: T.self)
        }
        if T.self == Decimal.self, let (sqliteStatement, column) = plannedColumn(forKey: key),
           let decimal = Decimal(sqliteStatement: sqliteStatement, index: column)
        {
            // Unsafe: T is Decimal.
            return unsafeBitCast(decimal, to: T.self)
        }
        return try decodeSlowly(T.self, forKey: key)
    }

    @usableFromInline
    @inline(never)
    func decodeSlowly<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let index = columnIndex(forKey: key, in: row) {
            return try RecordValueDecoding<Record>.decode(
                T.self, row: row, columnIndex: index, codingPath: codingPath + [key])
        }
        if let scope = row.scopesTree[key.stringValue] {
            return try RecordValueDecoding<Record>.decodeRecord(T.self, from: scope, codingPath: codingPath + [key])
        }
        if let rows = row.prefetchedRows[key.stringValue] {
            return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]))
        }
        if let decodedRootKey = state.decodedRootKey {
            // Only one key may be decoded from the whole row: either one is
            // missing. GRDB's wording, which names both.
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                    debugDescription:
                        "No such key: \([decodedRootKey, key.stringValue].sorted().joined(separator: " or "))"))
        }
        let state = self.state
        state.decodedRootKey = key.stringValue
        // A record of the same type, decoded from the same row, gets this
        // same cached container and starts a record of its own: this
        // record's root key and plan position come back after it.
        let position = state.planPosition
        defer { (state.decodedRootKey, state.planPosition) = (key.stringValue, position) }
        return try RecordValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath + [key])
    }

    @inlinable
    @inline(__always)
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if T.self == Date.self, let (sqliteStatement, column) = plannedColumn(forKey: key) {
            if let date = plannedDefaultDate(sqliteStatement: sqliteStatement, column: column) {
                // Unsafe: T is Date.
                return unsafeBitCast(date, to: T.self)
            }
            if sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL { return nil }
            let date = try decodePlannedDate(sqliteStatement: sqliteStatement, column: column)
            // Unsafe: T is Date.
            return unsafeBitCast(date, to: T.self)
        }
        if T.self == Decimal.self, let (sqliteStatement, column) = plannedColumn(forKey: key) {
            if sqlite3_column_type(sqliteStatement, column) == SQLITE_NULL { return nil }
            if let decimal = Decimal(sqliteStatement: sqliteStatement, index: column) {
                // Unsafe: T is Decimal.
                return unsafeBitCast(decimal, to: T.self)
            }
        }
        return try decodeIfPresentSlowly(T.self, forKey: key)
    }

    @usableFromInline
    @inline(never)
    func decodeIfPresentSlowly<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if let index = columnIndex(forKey: key, in: row) {
            if row.hasNull(atUncheckedIndex: index) { return nil }
            return try RecordValueDecoding<Record>.decode(
                T.self, row: row, columnIndex: index, codingPath: codingPath + [key])
        }
        if let scope = row.scopesTree[key.stringValue] {
            // A left join without match has only NULL values.
            guard scope.containsNonNullValue else { return nil }
            return try RecordValueDecoding<Record>.decodeRecord(T.self, from: scope, codingPath: codingPath + [key])
        }
        if let rows = row.prefetchedRows[key.stringValue] {
            return try T(from: PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]))
        }
        return nil
    }

    /// The date in the column that the plan has just found, if the plan
    /// knows that it reads dates with `.deferredToDate` and the column
    /// holds one; nil otherwise (`decodePlannedDate` then decides).
    @inlinable
    func plannedDefaultDate(sqliteStatement: SQLiteStatement, column: CInt) -> Date? {
        // Unretained: the state is alive (see `unmanagedState`).
        guard unmanagedState._withUnsafeGuaranteedRef({ $0.lastPlannedColumnReadsDefaultDates }) else { return nil }
        return Date.fromStatement(sqliteStatement, atUncheckedIndex: column)
    }

    /// The date in the column that the plan has just found, with the
    /// record's strategy for that column: the default strategy reads the
    /// column's bytes, as `RecordValueDecoding` does, without its generic
    /// steps, and is remembered in the plan. The row is alive (see
    /// `forgetRow()`).
    @usableFromInline
    @inline(never)
    func decodePlannedDate(sqliteStatement: SQLiteStatement, column: CInt) throws -> Date {
        // Unretained: the state is alive (see `unmanagedState`).
        let strategy = unmanagedState._withUnsafeGuaranteedRef { state in
            // The plan entry of this column, before the record's code runs.
            let position = state.planPosition &- 1
            let strategy = Record.databaseDateDecodingStrategy(for: state.statementColumnNames[Int(column)])
            if case .deferredToDate = strategy { state.rememberDefaultDates(at: position) }
            return strategy
        }
        if case .deferredToDate = strategy, let date = Date.fromStatement(sqliteStatement, atUncheckedIndex: column) {
            return date
        }
        return try withRow { row in
            try strategy.decode(row: row, columnIndex: Int(column) &- row.offset)
        }
    }

    @usableFromInline
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
    {
        if let scope = row.scopesTree[key.stringValue] {
            return KeyedDecodingContainer(OwningRowKeyedDecodingContainer<Record, NestedKey>(
                row: scope, codingPath: codingPath + [key]))
        }
        throw DecodingError.typeMismatch(KeyedDecodingContainer<NestedKey>.self, DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: "no scope named \(String(reflecting: key.stringValue)) in row \(row)"))
    }

    @usableFromInline
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        if let rows = row.prefetchedRows[key.stringValue] {
            return PrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key])
        }
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: "no prefetched rows for key \(String(reflecting: key.stringValue))"))
    }

    @usableFromInline
    func superDecoder() throws -> any Decoder {
        NestedRowDecoder<Record>(row: row, codingPath: codingPath)
    }

    @usableFromInline
    func superDecoder(forKey key: Key) throws -> any Decoder {
        NestedRowDecoder<Record>(row: row, codingPath: codingPath + [key])
    }
}
