import CSQLite
import Foundation

// Decodable records: each coding key reads, in this order, the column of
// the same name (through `databaseColumnDecodingStrategy`), the row scope of
// that name (a joined record), or the prefetched rows of that name (a
// to-many association). A key that matches nothing decodes a nested record
// from the whole row, once (for types such as `struct BookInfo { var book:
// Book; var author: Author }` where `book` is the base row).
//
// Values that are `DatabaseValueConvertible` read their column directly;
// other `Decodable` values (nested structs, arrays...) are decoded from the
// JSON text of their column.
//
// Performance: the keyed container is built once per cursor and reused for
// every row, and coding keys find their column through its key plan (the
// column of the n-th key of the previous record, see `RowDecodingState`),
// so decoding a record allocates nothing beyond the record itself.
//
// Lifetimes: `init(from:)` may keep the decoder or a container beyond its
// return. Decoders, single value, unkeyed and nested containers own their
// rows: they stay valid. The cached keyed container refers to its row
// without retaining it (see `RowKeyedDecodingContainer`): once the row is
// gone, using a kept container traps with an explanation, instead of
// reading freed memory.

extension FetchableRecord where Self: Decodable {
    /// Decodes a record from a row: each coding key reads the column of the
    /// same name.
    @inlinable
    public init(row: Row) throws {
        self = try Self(from: RowDecoder<Self>(row: row))
    }
}

/// Decodes `Decodable` records from rows, as `init(row:)` does: for
/// records whose `init(row:)` does more than decode.
///
/// ```swift
/// struct Player: Decodable, FetchableRecord {
///     init(row: Row) throws {
///         self = try FetchableRecordDecoder().decode(Player.self, from: row)
///         // ...
///     }
/// }
/// ```
public class FetchableRecordDecoder {
    /// A decoder.
    public init() { }

    /// The record of type `type` decoded from `row`, with the decoding
    /// strategies of `type`.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        try T(from: RowDecoder<T>(row: row))
    }
}

/// The `Decoder` of `Decodable` records decoded from a whole row. It holds
/// the row only: building and destroying it for every record costs one
/// retain and one release.
@usableFromInline
struct RowDecoder<Record: FetchableRecord>: Decoder {
    @usableFromInline let row: Row

    @inlinable
    init(row: Row) {
        self.row = row
    }

    @usableFromInline
    var codingPath: [any CodingKey] { [] }

    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // Rows of a cursor are the same object for every record: reuse the
        // container built for the first one.
        RowDecoderCache.container(Record.self, keyedBy: type, row: row)
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try NestedRowDecoder<Record>(row: row, codingPath: []).unkeyedContainer()
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try NestedRowDecoder<Record>(row: row, codingPath: []).singleValueContainer()
    }
}

/// The `Decoder` of a value decoded from a row at a coding path: a nested
/// record, a super decoder. Its keyed containers own their state.
struct NestedRowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if codingPath.isEmpty {
            return RowDecoderCache.container(Record.self, keyedBy: type, row: row)
        }
        return KeyedDecodingContainer(OwningRowKeyedDecodingContainer<Record, Key>(row: row, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "a database row is not a list: decode a to-many association with including(all:)"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard let key = codingPath.last else {
            // A single value of the whole row: its first column.
            return ColumnDecoder<Record>(row: row, columnIndex: 0, codingPath: codingPath, recordFromRow: true)
        }
        guard let index = row.index(forColumn: key.stringValue) else {
            throw RowDecodingError.columnNotFound(key.stringValue, type: Any.self, row: row)
        }
        return ColumnDecoder<Record>(row: row, columnIndex: index, codingPath: codingPath, recordFromRow: false)
    }
}

