import CSQLite
import Foundation

/// A database row.
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT id, name FROM player")!
/// let id: Int64 = row[0]            // by index, leftmost is 0
/// let name: String = row["name"]    // by name, case-insensitive
/// let name: String? = row["name"]   // nil for NULL or a missing column
/// ```
///
/// Rows from a cursor read the current row of the statement without
/// copying: they change as the cursor moves. Keep them with ``copy()``, or
/// fetch arrays, whose rows are copies.
///
/// Reading a NULL into a non-optional, or a value that does not convert,
/// through a subscript is a programmer error that traps with a message
/// naming the column. Use `decode(_:atIndex:)` and
/// `decode(_:forColumn:)` to get a thrown ``RowDecodingError`` instead.
public final class Row {
    /// The statement whose current row this row reads (cursor rows).
    @usableFromInline let statement: Statement?
    @usableFromInline let sqliteStatement: SQLiteStatement?
    /// The values of a copied row.
    @usableFromInline let storedValues: [DatabaseValue]
    /// The column names of a copied row.
    @usableFromInline let storedNames: [String]
    /// The first column of the row in the statement or stored values (rows
    /// that are scopes of a larger row see a slice of its columns).
    @usableFromInline let offset: Int
    /// The number of columns in the row.
    public let count: Int
    /// Named slices of the row, for requests that join several tables.
    let scopeLayouts: [String: ScopeLayout]
    /// Rows fetched by an extra request, for to-many associations.
    public internal(set) var prefetchedRows = PrefetchedRowsView()
    /// The columns of a row adapted by a ``RowAdapter``, when they are not a
    /// plain slice of the fetched row; nil for other rows. Such a row has
    /// neither statement nor stored values: it reads its base row.
    @usableFromInline let adaptation: RowAdaptation?
    /// Whether a row that owns its values is a copy of a fetched row.
    private var isCopyOfFetchedRow = false
    /// What a layer above Core caches in the row (see ``RowCache``),
    /// retained, released in deinit. Unmanaged, so that reading it for
    /// every decoded record involves no reference counting (see
    /// ``withCache(ofType:_:)``).
    /// Unchecked exclusivity: read once per decoded record, by the one
    /// thread that uses the row.
    @usableFromInline @exclusivity(unchecked) var unmanagedCache: Unmanaged<AnyObject>?

    /// A named slice of a row's columns, relative to the row.
    struct ScopeLayout: Sendable {
        var offset: Int
        var count: Int
        var scopes: [String: ScopeLayout] = [:]
    }

    /// A row that reads the current row of `statement`.
    init(statement: Statement, offset: Int = 0, count: Int? = nil, scopeLayouts: [String: ScopeLayout] = [:]) {
        self.statement = statement
        self.sqliteStatement = statement.sqliteStatement
        self.storedValues = []
        self.storedNames = []
        self.offset = offset
        self.count = count ?? statement.columnCount
        self.scopeLayouts = scopeLayouts
        self.adaptation = nil
    }

    /// A row that owns its values.
    init(values: [DatabaseValue], names: [String], offset: Int = 0, count: Int? = nil,
         scopeLayouts: [String: ScopeLayout] = [:], prefetchedRows: PrefetchedRowsView = .init())
    {
        self.statement = nil
        self.sqliteStatement = nil
        self.storedValues = values
        self.storedNames = names
        self.offset = offset
        self.count = count ?? values.count
        self.scopeLayouts = scopeLayouts
        self.prefetchedRows = prefetchedRows
        self.adaptation = nil
    }

    /// A row that reads the columns of `adaptation` in its base row.
    init(adaptation: RowAdaptation, prefetchedRows: PrefetchedRowsView = .init()) {
        self.statement = nil
        self.sqliteStatement = nil
        self.storedValues = []
        self.storedNames = []
        self.offset = 0
        self.count = adaptation.columns.count
        self.scopeLayouts = [:]
        self.prefetchedRows = prefetchedRows
        self.adaptation = adaptation
    }

    deinit {
        unmanagedCache?.release()
    }

    /// An empty row.
    public convenience init() {
        self.init(values: [], names: [])
    }

