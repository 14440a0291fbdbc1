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

    /// Calls `body` on each element. Adapted cursors (`map`, `filter`,
    /// `enumerated`...) and `Array(cursor)` iterate their base through it.
    func forEach(_ body: (Element) throws -> Void) throws
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
    public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> MapCursor<
        FilterCursor<MapCursor<Self, T?>>, T
    > {
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
    public func dropFirst(_ n: Int) -> DropFirstCursor<Self> {
        DropFirstCursor(self, n)
    }

    /// A cursor without its first element.
    public func dropFirst() -> DropFirstCursor<Self> {
        dropFirst(1)
    }

    /// A cursor of (offset, element) pairs, offsets from zero.
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }

    /// A cursor without the leading elements that satisfy `predicate`.
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate)
    }

    /// All elements but the last `n` (the cursor is read to its end).
    public func dropLast(_ n: Int) throws -> [Element] {
        precondition(n >= 0, "Can't drop a negative number of elements from a cursor")
        var elements = try Array(self)
        elements.removeLast(Swift.min(n, elements.count))
        return elements
    }

    /// All elements but the last (the cursor is read to its end).
    public func dropLast() throws -> [Element] {
        try dropLast(1)
    }

    /// The last `maxLength` elements at most (the cursor is read to its
    /// end; only `maxLength` elements are kept meanwhile).
    public func suffix(_ maxLength: Int) throws -> [Element] {
        precondition(maxLength >= 0, "Can't take a suffix of negative length from a cursor")
        guard maxLength > 0 else {
            while try next() != nil { }
            return []
        }
        // A ring of the last elements; `oldest` is the start of the ring
        // once it is full.
        var ring: [Element] = []
        var oldest = 0
        try forEach { element in
            if ring.count < maxLength {
                ring.append(element)
            } else {
                ring[oldest] = element
                oldest = (oldest + 1) % maxLength
            }
        }
        return Array(ring[oldest...] + ring[..<oldest])
    }

    /// A cursor of the elements of the cursors that `transform` returns.
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult)
    -> FlattenCursor<MapCursor<Self, SegmentOfResult>>
    {
        FlattenCursor(map(transform))
    }

    /// A cursor of the elements of the sequences that `transform` returns.
    public func flatMap<SegmentOfResult: Sequence>(
        _ transform: @escaping (Element) throws -> SegmentOfResult)
    -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>>
    {
        FlattenCursor(map { try AnyCursor(transform($0)) })
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

extension Cursor where Element: Cursor {
    /// A cursor of the elements of the cursor's cursors.
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor where Element: Sequence {
    /// A cursor of the elements of the cursor's sequences.
    public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
        flatMap { $0 }
    }
}

extension Sequence {
    /// A cursor of the elements of the cursors that `transform` returns.
    public func flatMap<SegmentOfResult: Cursor>(
        _ transform: @escaping (Element) throws -> SegmentOfResult)
    -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>>
    {
        AnyCursor(self).flatMap(transform)
    }
}

extension Cursor where Element: StringProtocol {
    /// The elements joined with `separator`.
    public func joined(separator: String = "") throws -> String {
        try Array(self).joined(separator: separator)
    }
}

extension RangeReplaceableCollection {
    /// All elements of a cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try append(contentsOf: cursor)
    }

    /// All elements of a cursor, with room reserved for `minimumCapacity`
    /// elements.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init()
        reserveCapacity(minimumCapacity)
        try append(contentsOf: cursor)
    }

    /// Appends the elements of a cursor (those read before an error stay).
    @inlinable
    public mutating func append(contentsOf cursor: some Cursor<Element>) throws {
        try cursor.forEach { append($0) }
    }
}

extension Set {
    /// All elements of a cursor.
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try cursor.forEach { insert($0) }
    }

    /// All elements of a cursor, with room reserved for `minimumCapacity`
    /// elements.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { insert($0) }
    }

    /// The union of the set and the elements of a cursor.
    public func union(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result = self
        try result.formUnion(cursor)
        return result
    }

    /// Inserts the elements of a cursor.
    public mutating func formUnion(_ cursor: some Cursor<Element>) throws {
        try cursor.forEach { insert($0) }
    }

    /// The elements of the set that a cursor contains.
    public func intersection(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        try intersection(Set(cursor))
    }

    /// Keeps the elements that a cursor contains.
    public mutating func formIntersection(_ cursor: some Cursor<Element>) throws {
        try formIntersection(Set(cursor))
    }
}