/// The keyed containers of the records decoded from a row, built for the
/// first record and reused for the next ones: the row of a cursor is the
/// same object for every record. Core keeps it in the row (``RowCache``).
///
/// Containers are identified by their generic arguments, which
/// unspecialized code has at hand (unlike the metadata of the container
/// type). They are never replaced: a container in use (the one of a record
/// that decodes another record from the same row) must keep its state.
@usableFromInline
final class RowDecoderCache: RowCache {
    /// The container of the row's records.
    @usableFromInline let first: CachedDecodingContainer
    /// The containers of other records decoded from the row.
    /// Unchecked exclusivity: used by the one thread that uses the row.
    @exclusivity(unchecked) var others: [CachedDecodingContainer] = []

    init(first: CachedDecodingContainer) {
        self.first = first
    }

    /// The keyed container of `Record` and `Key` in `row`: inlined in the
    /// decoder, without retaining the cache (`withCache(ofType:_:)`).
    @inlinable
    @inline(__always)
    static func container<Record: FetchableRecord, Key: CodingKey>(
        _ record: Record.Type,
        keyedBy type: Key.Type,
        row: Row) -> KeyedDecodingContainer<Key>
    {
        row.withCache(ofType: RowDecoderCache.self) { cache in
            if let first = cache?.first, first.record == ObjectIdentifier(Record.self),
               first.key == ObjectIdentifier(Key.self)
            {
                first.state.startRecord()
                // Unsafe: the entry of these record and key types is typed.
                return unsafeDowncast(first, to: TypedCachedDecodingContainer<KeyedDecodingContainer<Key>>.self)
                    .container()
            }
            return otherContainer(Record.self, keyedBy: Key.self, row: row)
        }
    }

    /// The container when it is not the row's first one; creates it if
    /// needed.
    @usableFromInline
    static func otherContainer<Record: FetchableRecord, Key: CodingKey>(
        _ record: Record.Type,
        keyedBy type: Key.Type,
        row: Row) -> KeyedDecodingContainer<Key>
    {
        guard CodingContainerBox.isAvailable else {
            // Kept containers can't be detected: use containers that own
            // their row.
            return KeyedDecodingContainer(OwningRowKeyedDecodingContainer<Record, Key>(row: row, codingPath: []))
        }
        let recordID = ObjectIdentifier(Record.self)
        let keyID = ObjectIdentifier(Key.self)
        let cache = row.cache(ofType: RowDecoderCache.self)
        if let cache, let entry = cache.others.first(where: { $0.record == recordID && $0.key == keyID }) {
            entry.state.startRecord()
            // Unsafe: see `container(_:keyedBy:row:)`.
            return unsafeDowncast(entry, to: TypedCachedDecodingContainer<KeyedDecodingContainer<Key>>.self)
                .container()
        }
        // The row owns this cache, which owns the state: the state must
        // not retain the row.
        let state = RowKeyedDecodingContainer<Record, Key>.makeState(row: row, codingPath: [])
        let container = KeyedDecodingContainer(RowKeyedDecodingContainer<Record, Key>(state: state))
        let entry = TypedCachedDecodingContainer<KeyedDecodingContainer<Key>>(
            record: recordID, key: keyID, state: state, box: CodingContainerBox.box(of: container))
        if let cache {
            cache.others.append(entry)
        } else {
            row.setCache(RowDecoderCache(first: entry))
        }
        return container
    }
}

/// A keyed container in a ``RowDecoderCache`` (the box of a
/// `KeyedDecodingContainer`), with the state it reads. Entries are
/// ``TypedCachedDecodingContainer``.
@usableFromInline
class CachedDecodingContainer {
    @usableFromInline let record: ObjectIdentifier
    @usableFromInline let key: ObjectIdentifier
    @usableFromInline let state: RowDecodingState
    /// Unchecked exclusivity: used by the one thread that uses the row.
    @usableFromInline @exclusivity(unchecked) var box: AnyObject

    /// Only the typed subclass is made.
    fileprivate init(record: ObjectIdentifier, key: ObjectIdentifier, state: RowDecodingState, box: AnyObject) {
        self.record = record
        self.key = key
        self.state = state
        self.box = box
    }