    /// A row from a dictionary of values (in the dictionary's order).
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(values: dictionary.values.map { $0?.databaseValue ?? .null }, names: Array(dictionary.keys))
    }

    /// A row from a dictionary, or nil if a key is not a String or a value
    /// is not ``DatabaseValueConvertible``.
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var names: [String] = []
        var values: [DatabaseValue] = []
        for (key, value) in dictionary {
            guard let name = key.base as? String, let dbValue = DatabaseValue(value: value) else { return nil }
            names.append(name)
            values.append(dbValue)
        }
        self.init(values: values, names: names)
    }

    /// A copy that does not change when a cursor moves on.
    public func copy() -> Row {
        if let adaptation {
            return Row(adaptation: adaptation.withBase(adaptation.base.copy()), prefetchedRows: prefetchedRows)
        }
        guard let statement else { return self }
        // The names before the values: reading them the first time clears
        // SQLite's out-of-memory flag, which `fetchOne` checks after the
        // copy (a text SQLite couldn't convert must not pass for "").
        let statementNames = statement.columnNames
        let copy: Row
        if offset != 0 || count != statement.columnCount || !scopeLayouts.isEmpty {
            // A slice of the statement's columns (an adapted row, or the
            // row of a joined request), whose scopes and unadapted row see
            // other columns: copy all columns of the statement.
            copy = Row(
                values: (0..<statement.columnCount).map {
                    DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt($0))
                },
                names: statementNames,
                offset: offset,
                count: count,
                scopeLayouts: scopeLayouts,
                prefetchedRows: prefetchedRows)
        } else {
            copy = Row(values: databaseValues, names: statementNames, prefetchedRows: prefetchedRows)
        }
        copy.isCopyOfFetchedRow = true
        return copy
    }

    /// Whether the row was fetched from the database (a cursor's row, a
    /// copy of one, or one adapted from them), as opposed to built in code
    /// (`Row(dictionary)`).
    var isFetched: Bool {
        statement != nil || isCopyOfFetchedRow || adaptation?.base.isFetched == true
    }

    // MARK: - Columns

    /// The column names, left to right.
    public var columnNames: [String] {
        if let adaptation { return adaptation.columns._layoutColumns.map(\.1) }
        if let statement {
            if offset == 0 && count == statement.columnCount { return statement.columnNames }
            return Array(statement.columnNames[offset..<(offset + count)])
        }
        if offset == 0 && count == storedNames.count { return storedNames }
        return Array(storedNames[offset..<(offset + count)])
    }

    /// The values, left to right.
    public var databaseValues: [DatabaseValue] {
        (0..<count).map(databaseValue(atUncheckedIndex:))
    }

    /// Whether the row has a column named `name` (case-insensitive).
    public func hasColumn(_ name: String) -> Bool {
        index(forColumn: name) != nil
    }

    /// Whether a value of the row, or of one of its scopes, is not NULL.
    public var containsNonNullValue: Bool {
        (0..<count).contains { !hasNull(atUncheckedIndex: $0) }
            || (hasScopes && scopes.contains { $0.row.containsNonNullValue })
    }

    /// Whether the value at `index` is NULL.
    public func hasNull(atIndex index: Int) -> Bool {
        checkIndex(index)
        return hasNull(atUncheckedIndex: index)
    }

    func hasNull(atUncheckedIndex index: Int) -> Bool {
        if let sqliteStatement {
            return sqlite3_column_type(sqliteStatement, CInt(truncatingIfNeeded: offset &+ index)) == SQLITE_NULL
        }
        if let adaptation {
            return adaptation.base.hasNull(atUncheckedIndex: adaptation.columns.baseIndex(index))
        }
        return storedValues[offset + index].isNull
    }

    /// The index of the leftmost column named `name` (case-insensitive).
    @inlinable
    // @inline(__always): fetch-by-name, +8% instructions without it (callgrind, quick).
    @inline(__always)
    func index(forColumn name: String) -> Int? {
        if let statement {
            return statement.columnLookup.index(of: name, offset: offset, width: count, in: statement)
        }
        return storedIndex(forColumn: name)
    }

    /// The index of the column named by a coding key's `stringValue`. A
    /// statement's row reads `stringValue` only when the key differs from
    /// the previous row's lookup (see ``ColumnLookup``).
    @inlinable
    func index<Key: CodingKey>(forCodingKey key: Key) -> Int? {
        if let statement, let keyBits = ColumnLookup.bits(of: key) {
            return statement.columnLookup.index(of: key, keyBits: keyBits, offset: offset, width: count, in: statement)
        }
        return index(forColumn: key.stringValue)
    }

    @usableFromInline
    func storedIndex(forColumn name: String) -> Int? {
        if let adaptation { return adaptation.columns._layoutIndex(ofColumn: name) }
        let name = CaseInsensitiveIdentifier(name)
        return storedNames[offset..<(offset + count)].firstIndex { name.matches($0) }.map { $0 - offset }
    }

    func columnName(atUncheckedIndex index: Int) -> String {
        if let statement {
            // The statement's names, read once: no C string decoded again.
            return statement.columnName(atUncheckedIndex: offset &+ index)
        }
        if let adaptation { return adaptation.columns.name(index) }
        return storedNames[offset + index]
    }

    @inlinable
    func checkIndex(_ index: Int) {
        if _slowPath(index < 0 || index >= count) {
            indexOutOfRange(index)
        }
    }

    @usableFromInline
    func indexOutOfRange(_ index: Int) -> Never {
        fatalError("Row index out of range: \(index) in a row of \(count) columns: \(self)")
    }

    // MARK: - Values

    /// The value at `index`, without bounds check.
    @inlinable
    func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
        if let sqliteStatement {
            return DatabaseValue(sqliteStatement: sqliteStatement, index: CInt(truncatingIfNeeded: offset &+ index))
        }
        if let adaptation { return adaptation.value(atUncheckedIndex: index) }
        return storedValues[offset + index]
    }

    /// Decodes a value with the `sqlite3_column_*` call that matches its type.
    @inlinable
    func fastDecode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type,
        atUncheckedIndex index: Int) throws -> Value
    {
        if let sqliteStatement {
            if let value = Value.fromStatement(
                sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: offset &+ index))
            {
                return value
            }
            try statement?.checkColumnAllocations()
            throw RowDecodingError.valueMismatch(
                Value.self, row: self, columnIndex: index, databaseValue: databaseValue(atUncheckedIndex: index))
        }
        if adaptation != nil { return try adaptedFastDecode(Value.self, atUncheckedIndex: index) }
        return try Value.decode(fromRow: self, atUncheckedIndex: index)
    }

    /// Decodes a value of an adapted row through its base, as GRDB does:
    /// an adapted row of a statement converts as SQLite does (the text
    /// "" is the integer 0); an adapted copy is as strict as the copy.
    @usableFromInline
    @inline(never)
    func adaptedFastDecode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type,
        atUncheckedIndex index: Int) throws -> Value
    {
        guard let (sqliteStatement, column) = statementColumn(atUncheckedIndex: index) else {
            return try Value.decode(fromRow: self, atUncheckedIndex: index)
        }
        if let value = Value.fromStatement(sqliteStatement, atUncheckedIndex: column) { return value }
        try adaptation?.base.statement?.checkColumnAllocations()
        throw RowDecodingError.valueMismatch(
            Value.self, row: self, columnIndex: index, databaseValue: databaseValue(atUncheckedIndex: index))
    }

    /// The statement and column that the value at `index` reads: the row's
    /// own, or its base's for an adapted row; nil for a row that owns its
    /// values, or adapts one that does.
    func statementColumn(atUncheckedIndex index: Int) -> (SQLiteStatement, CInt)? {
        if let sqliteStatement { return (sqliteStatement, CInt(truncatingIfNeeded: offset &+ index)) }
        guard let adaptation else { return nil }
        return adaptation.base.statementColumn(atUncheckedIndex: adaptation.columns.baseIndex(index))
    }

    /// The value at `index` (leftmost is 0), as the requested type, or
    /// throws a ``RowDecodingError``.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        atIndex index: Int) throws -> Value
    {
        checkIndex(index)
        return try Value.decode(fromRow: self, atUncheckedIndex: index)
    }

    /// The value at `index` (leftmost is 0), as the requested type, or
    /// throws a ``RowDecodingError``.
    @inlinable
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self,
        atIndex index: Int) throws -> Value
    {
        checkIndex(index)
        return try fastDecode(Value.self, atUncheckedIndex: index)
    }

    /// The value of the leftmost column named `name`, as the requested
    /// type, or throws a ``RowDecodingError``. A missing column is nil for
    /// optionals, an error otherwise.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        forColumn name: String) throws -> Value
    {
        guard let index = index(forColumn: name) else {
            return try Value.fromMissingColumn()
                ?? { throw RowDecodingError.columnNotFound(name, type: Value.self, row: self) }()
        }
        return try Value.decode(fromRow: self, atUncheckedIndex: index)
    }

    /// The value of the leftmost column named `name`, as the requested
    /// type, or throws a ``RowDecodingError``.
    @inlinable
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self,
        forColumn name: String) throws -> Value
    {
        guard let index = index(forColumn: name) else {
            return try Value.fromMissingColumn()
                ?? { throw RowDecodingError.columnNotFound(name, type: Value.self, row: self) }()
        }
        return try fastDecode(Value.self, atUncheckedIndex: index)
    }

    /// The value at `index`, or nil for NULL.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        checkIndex(index)
        return databaseValue(atUncheckedIndex: index).storage.value
    }

    /// The value at `index` (leftmost is 0). Traps if it is NULL and the
    /// type is not optional, or if it does not convert.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        do { return try decode(Value.self, atIndex: index) } catch { conversionFailure(error) }
    }

    /// The value at `index` (leftmost is 0). Traps if it is NULL and the
    /// type is not optional, or if it does not convert.
    @inlinable
    // @inline(__always): fetch-wide-macro-records, +1.4% instructions without it (callgrind, quick).
    @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        checkIndex(index)
        if let sqliteStatement,
            let value = Value.fromStatement(
                sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: offset &+ index))
        {
            return value
        }
        return decodeOrTrap(Value.self, atUncheckedIndex: index)
    }

    /// The value of the leftmost column named `name`, or nil for NULL or a
    /// missing column.
    public subscript(_ name: String) -> (any DatabaseValueConvertible)? {
        guard let index = index(forColumn: name) else { return nil }
        return databaseValue(atUncheckedIndex: index).storage.value
    }

    /// The value of the leftmost column named `name` (case-insensitive).
    /// Traps if the column is missing or NULL and the type is not optional,
    /// or if the value does not convert.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        do { return try decode(Value.self, forColumn: name) } catch { conversionFailure(error) }
    }

    /// The value of the leftmost column named `name` (case-insensitive).
    /// Traps if the column is missing or NULL and the type is not optional,
    /// or if the value does not convert.
    @inlinable
    // @inline(__always): fetch-by-name and fetch-records, +6% instructions without it (callgrind, quick).
    @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ name: String) -> Value {
        guard let index = index(forColumn: name) else {
            guard let value = Value.fromMissingColumn() else {
                conversionFailure(RowDecodingError.columnNotFound(name, type: Value.self, row: self))
            }
            return value
        }
        if let sqliteStatement,
            let value = Value.fromStatement(
                sqliteStatement, atUncheckedIndex: CInt(truncatingIfNeeded: offset &+ index))
        {
            return value
        }
        return decodeOrTrap(Value.self, atUncheckedIndex: index)
    }

    /// The slow path of the subscripts: a copied or adapted row, or a value
    /// that does not convert (a trap). Out of line, so that the records'
    /// `init(row:)` that inline the subscripts stay small (half the code).
    @inlinable
    @inline(never)
    func decodeOrTrap<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type,
        atUncheckedIndex index: Int) -> Value
    {
        do { return try fastDecode(Value.self, atUncheckedIndex: index) } catch { conversionFailure(error) }
    }

    @usableFromInline
    func conversionFailure(_ error: any Error) -> Never {
        fatalError("\(error)")
    }

    // MARK: - Blobs without copy

    /// The bytes of the blob at `index`, without copy: valid until the
    /// cursor moves on. Nil for NULL.
    public func dataNoCopy(atIndex index: Int) -> Data? {
        checkIndex(index)
        if let adaptation {
            return adaptation.base.dataNoCopy(atIndex: adaptation.columns.baseIndex(index))
        }
        guard let sqliteStatement else {
            return Data.fromDatabaseValue(storedValues[offset + index])
        }
        let column = CInt(truncatingIfNeeded: offset &+ index)
        switch sqlite3_column_type(sqliteStatement, column) {
        case SQLITE_NULL:
            return nil
        case SQLITE_BLOB, SQLITE_TEXT:
            guard let bytes = DatabaseValue.blobBytes(sqliteStatement, column) else {
                // Out of memory: the copying read reports it.
                return Data.fromDatabaseValue(databaseValue(atUncheckedIndex: index))
            }
            guard let start = bytes.baseAddress else { return Data() }
            // unsafe: Data neither writes nor frees the bytes (`.none`); SQLite keeps them until the cursor moves on.
            return Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: start), count: bytes.count, deallocator: .none)
        default:
            return Data.fromDatabaseValue(databaseValue(atUncheckedIndex: index))
        }
    }

    /// The bytes of the blob in column `name`, without copy: valid until
    /// the cursor moves on. Nil for NULL or a missing column.
    public func dataNoCopy(named name: String) -> Data? {
        index(forColumn: name).flatMap(dataNoCopy(atIndex:))
    }

    /// Calls `body` with the bytes of the blob or text at `index` (leftmost
    /// is 0), without copy, or nil for NULL. Throws a ``RowDecodingError``
    /// for a number. Unsafe: the data is alive only until `body` returns.
    public func withUnsafeData<T>(atIndex index: Int, _ body: (Data?) throws -> T) throws -> T {
        if let data = dataNoCopy(atIndex: index) { return try body(data) }
        let dbValue: DatabaseValue = self[index]
        guard dbValue.isNull else {
            throw RowDecodingError.valueMismatch(Data.self, row: self, columnIndex: index, databaseValue: dbValue)
        }
        return try body(nil)
    }

    /// Calls `body` with the bytes of the blob or text of the leftmost
    /// column named `name`, without copy, or nil for NULL or a missing
    /// column. Throws a ``RowDecodingError`` for a number. Unsafe: the data
    /// is alive only until `body` returns.
    public func withUnsafeData<T>(named name: String, _ body: (Data?) throws -> T) throws -> T {
        guard let index = index(forColumn: name) else { return try body(nil) }
        // unsafe: the data stays inside `body`.
        return try withUnsafeData(atIndex: index, body)
    }

    /// Calls `body` with the bytes of the blob or text of `column`: see
    /// ``withUnsafeData(named:_:)``. Unsafe: the data is alive only until
    /// `body` returns.
    public func withUnsafeData<T>(at column: some ColumnExpression, _ body: (Data?) throws -> T) throws -> T {
        // unsafe: the data stays inside `body`.
        try withUnsafeData(named: column.name, body)
    }
}

