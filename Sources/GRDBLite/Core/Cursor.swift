/// A sequence whose iteration may throw, read one element at a time.
///
/// Database cursors (``RowCursor``, ``DatabaseValueCursor``,
/// ``RecordCursor``) read rows straight from SQLite as you iterate them:
/// iterate them inside the database access that created them, and don't
/// keep their rows (copy them with `copy()`, or use `fetchAll`).
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
/// while let name = try names.next() { print(name) }
/// try names.forEach { print($0) }
/// let array = try Array(names)
/// ```
public protocol Cursor<Element>: AnyObject {
    associatedtype Element

    /// The next element, or nil at the end. Keeps returning nil after the end.
    func next() throws -> Element?
}

extension Cursor {
    /// Whether the cursor has no more element (consumes one if it has).
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// Calls `body` on each element.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }

    /// A cursor of transformed elements.
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }

    /// A cursor of the non-nil transformed elements.
    public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> MapCursor<FilterCursor<MapCursor<Self, T?>>, T> {
        map(transform).filter { $0 != nil }.map { $0! }
    }

    /// A cursor of the elements that satisfy `isIncluded`.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }

    /// A cursor of at most `maxLength` elements.
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(self, maxLength)
    }

    /// A cursor of the leading elements that satisfy `predicate`.
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate)
    }

    /// A cursor without its first `n` elements.
    public func dropFirst(_ n: Int = 1) -> DropFirstCursor<Self> {
        DropFirstCursor(self, n)
    }

    /// A cursor of (offset, element) pairs.
    public func enumerated() -> MapCursor<Self, (offset: Int, element: Element)> {
        var offset = -1
        return map { element in
            offset += 1
            return (offset, element)
        }
    }

    /// Combines the elements with `nextPartialResult`.
    @inlinable
    public func reduce<Result>(
        _ initialResult: Result,
        _ nextPartialResult: (Result, Element) throws -> Result) throws -> Result
    {
        var result = initialResult
        while let element = try next() {
            result = try nextPartialResult(result, element)
        }
        return result
    }

    /// Combines the elements into a mutable result.
    @inlinable
    public func reduce<Result>(
        into initialResult: Result,
        _ updateAccumulatingResult: (inout Result, Element) throws -> Void) throws -> Result
    {
        var result = initialResult
        while let element = try next() {
            try updateAccumulatingResult(&result, element)
        }
        return result
    }

    /// Whether an element satisfies `predicate` (stops at the first).
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        try first(where: predicate) != nil
    }

    /// The first element that satisfies `predicate`.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// The minimum element according to `areInIncreasingOrder`.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(element, result) { result = element }
        }
        return result
    }

    /// The maximum element according to `areInIncreasingOrder`.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var result = try next() else { return nil }
        while let element = try next() {
            if try areInIncreasingOrder(result, element) { result = element }
        }
        return result
    }
}

extension Cursor where Element: Equatable {
    /// Whether the cursor contains `element`.
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

extension Cursor where Element: Comparable {
    /// The minimum element.
    public func min() throws -> Element? { try min(by: <) }
    /// The maximum element.
    public func max() throws -> Element? { try max(by: <) }
}

extension Cursor where Element: StringProtocol {
    /// The elements joined with `separator`.
    public func joined(separator: String = "") throws -> String {
        try Array(self).joined(separator: separator)
    }
}

extension Array {
    /// All elements of a cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        while let element = try cursor.next() {
            append(element)
        }
    }
}

extension Set {
    /// All elements of a cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        while let element = try cursor.next() {
            insert(element)
        }
    }
}

extension Dictionary {
    /// The elements of a cursor grouped by key.
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element]
    {
        self.init()
        while let element = try cursor.next() {
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// A dictionary from a cursor of unique key-value pairs; a duplicate key
    /// is a programmer error.
    public init(uniqueKeysWithValues cursor: some Cursor<(Key, Value)>) throws {
        self.init()
        while let (key, value) = try cursor.next() {
            precondition(updateValue(value, forKey: key) == nil, "Duplicate key: \(key)")
        }
    }
}

/// A cursor over any cursor, sequence or closure.
public final class AnyCursor<Element>: Cursor {
    private let _next: () throws -> Element?

    public init<C: Cursor>(_ base: C) where C.Element == Element {
        _next = base.next
    }

    public init(_ sequence: some Sequence<Element>) {
        var iterator = sequence.makeIterator()
        _next = { iterator.next() }
    }

    public init(_ next: @escaping () throws -> Element?) {
        _next = next
    }

    public func next() throws -> Element? { try _next() }
}

/// The cursor returned by ``Cursor/map(_:)``.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    @usableFromInline let base: Base
    @usableFromInline let transform: (Base.Element) throws -> Element

    init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }

    @inlinable
    public func next() throws -> Element? {
        try base.next().map(transform)
    }
}

/// The cursor returned by ``Cursor/filter(_:)``.
public final class FilterCursor<Base: Cursor>: Cursor {
    @usableFromInline let base: Base
    @usableFromInline let isIncluded: (Base.Element) throws -> Bool

    init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }

    @inlinable
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }
}

/// The cursor returned by ``Cursor/prefix(_:)``.
public final class PrefixCursor<Base: Cursor>: Cursor {
    let base: Base
    var remaining: Int

    init(_ base: Base, _ maxLength: Int) {
        precondition(maxLength >= 0, "Can't take a prefix of negative length from a cursor")
        self.base = base
        self.remaining = maxLength
    }

    public func next() throws -> Base.Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try base.next()
    }
}

/// The cursor returned by ``Cursor/prefix(while:)``.
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    let base: Base
    let predicate: (Base.Element) throws -> Bool
    var isDone = false

    init(_ base: Base, _ predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    public func next() throws -> Base.Element? {
        guard !isDone, let element = try base.next() else { return nil }
        if try predicate(element) { return element }
        isDone = true
        return nil
    }
}

/// The cursor returned by ``Cursor/dropFirst(_:)``.
public final class DropFirstCursor<Base: Cursor>: Cursor {
    let base: Base
    var toDrop: Int

    init(_ base: Base, _ n: Int) {
        precondition(n >= 0, "Can't drop a negative number of elements from a cursor")
        self.base = base
        self.toDrop = n
    }

    public func next() throws -> Base.Element? {
        while toDrop > 0 {
            toDrop -= 1
            if try base.next() == nil { return nil }
        }
        return try base.next()
    }
}
