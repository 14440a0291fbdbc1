import CSQLite
import Foundation

/// The keyed container of a row.
///
/// A struct of an unmanaged reference, so that copying it involves no
/// reference counting: the standard library's container box copies it for
/// every decoded value. Its state must be kept alive by the caller: the
/// row's ``RowDecoderCache`` for the containers of cursor rows (and the
/// registry of kept states once the row is gone), an
/// ``OwningRowKeyedDecodingContainer`` otherwise.
@usableFromInline
struct RowKeyedDecodingContainer<Record: FetchableRecord, Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// Unmanaged: the row's decoder cache, or an owning container, keeps the state alive.
    @usableFromInline let unmanagedState: Unmanaged<RowDecodingState>
    /// Whether keys are column names (`.useDefaultKeys`).
    @usableFromInline let usesDefaultKeys: Bool

    /// A container whose state is kept alive by the caller.
    @usableFromInline
    init(state: RowDecodingState) {
        // Unretained: the caller keeps the state alive while the container is used.
        self.unmanagedState = Unmanaged.passUnretained(state)
        if case .useDefaultKeys = Record.databaseColumnDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
    }

    @usableFromInline
    static func makeState(row: Row, codingPath: [any CodingKey]) -> RowDecodingState {
        var columnForKey: [String: String] = [:]
        var usesDefaultKeys = false
        let strategy = Record.databaseColumnDecodingStrategy
        if case .useDefaultKeys = strategy { usesDefaultKeys = true } else {
            // The last column of a key wins, as in GRDB (`createdAt` and
            // `created_at` with `.convertFromSnakeCase`).
            for column in row.columnNames {
                columnForKey[strategy.keyName(forColumn: column)] = column
            }
        }
        // The plan matches keys by their byte (see `RowDecodingState`).
        let usesPlan = usesDefaultKeys && ColumnLookup.bitsSize(of: Key.self) == 1
        return RowDecodingState(row: row, codingPath: codingPath, columnForKey: columnForKey, usesPlan: usesPlan)
    }

    var state: RowDecodingState { unmanagedState.takeUnretainedValue() }

    @usableFromInline
    var codingPath: [any CodingKey] { state.codingPath }

    /// Runs `body` with the row, without reference counting; traps if the
    /// container outlived its row.
    @inlinable
    func withRow<T>(_ body: (Row) throws -> T) rethrows -> T {
        // Unretained: the state is alive (see `unmanagedState`), and so is
        // its row while it is not nil.
        guard let row = unmanagedState._withUnsafeGuaranteedRef({ $0.unmanagedRow }) else {
            RowDecodingState.rowIsGone()
        }
        // Unretained: the state, alive, holds the row until it is released.
        return try row._withUnsafeGuaranteedRef(body)
    }

    @usableFromInline
    var row: Row { withRow { $0 } }

    // MARK: Keys

    @usableFromInline
    func columnName(forKey key: Key) -> String {
        if usesDefaultKeys { return key.stringValue }
        return state.columnForKey[key.stringValue] ?? key.stringValue
    }

    /// The statement and column of the key, when the key plan knows them
    /// (see ``RowDecodingState``): the fast path of every lookup.
    @inlinable
    // @inline(__always): fetch-decodable, +2.4% instructions without it (callgrind, quick).
    @inline(__always)
    func plannedColumn(forKey key: Key) -> (SQLiteStatement, CInt)? {
        // Unretained: the state is alive (see `unmanagedState`).
        unmanagedState._withUnsafeGuaranteedRef { state in
            let position = state.planPosition
            // A plan exists only for one-byte keys, and while the row lives.
            guard position < state.planCount else { return nil }
            // Unsafe: there is a plan below `planCount`.
            let planned = state.plan.unsafelyUnwrapped[position]
            // Unsafe: the key's byte, only compared (keys are one byte
            // when there is a plan).
            guard planned.key == unsafeBitCast(key, to: UInt8.self), planned.column >= 0 else { return nil }
            #if DEBUG
            state.checkPlannedKey(key.stringValue, column: planned.column)
            #endif
            state.planPosition = position &+ 1
            // Unsafe: a plan exists only with a statement.
            return (state.sqliteStatement.unsafelyUnwrapped, planned.column)
        }
    }

    /// The index of the key's column in `row`, or nil.
    @inlinable
    func columnIndex(forKey key: Key, in row: Row) -> Int? {
        if let (_, column) = plannedColumn(forKey: key) { return Int(column) &- row.offset }
        return lookUpColumnIndex(forKey: key, in: row)
    }

    /// The index of the key's column in `row`, or nil, by name; remembered
    /// in the key plan.
    @usableFromInline
    @inline(never)
    func lookUpColumnIndex(forKey key: Key, in row: Row) -> Int? {
        guard usesDefaultKeys else { return row.index(forColumn: columnName(forKey: key)) }
        let index = row.index(forCodingKey: key)
        if ColumnLookup.bitsSize(of: Key.self) == 1 {
            // Unsafe: the key's byte (its size is checked), only compared.
            state.remember(key: unsafeBitCast(key, to: UInt8.self), index: index)
        }
        return index
    }

    @usableFromInline
    var allKeys: [Key] {
        var names = usesDefaultKeys ? Set(row.columnNames) : Set(state.columnForKey.keys)
        names.formUnion(row.scopesTree.names)
        names.formUnion(row.prefetchedRows.keys)
        return names.compactMap(Key.init(stringValue:))
    }

    @usableFromInline
    func contains(_ key: Key) -> Bool {
        columnIndex(forKey: key, in: row) != nil
            || row.scopesTree[key.stringValue] != nil
            || row.prefetchedRows[key.stringValue] != nil
    }

    @usableFromInline
    func decodeNil(forKey key: Key) throws -> Bool {
        if let index = columnIndex(forKey: key, in: row) {
            return row.hasNull(atUncheckedIndex: index)
        }
        if let scope = row.scopesTree[key.stringValue] {
            return !scope.containsNonNullValue
        }
        return row.prefetchedRows[key.stringValue] == nil
    }
}