// A row from a cursor reads a statement that belongs to one thread.
@available(*, unavailable)
extension Row: Sendable { }

extension Row: ExpressibleByDictionaryLiteral {
    /// A row from a dictionary literal, in the literal's order:
    /// `["id": 1, "name": "Arthur"]`.
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(values: elements.map { $0.1?.databaseValue ?? .null }, names: elements.map(\.0))
    }
}

extension Row: RandomAccessCollection {
    /// A position in a row.
    public struct Index: Comparable, Strideable, Sendable {
        let value: Int
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.value < rhs.value }
        public func distance(to other: Index) -> Int { other.value - value }
        public func advanced(by n: Int) -> Index { Index(value: value + n) }
    }

    public var startIndex: Index { Index(value: 0) }
    public var endIndex: Index { Index(value: count) }

    /// The (column name, value) pair at `position`.
    public subscript(position: Index) -> (String, DatabaseValue) {
        checkIndex(position.value)
        return (columnName(atUncheckedIndex: position.value), databaseValue(atUncheckedIndex: position.value))
    }
}

extension Row: Hashable {
    /// Rows are equal when they have the same columns, in the same order,
    /// with equal values (scopes and prefetched rows included).
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count {
            guard lhs.columnName(atUncheckedIndex: index) == rhs.columnName(atUncheckedIndex: index),
                  lhs.databaseValue(atUncheckedIndex: index) == rhs.databaseValue(atUncheckedIndex: index)
            else { return false }
        }
        guard lhs.prefetchedRows == rhs.prefetchedRows else { return false }
        if !lhs.hasScopes && !rhs.hasScopes { return true }
        let lhsScopes = lhs.scopes
        let rhsScopes = rhs.scopes
        guard lhsScopes.names == rhsScopes.names else { return false }
        return lhsScopes.names.allSatisfy { lhsScopes[$0] == rhsScopes[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for index in 0..<count {
            hasher.combine(columnName(atUncheckedIndex: index))
            hasher.combine(databaseValue(atUncheckedIndex: index))
        }
    }
}

extension Row: CustomStringConvertible, CustomDebugStringConvertible {
    /// `[id:1 name:"Arthur"]`
    public var description: String {
        "[" + (0..<count).map { "\(columnName(atUncheckedIndex: $0)):\(databaseValue(atUncheckedIndex: $0))" }
            .joined(separator: " ") + "]"
    }

