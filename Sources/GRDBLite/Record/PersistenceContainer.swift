/// The columns and values of a record, filled by
/// ``EncodableRecord/encode(to:)``, in the order they were set.
///
/// ```swift
/// func encode(to container: inout PersistenceContainer) {
///     container["id"] = id
///     container[Columns.name] = name
/// }
/// ```
///
/// Column names are case-insensitive: setting a column twice keeps its
/// first position and the last value.
public struct PersistenceContainer: Sendable {
    // A container reused for many records (inserts in a loop) keeps the
    // column names of the previous record beyond `count`: when a record
    // sets the same columns in the same order, each assignment is a
    // comparison of string bits, and nothing allocates.
    @usableFromInline var names: [String] = []
    @usableFromInline var values: [DatabaseValue] = []
    /// The number of columns set.
    @usableFromInline var setCount = 0
    /// The keyed container of the Encodable encoder, reused with the
    /// container (nil for one-off containers). Copies share it: it is safe
    /// to use from several threads (see ``RecordEncoderCache``).
    @usableFromInline let encoderCache: RecordEncoderCache?

    init(encoderCache: RecordEncoderCache? = nil) {
        self.encoderCache = encoderCache
    }

    /// The container of a record.
    init(_ record: some EncodableRecord) throws {
        self.init()
        try record.encode(to: &self)
    }

    /// The value of a column: nil if the column was not set, a NULL
    /// database value if it was set to nil.
    @_disfavoredOverload
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { databaseValue(forColumn: column) }
        set { set(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// The value of a column, as a given type: `container["score"] = score`
    /// stores the value without boxing it in an existential.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
        get { databaseValue(forColumn: column).flatMap(Value.fromDatabaseValue) }
        // Inlined in `encode(to:)`: the value is stored without an
        // Optional, and a literal column name is not released.
        @inline(__always) set { set(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// The value of a column.
    @_disfavoredOverload
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// The value of a column, as a given type.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    /// Sets the value of a column.
    @inlinable
    // @inline(__always): insert-records, +4.1% instructions without it (callgrind, quick).
    @inline(__always)
    mutating func set(_ value: consuming DatabaseValue, forColumn column: String) {
        let position = setCount
        if position < names.count {
            if names.stringBits(at: position) == column.storageBits {
                replaceValue(at: position, with: value)
                setCount = position + 1
                return
            }
        }
        slowSet(value, forColumn: column)
    }

    /// `values[position] = value`. An assignment, which releases the former
    /// value: initializing over it would be undefined, even for a number or
    /// NULL, since `DatabaseValue` is not a trivial type.
    @inlinable
    @inline(__always)
    mutating func replaceValue(at position: Int, with value: consuming DatabaseValue) {
        values[position] = value
    }

    @usableFromInline
    mutating func slowSet(_ value: DatabaseValue, forColumn column: String) {
        if let index = index(forColumn: column) {
            values[index] = value
            return
        }
        if setCount < names.count {
            names.removeSubrange(setCount...)
            values.removeSubrange(setCount...)
        }
        names.append(column)
        values.append(value)
        setCount += 1
    }

    /// Forgets the values, keeps the column names as hints for the next
    /// record.
    mutating func prepareForReuse() {
        setCount = 0
    }

    func index(forColumn column: String) -> Int? {
        let column = CaseInsensitiveIdentifier(column)
        return names[0..<setCount].firstIndex { column.matches($0) }
    }

    /// The value of a column, or nil if it was not set.
    @usableFromInline
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(forColumn: column).map { values[$0] }
    }

    /// The column names, in order.
    var columns: ArraySlice<String> { names[0..<setCount] }

    /// The values of the columns, in order.
    var databaseValues: ArraySlice<DatabaseValue> { values[0..<setCount] }

    /// The columns of `self` whose value differs from `old`, with their
    /// value in `old` (NULL if `old` lacks the column).
    func changes(from old: PersistenceContainer) -> [(column: String, oldValue: DatabaseValue)] {
        var changes: [(String, DatabaseValue)] = []
        for index in 0..<setCount {
            let oldValue = old.databaseValue(forColumn: names[index]) ?? .null
            if Self.isChange(from: oldValue, to: values[index]) {
                changes.append((names[index], oldValue))
            }
        }
        return changes
    }

    /// Whether the database would store a different value. Strings differ
    /// when their bytes do: Swift's `==` ignores Unicode normalization
    /// ("é" and "e\u{301}" are equal), SQLite does not.
    static func isChange(from old: DatabaseValue, to new: DatabaseValue) -> Bool {
        if case .string(let old) = old.storage, case .string(let new) = new.storage {
            return !old.utf8.elementsEqual(new.utf8)
        }
        return old != new
    }
}

extension PersistenceContainer: RandomAccessCollection {
    /// The position of a (column, value) pair.
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { setCount }

    /// The (column, value) pair at `position`.
    public subscript(position: Int) -> (String, DatabaseValue) {
        precondition(position >= 0 && position < setCount, "Index out of range")
        return (names[position], values[position])
    }
}
