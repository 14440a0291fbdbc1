import Foundation

/// Writes the columns of a record into the persistence container of the
/// running `encode(to:)`.
@usableFromInline
struct RecordKeyedEncodingContainer<Record: EncodableRecord, Key: CodingKey>: KeyedEncodingContainerProtocol {
    @usableFromInline let target: RecordEncodingTarget
    @usableFromInline let usesDefaultKeys: Bool
    /// The size of the keys' bits when they name the columns, or -1: keys
    /// are then matched by column name only (see `ColumnLookup.bits(of:)`).
    @usableFromInline let keyBitsSize: Int

    @usableFromInline
    init(target: RecordEncodingTarget) {
        self.target = target
        if case .useDefaultKeys = Record.databaseColumnEncodingStrategy {
            usesDefaultKeys = true
            keyBitsSize = ColumnLookup.bitsSize(of: Key.self)
        } else {
            usesDefaultKeys = false
            keyBitsSize = -1
        }
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }

    @inlinable
    @inline(__always)
    func column(forKey key: Key) -> String {
        usesDefaultKeys ? key.stringValue : Record.databaseColumnEncodingStrategy.column(forKey: key)
    }

    /// The persistence container; traps outside of the call of
    /// `encode(to:)` that gave out the container.
    @inlinable
    @inline(__always)
    var persistenceContainer: UnsafeMutablePointer<PersistenceContainer> {
        guard let container = target.container else { RecordEncodingTarget.containerMisuse() }
        return container
    }

    /// Stores the value of a key. With column names from the keys, a key
    /// that wrote the same position of the previous record is matched by
    /// its bits (see ``RecordEncodingTarget/fastCount``): the fast path,
    /// inlined in each `encode` method. Other keys take `slowSet`.
    @inlinable
    @inline(__always)
    func set(_ value: consuming DatabaseValue, forKey key: Key) throws {
        let target = self.target
        if let container = target.container {
            let position = container.pointee.setCount
            if position < target.fastCount {
                #if DEBUG
                target.checkFastPath(container)
                #endif
                // One-byte keys (the synthesized `CodingKeys` enums) with
                // one compare; other sizes take an outlined function, in
                // tail position like the slow path: no register has to
                // survive a call, which keeps the witnesses' frame small.
                guard _fastPath(keyBitsSize == 1) else { return try setWiderKey(value, forKey: key) }
                // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`),
                // and the size of the key is checked.
                if target.fastBits.unsafelyUnwrapped[position] == UInt64(unsafeBitCast(key, to: UInt8.self)) {
                    #if DEBUG
                    checkKeyMatch(key, at: position)
                    #endif
                    Self.store(value, at: position, of: target, in: container)
                    return
                }
            }
        }
        try slowSet(value, forKey: key)
    }

    /// Stores a value on the fast path (see `set`).
    @inlinable
    // @inline(__always): insert-encodable, +1.1% instructions without it (callgrind, quick).
    @inline(__always)
    static func store(
        _ value: consuming DatabaseValue, at position: Int, of target: RecordEncodingTarget,
        in container: UnsafeMutablePointer<PersistenceContainer>)
    {
        // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`).
        let slot = target.fastValues.unsafelyUnwrapped + position
        container.pointee.setCount = position &+ 1
        // An assignment, last: the slot holds the former value, which it
        // releases (initializing over it would be undefined, even for a
        // value without references); the release of a string or a blob is
        // a call, after which nothing needs a register kept.
        slot.pointee = value
    }

    /// Traps when a key matched by its bits writes another column than
    /// the key remembered at `position` (see `ColumnLookup.bits(of:)`).
    @usableFromInline
    func checkKeyMatch(_ key: Key, at position: Int) {
        let remembered = target.keyColumns[position]
        precondition(
            column(forKey: key) == remembered,
            "coding key \(Key.self) has the bits of the key of column \"\(remembered)\" but the column "
                + "\"\(column(forKey: key))\": a key's stringValue must depend on its stored bytes only")
    }

    /// `set` for keys of another size than one byte.
    @usableFromInline
    @inline(never)
    func setWiderKey(_ value: DatabaseValue, forKey key: Key) throws {
        if let container = target.container {
            let position = container.pointee.setCount
            #if DEBUG
            if position < target.fastCount { target.checkFastPath(container) }
            #endif
            if position < target.fastCount,
                let bits = ColumnLookup.bits(of: key, size: keyBitsSize),
                // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`).
                target.fastBits.unsafelyUnwrapped[position] == bits
            {
                #if DEBUG
                checkKeyMatch(key, at: position)
                #endif
                Self.store(value, at: position, of: target, in: container)
                return
            }
        }
        try slowSet(value, forKey: key)
    }

    /// Stores the value of a key that is not on the fast path: a key
    /// matched by bits whose column is not known at this position, or by
    /// name.
    @usableFromInline
    @inline(never)
    func slowSet(_ value: DatabaseValue, forKey key: Key) throws {
        let container = persistenceContainer
        let position = container.pointee.setCount
        let bits = ColumnLookup.bits(of: key, size: keyBitsSize)
        target.fastCount = 0 // the arrays may change below
        if let bits, target.isKnownKey(bits, at: position, in: container.pointee) {
            container.pointee.replaceValue(at: position, with: value)
            container.pointee.setCount = position + 1
            return
        }
        let column = column(forKey: key)
        container.pointee.set(value, forColumn: column)
        if let bits, container.pointee.setCount == position + 1 {
            target.rememberKey(bits, column: column, at: position)
        }
    }
}