    /// The row is gone (it owns this entry): a container that the user
    /// kept must trap instead of reading it, so its state must outlive it.
    deinit {
        state.forgetRow()
        if !isKnownUniquelyReferenced(&box) {
            RowDecodingState.keep(state, whileBoxLives: box)
        }
    }
}

/// The cached keyed container of type `Container` (see
/// ``CodingContainerReader``: its method finds the container's metadata
/// in its own class).
@usableFromInline
final class TypedCachedDecodingContainer<Container>: CachedDecodingContainer {
    /// The container whose box this entry holds. Never inlined: see
    /// ``CodingContainerReader/read(_:)``.
    @usableFromInline
    @inline(never)
    func container() -> Container {
        // Unsafe: the container is a single reference
        // (`CodingContainerBox.isAvailable`).
        unsafeBitCast(box, to: Container.self)
    }
}

/// What a keyed container of a row reads beyond the row's values.
@usableFromInline
final class RowDecodingState {
    /// The row of the containers, without retaining it: the row owns the
    /// cached containers. Nil once the row is gone.
    /// Unchecked exclusivity: read for every decoded value, by the one
    /// thread that uses the row.
    @usableFromInline @exclusivity(unchecked) var unmanagedRow: Unmanaged<Row>?
    let codingPath: [any CodingKey]
    /// Column names by key name, for column decoding strategies other
    /// than `.useDefaultKeys`.
    let columnForKey: [String: String]
    /// The key decoded from the whole row, if any (it can happen once per
    /// record).
    /// Unchecked exclusivity: reset for every record on the hot path, by
    /// the one thread that uses the row.
    @usableFromInline @exclusivity(unchecked) var decodedRootKey: String?

    // The key plan: the statement column of the n-th key looked up in a
    // record, remembered from the previous record, so that the next
    // record, which decodes the same keys in the same order, finds each
    // column with one compare of the key's byte. Only for one-byte keys
    // (the synthesized `CodingKeys`) named as their column, in a row of a
    // statement. A key that differs takes the slow path, which looks the
    // column up by name and remembers it at this position. The first
    // record remembers nothing: a single record (`fetchOne`) allocates no
    // plan.

    /// The row's statement, if the plan is used.
    @usableFromInline let sqliteStatement: SQLiteStatement?
    /// The statement's column names, if the plan is used.
    let statementColumnNames: [String]
    /// The row's first column in its statement.
    let offset: Int
    /// The position of the next key lookup in the current record.
    /// Unchecked exclusivity: see `unmanagedRow`.
    @usableFromInline @exclusivity(unchecked) var planPosition = 0
    /// The number of planned lookups; 0 once the row is gone, so that the
    /// fast path never reads a statement that may be finalized.
    /// Unchecked exclusivity: see `unmanagedRow`.
    @usableFromInline @exclusivity(unchecked) var planCount = 0
    let planCapacity: Int
    /// Whether `startRecord()` was never called: the first record is
    /// being decoded.
    /// Unchecked exclusivity: see `unmanagedRow`.
    @usableFromInline @exclusivity(unchecked) var isFirstRecord = true
    // Owned: allocated by the second record, freed in deinit.
    // Unchecked exclusivity: see `unmanagedRow`.
    @usableFromInline @exclusivity(unchecked) var plan: UnsafeMutablePointer<PlannedColumn>?

    /// A remembered lookup: the key's byte, and its column in the
    /// statement (-1 if missing). Whether the column's dates are read with
    /// `.deferredToDate` is remembered when a date is first read there:
    /// the record's `databaseDateDecodingStrategy(for:)` is asked once per
    /// column and cursor, not for every row.
    @usableFromInline
    struct PlannedColumn {
        @usableFromInline var key: UInt8
        @usableFromInline var readsDefaultDates = false
        @usableFromInline var column: CInt
    }