    /// The description, then the unadapted row (``unadapted``), the
    /// scopes and the prefetched rows, if any:
    ///
    /// ```
    /// ▿ [id:1 name:"Arthur" teamId:2]
    ///   unadapted: [id:1 name:"Arthur" teamId:2 id:2 name:"Reds"]
    ///   - team: [id:2 name:"Reds"]
    ///   + awards: 3 rows
    /// ```
    public var debugDescription: String {
        debugDescription(level: 0)
    }

    private func debugDescription(level: Int) -> String {
        let unadapted = level == 0 ? self.unadapted : self
        if level == 0 && unadapted == self && prefetchedRows.isEmpty { return description }
        let indent = String(repeating: "  ", count: level + 1)
        var result = level == 0 ? "▿ " + description : description
        if unadapted != self {
            result += "\n" + indent + "unadapted: " + unadapted.description
        }
        for (name, scope) in scopes {
            result += "\n" + indent + "- " + name + ": " + scope.debugDescription(level: level + 1)
        }
        for key in prefetchedRows.keys.sorted() {
            guard let rows = prefetchedRows[key] else { continue }
            result += "\n" + indent + "+ " + key + ": " + "\(rows.count) row" + (rows.count > 1 ? "s" : "")
        }
        return result
    }
}

/// What a layer above Core caches in a row for as long as the row lives:
/// the record layer's decoding containers (`RowDecoderCache`), which the
/// row of a cursor reuses for every record. Core keeps it, and knows
/// nothing else of it.
@usableFromInline
protocol RowCache: AnyObject { }

extension Row {
    /// The row's cache, if it has one of this type. A row holds one cache
    /// (the record layer's).
    @inlinable
    func cache<Cache: RowCache>(ofType type: Cache.Type) -> Cache? {
        withCache(ofType: type) { $0 }
    }