extension Dictionary {
    /// The elements of a cursor grouped by key.
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element]
    {
        try self.init(minimumCapacity: 0, grouping: cursor, by: keyForValue)
    }

    /// The elements of a cursor grouped by key, with room reserved for
    /// `minimumCapacity` keys.
    public init<C: Cursor>(minimumCapacity: Int, grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element]
    {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { element in
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// A dictionary from a cursor of unique key-value pairs; a duplicate key
    /// is a programmer error.
    public init(uniqueKeysWithValues cursor: some Cursor<(Key, Value)>) throws {
        try self.init(minimumCapacity: 0, uniqueKeysWithValues: cursor)
    }

    /// A dictionary from a cursor of unique key-value pairs, with room
    /// reserved for `minimumCapacity` keys; a duplicate key is a programmer
    /// error.
    public init(minimumCapacity: Int, uniqueKeysWithValues cursor: some Cursor<(Key, Value)>) throws {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { key, value in
            precondition(updateValue(value, forKey: key) == nil, "Duplicate key: \(key)")
        }
    }
}

/// A cursor over any cursor, sequence or closure.
public final class AnyCursor<Element>: Cursor {
    private let _next: () throws -> Element?
    /// The base cursor's `forEach`, nil for a sequence or a closure.
    private let _forEach: (((Element) throws -> Void) throws -> Void)?

    /// A cursor over `base`, which it iterates with `base.forEach`.
    public init<C: Cursor>(_ base: C) where C.Element == Element {
        _next = base.next
        _forEach = base.forEach
    }

    /// A cursor over the elements of an iterator.
    public init(iterator: some IteratorProtocol<Element>) {
        var iterator = iterator
        _next = { iterator.next() }
        _forEach = nil
    }

    /// A cursor over the elements of a sequence.
    public convenience init(_ sequence: some Sequence<Element>) {
        self.init(iterator: sequence.makeIterator())
    }

    /// A cursor whose elements `next` returns, until it returns nil.
    public init(_ next: @escaping () throws -> Element?) {
        _next = next
        _forEach = nil
    }

    public func next() throws -> Element? { try _next() }

    public func forEach(_ body: (Element) throws -> Void) throws {
        if let _forEach {
            try _forEach(body)
        } else {
            while let element = try _next() { try body(element) }
        }
    }
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

    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { try body(transform($0)) }
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

    @inlinable
    public func forEach(_ body: (Base.Element) throws -> Void) throws {
        try base.forEach { element in
            if try isIncluded(element) { try body(element) }
        }
    }
}

/// The cursor returned by ``Cursor/enumerated()``.
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    let base: Base
    var offset = 0

    init(_ base: Base) {
        self.base = base
    }

    public func next() throws -> (Int, Base.Element)? {
        guard let element = try base.next() else { return nil }
        defer { offset += 1 }
        return (offset, element)
    }

    public func forEach(_ body: ((Int, Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            defer { offset += 1 }
            try body((offset, element))
        }
    }
}

/// The cursor returned by ``Cursor/drop(while:)``.
public final class DropWhileCursor<Base: Cursor>: Cursor {
    let base: Base
    let predicate: (Base.Element) throws -> Bool
    var isDropping = true

    init(_ base: Base, _ predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    public func next() throws -> Base.Element? {
        guard isDropping else { return try base.next() }
        while let element = try base.next() {
            if try !predicate(element) {
                isDropping = false
                return element
            }
        }
        return nil
    }
}

/// The cursor returned by `flatMap(_:)` and `joined()`: the
/// elements of each cursor of its base, in turn.
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    let base: Base
    var current: Base.Element?

    init(_ base: Base) {
        self.base = base
    }

    public func next() throws -> Base.Element.Element? {
        while true {
            if let element = try current?.next() { return element }
            guard let segment = try base.next() else {
                current = nil
                return nil
            }
            current = segment
        }
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