    init(row: Row, codingPath: [any CodingKey], columnForKey: [String: String], usesPlan: Bool) {
        // Unretained: the caller keeps the row alive (see `unmanagedRow`).
        self.unmanagedRow = Unmanaged.passUnretained(row)
        self.codingPath = codingPath
        self.columnForKey = columnForKey
        self.sqliteStatement = usesPlan ? row.sqliteStatement : nil
        self.statementColumnNames = sqliteStatement == nil ? [] : row.statement?.columnNames ?? []
        self.offset = row.offset
        // Records may look up more keys than columns (`decodeNil` before
        // `decode`, keys of scopes and missing columns): lookups beyond the
        // capacity are never planned, only slower.
        self.planCapacity = sqliteStatement == nil ? 0 : 2 * row.count + 8
    }

    deinit {
        plan?.deallocate()
    }

    /// Forgets what the previous record of a cached container decoded.
    @inlinable
    @inline(__always)
    func startRecord() {
        planPosition = 0
        isFirstRecord = false
        if _slowPath(decodedRootKey != nil) { decodedRootKey = nil }
    }

    func forgetRow() {
        unmanagedRow = nil
        planCount = 0
    }

    /// The error of a planned column whose value can't convert: the
    /// error that decoding it from the row throws.
    @usableFromInline
    @inline(never)
    func valueMismatch<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, column: CInt
    ) throws -> T {
        guard let unmanagedRow else { Self.rowIsGone() }
        // Unretained: the row is alive while `unmanagedRow` is not nil.
        return try unmanagedRow._withUnsafeGuaranteedRef { row in
            try row.fastDecode(T.self, atUncheckedIndex: Int(column) &- offset)
        }
    }

    /// Whether the column of the last planned lookup reads its dates with
    /// `.deferredToDate` (see `PlannedColumn`).
    @inlinable
    @inline(__always)
    var lastPlannedColumnReadsDefaultDates: Bool {
        // Unsafe: called after a planned lookup, below `planCount`.
        plan.unsafelyUnwrapped[planPosition &- 1].readsDefaultDates
    }

    /// Remembers that the column of a planned lookup reads its dates with
    /// `.deferredToDate`.
    func rememberDefaultDates(at position: Int) {
        guard let plan, position >= 0, position < planCount else { return }
        plan[position].readsDefaultDates = true
    }

    /// Remembers the lookup of the key at the current position, after a
    /// miss of the fast path.
    @usableFromInline
    func remember(key: UInt8, index: Int?) {
        guard sqliteStatement != nil, !isFirstRecord else { return }
        let plan = self.plan ?? {
            let plan = UnsafeMutablePointer<PlannedColumn>.allocate(capacity: planCapacity)
            self.plan = plan
            return plan
        }()
        let position = planPosition
        let entry = PlannedColumn(key: key, column: index.map { CInt(truncatingIfNeeded: offset &+ $0) } ?? -1)
        if position < planCount {
            plan[position] = entry
        } else if position == planCount && position < planCapacity {
            (plan + position).initialize(to: entry)
            planCount += 1
        }
        planPosition = position &+ 1
    }

    /// The state of a kept container whose row is gone, with the box of
    /// the container.
    ///
    /// `@unchecked Sendable`: once registered, the state is never written
    /// again (its row is already nil), and the box is only used for its
    /// reference count, which is atomic.
    private struct KeptState: @unchecked Sendable {
        var box: AnyObject
        let state: RowDecodingState
    }

    /// A state lives until the user releases the container, whose box is
    /// then only referenced here.
    private static let keptStates = Locked<[KeptState]>([])

    static func keep(_ state: RowDecodingState, whileBoxLives box: AnyObject) {
        let kept = KeptState(box: box, state: state)
        keptStates.withLock { keptStates in
            var index = keptStates.startIndex
            while index < keptStates.endIndex {
                if isKnownUniquelyReferenced(&keptStates[index].box) {
                    keptStates.remove(at: index)
                } else {
                    index += 1
                }
            }
            keptStates.append(kept)
        }
    }

    @usableFromInline
    static func rowIsGone() -> Never {
        fatalError("""
            A KeyedDecodingContainer of a record was used after its row was released: \
            a container given to `init(from:)` is valid while the row it decodes lives. \
            Decode values inside `init(from:)` instead of keeping the container.
            """)
    }
}

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
        // Unretained: see `unmanagedState`.
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
            for column in row.columnNames where columnForKey[strategy.keyName(forColumn: column)] == nil {
                columnForKey[strategy.keyName(forColumn: column)] = column
            }
        }
        // The plan matches keys by their byte (see `RowDecodingState`).
        let usesPlan = usesDefaultKeys && ColumnLookup.bitsSize(of: Key.self) == 1
        return RowDecodingState(row: row, codingPath: codingPath, columnForKey: columnForKey, usesPlan: usesPlan)
    }

    private var state: RowDecodingState { unmanagedState.takeUnretainedValue() }

    @usableFromInline
    var codingPath: [any CodingKey] { state.codingPath }

    /// Runs `body` with the row, without reference counting; traps if the
    /// container outlived its row.
    @inlinable
    @inline(__always)
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
            state.planPosition = position &+ 1
            // Unsafe: a plan exists only with a statement.
            return (state.sqliteStatement.unsafelyUnwrapped, planned.column)
        }
    }

    /// The index of the key's column in `row`, or nil.
    @inlinable
    @inline(__always)
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

    // MARK: Columns with the fast path

    // The fast paths below read the planned column. Every other case
    // (the first record, a key out of plan, an error) calls an outlined
    // function in tail position, so that the witnesses keep a small frame.

    @inlinable
    @inline(__always)
    func decodeColumn<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, forKey key: Key) throws
        -> T
    {
        if let (sqliteStatement, column) = plannedColumn(forKey: key) {
            if let value = T.fromStatement(sqliteStatement, atUncheckedIndex: column) { return value }
            // Unretained: the state is alive (see `unmanagedState`); a
            // retain on the error path keeps generic context out of it.
            return try unmanagedState.takeUnretainedValue().valueMismatch(T.self, column: column)
        }
        return try decodeColumnSlowly(T.self, forKey: key)
    }

    @inlinable
    @inline(__always)
    func decodeColumnIfPresent<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T? {
        if let (sqliteStatement, column) = plannedColumn(forKey: key) {
            if let value = Optional<T>.fromStatement(sqliteStatement, atUncheckedIndex: column) { return value }
            // Unretained: the state is alive (see `unmanagedState`); a
            // retain on the error path keeps generic context out of it.
            return try unmanagedState.takeUnretainedValue().valueMismatch(T?.self, column: column)
        }
        return try decodeColumnIfPresentSlowly(T.self, forKey: key)
    }

    @usableFromInline
    @inline(never)
    func decodeColumnSlowly<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T {
        try withRow { row in
            guard let index = lookUpColumnIndex(forKey: key, in: row) else {
                throw RowDecodingError.columnNotFound(columnName(forKey: key), type: T.self, row: row)
            }
            return try row.fastDecode(T.self, atUncheckedIndex: index)
        }
    }

    @usableFromInline
    @inline(never)
    func decodeColumnIfPresentSlowly<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T? {
        try withRow { row in
            guard let index = lookUpColumnIndex(forKey: key, in: row) else { return nil }
            return try row.fastDecode(Optional<T>.self, atUncheckedIndex: index)
        }
    }

    // Each method inlines the fast path into its witness, which the standard
    // library's box calls for every value: no call chain. Int64's methods
    // don't: their witnesses would be Int's code, which the compiler merges
    // behind a slower thunk.
    @inlinable @inline(__always)
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decodeColumn(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decodeColumn(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeColumn(type, forKey: key) }
    @inlinable func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decodeColumn(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decodeColumn(type, forKey: key)
    }
    @inlinable func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decodeColumn(type, forKey: key)
    }

    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeColumnIfPresent(type, forKey: key)
    }

    // MARK: Any Decodable

    // Dates and decimals of a planned column take the fast path, inlined in
    // the witnesses (a decimal read straight from its column, as GRDB does);
    // other values, mismatches, and the first record, an outlined function.

    @inlinable
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
    @inline(__always)
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
            try RecordValueDecoding<Record>.decodeDate(strategy, row: row, columnIndex: Int(column) &- row.offset)
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