    /// Runs `body` with the row's cache if it has one of this type (nil
    /// otherwise), without retaining it.
    @inlinable
    // @inline(__always): fetch-decodable, +8% instructions without it (callgrind, quick).
    @inline(__always)
    func withCache<Cache: RowCache, Result>(ofType type: Cache.Type, _ body: (Cache?) throws -> Result) rethrows
        -> Result
    {
        guard let unmanagedCache else { return try body(nil) }
        // Unretained, unsafe: the row owns its cache, which is never
        // replaced, and the caller keeps the row alive.
        return try unmanagedCache._withUnsafeGuaranteedRef { cache in
            guard Swift.type(of: cache) == Cache.self else { return try body(nil) }
            // Unsafe: the type was checked just above.
            return try body(unsafeDowncast(cache, to: Cache.self))
        }
    }

    /// Sets the row's cache, once.
    @usableFromInline
    func setCache(_ cache: some RowCache) {
        precondition(unmanagedCache == nil, "A row's cache is set once")
        // The row's retain, released in deinit.
        unmanagedCache = Unmanaged.passRetained(cache)
    }
}

// MARK: - Coalesce

extension Row {
    /// The first non-NULL value of the given columns, or nil:
    /// `row.coalesce(["nickname", "name"]) as String?`. Traps if a value
    /// does not convert, as subscripts do.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<String>) -> T? {
        for column in columns {
            if let value = self[column] as T? { return value }
        }
        return nil
    }

    /// The first non-NULL value of the given columns, or nil:
    /// `row.coalesce([Column("nickname"), Column("name")]) as String?`.
    public func coalesce<T: DatabaseValueConvertible>(_ columns: some Collection<any ColumnExpression>) -> T? {
        coalesce(columns.lazy.map(\.name))
    }
}