/// A keyed container that keeps its row and state alive: for nested
/// containers, which are not cached by their row.
final class OwningRowKeyedDecodingContainer<Record: FetchableRecord, Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let row: Row
    private let state: RowDecodingState
    private let base: RowKeyedDecodingContainer<Record, Key>

    init(row: Row, codingPath: [any CodingKey]) {
        self.row = row
        self.state = RowKeyedDecodingContainer<Record, Key>.makeState(row: row, codingPath: codingPath)
        self.base = RowKeyedDecodingContainer(state: state)
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }
    func contains(_ key: Key) -> Bool { base.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try base.decode(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try base.decode(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try base.decode(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try base.decode(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try base.decode(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try base.decode(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try base.decode(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try base.decode(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try base.decode(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try base.decode(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try base.decode(type, forKey: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try base.decode(type, forKey: key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try base.decodeIfPresent(type, forKey: key)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try base.nestedContainer(keyedBy: type, forKey: key)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try base.nestedUnkeyedContainer(forKey: key)
    }
    func superDecoder() throws -> any Decoder { try base.superDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder { try base.superDecoder(forKey: key) }
}

/// Decoding of values and nested records that are not the fast path.
enum RecordValueDecoding<Record: FetchableRecord> {
    /// Decodes column `columnIndex`: `Date` and `Data` with the record's
    /// strategies, database values directly, other types from a single
    /// value, or from JSON.
    ///
    /// `codingPath` is only built for values decoded with a decoder: an
    /// array of one more key costs an allocation per decoded value.
    static func decode<T: Decodable>(
        _ type: T.Type, row: Row, columnIndex index: Int,
        codingPath: @autoclosure () -> [any CodingKey]) throws -> T
    {
        if T.self == Date.self {
            let strategy = Record.databaseDateDecodingStrategy(for: row.columnName(atUncheckedIndex: index))
            // Unsafe: T is Date (a cast with `as!` is a runtime call).
            return unsafeBitCast(try decodeDate(strategy, row: row, columnIndex: index), to: T.self)
        }
        if T.self == Data.self {
            let dbValue = row.databaseValue(atUncheckedIndex: index)
            let column = row.columnName(atUncheckedIndex: index)
            guard let data = Record.databaseDataDecodingStrategy(for: column).decode(dbValue) else {
                throw RowDecodingError.valueMismatch(Data.self, row: row, columnIndex: index, databaseValue: dbValue)
            }
            // Unsafe: T is Data.
            return unsafeBitCast(data, to: T.self)
        }
        if let type = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            return try decodeFast(type, row: row, index: index) as! T
        }
        if let type = T.self as? any DatabaseValueConvertible.Type {
            return try decodeValue(type, row: row, index: index) as! T
        }
        do {
            return try T(
                from: ColumnDecoder<Record>(
                    row: row, columnIndex: index, codingPath: codingPath(), recordFromRow: false))
        } catch is JSONRequired {
            return try decodeJSON(T.self, row: row, columnIndex: index)
        }
    }

    /// Decodes a date with the strategy of its column.
    static func decodeDate(_ strategy: DatabaseDateDecodingStrategy, row: Row, columnIndex index: Int) throws -> Date {
        if case .deferredToDate = strategy {
            // The default: read from the column's bytes, as a `Date`
            // property of `init(row:)` reads, without the `String` of a
            // `DatabaseValue`. Same result as `Date.fromDatabaseValue`.
            return try row.fastDecode(Date.self, atUncheckedIndex: index)
        }
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        guard let date = strategy.decode(dbValue) else {
            throw RowDecodingError.valueMismatch(Date.self, row: row, columnIndex: index, databaseValue: dbValue)
        }
        return date
    }

    private static func decodeFast<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, row: Row, index: Int
    ) throws -> V {
        try row.fastDecode(V.self, atUncheckedIndex: index)
    }

    private static func decodeValue<V: DatabaseValueConvertible>(_ type: V.Type, row: Row, index: Int) throws -> V {
        try V.decode(fromRow: row, atUncheckedIndex: index)
    }

    /// Decodes a value stored as JSON text (or a blob of JSON).
    static func decodeJSON<T: Decodable>(_ type: T.Type, row: Row, columnIndex index: Int) throws -> T {
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: throw RowDecodingError.valueMismatch(T.self, row: row, columnIndex: index, databaseValue: dbValue)
        }
        do {
            return try Record.databaseJSONDecoder(for: row.columnName(atUncheckedIndex: index)).decode(
                T.self, from: data)
        } catch {
            throw RowDecodingError.valueMismatch(T.self, row: row, columnIndex: index, underlying: error)
        }
    }

    /// Decodes a nested record from a row (a scope, or the whole row).
    static func decodeRecord<T: Decodable>(_ type: T.Type, from row: Row, codingPath: [any CodingKey]) throws -> T {
        if let type = T.self as? any FetchableRecord.Type {
            return try type.init(row: row) as! T
        }
        return try T(from: NestedRowDecoder<Record>(row: row, codingPath: codingPath))
    }
}

/// Thrown when a value wants a keyed or unkeyed container: it is decoded
/// from JSON instead.
struct JSONRequired: Error { }

/// Decodes a single column.
struct ColumnDecoder<Record: FetchableRecord>: Decoder, SingleValueDecodingContainer {
    let row: Row
    let columnIndex: Int
    let codingPath: [any CodingKey]
    /// Whether `decode<T>` decodes records from the whole row (a single
    /// value container of the row itself).
    let recordFromRow: Bool

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if recordFromRow {
            return try NestedRowDecoder<Record>(row: row, codingPath: codingPath).container(keyedBy: type)
        }
        throw JSONRequired()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw JSONRequired() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        columnIndex >= row.count || row.hasNull(atUncheckedIndex: columnIndex)
    }

    private func value<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type) throws -> T {
        guard columnIndex < row.count else {
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "empty row"))
        }
        return try row.fastDecode(T.self, atUncheckedIndex: columnIndex)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if recordFromRow {
            if T.self is any DatabaseValueConvertible.Type, row.count > 0 {
                return try RecordValueDecoding<Record>.decode(T.self, row: row, columnIndex: 0, codingPath: codingPath)
            }
            return try RecordValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath)
        }
        return try RecordValueDecoding<Record>.decode(
            T.self, row: row, columnIndex: columnIndex, codingPath: codingPath)
    }
}

/// Decodes an array of records from prefetched rows.
struct PrefetchedRowsDecoder<Record: FetchableRecord>: Decoder, UnkeyedDecodingContainer {
    let rows: [Row]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(rows: [Row], codingPath: [any CodingKey]) {
        self.rows = rows
        self.codingPath = codingPath
    }

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }
    var count: Int? { rows.count }
    var isAtEnd: Bool { currentIndex >= rows.count }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(KeyedDecodingContainer<Key>.self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as an array"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { self }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as an array"))
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no more rows"))
        }
        defer { currentIndex += 1 }
        let row = rows[currentIndex]
        if T.self is any DatabaseValueConvertible.Type {
            return try ColumnDecoder<Record>(row: row, columnIndex: 0, codingPath: codingPath, recordFromRow: true)
                .decode(T.self)
        }
        return try RecordValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                KeyedDecodingContainer<NestedKey>.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "no more rows"))
        }
        defer { currentIndex += 1 }
        return KeyedDecodingContainer(OwningRowKeyedDecodingContainer<Record, NestedKey>(
            row: rows[currentIndex], codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "rows don't nest"))
    }

    mutating func superDecoder() throws -> any Decoder { self }
}
