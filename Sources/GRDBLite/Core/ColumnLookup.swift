/// Remembers the column name lookups of a statement's rows, so that code
/// reading `row["name"]` in the same order for every row (the common case:
/// `init(row:)`) finds each index without searching or hashing.
///
/// The n-th lookup of a row is checked against the n-th lookup of the
/// previous row by comparing the bits of the two `String` values, which are
/// identical for the same string literal. Any mismatch falls back to a
/// search, so lookups in another order stay correct, only slower.
///
/// Coding keys (`Decodable` records) are matched the same way by their
/// type and bits when they can be (``bits(of:)``): reading `stringValue`
/// through the key's witness table, then releasing it, costs more than
/// reading the column.
///
/// Owned by its ``Statement`` through a pointer, so that the hot path pays
/// neither reference counting nor exclusivity checks.
@usableFromInline
struct ColumnLookup {
    @usableFromInline
    struct Entry {
        @usableFromInline var bits: (UInt64, UInt64)
        /// The columns of the row the lookup was made in (row scopes see a
        /// slice of the statement's columns).
        @usableFromInline var offset: Int
        @usableFromInline var width: Int
        /// The found column, relative to `offset`; -1 if missing.
        @usableFromInline var index: Int
        /// Keeps the string alive, so that its bits identify it.
        var name: String
        /// The type of the coding key whose `stringValue` is `name`, if
        /// the lookup was made by a coding key, and the key's bits (see
        /// ``ColumnLookup/bits(of:)``).
        @usableFromInline var keyType: ObjectIdentifier?
        @usableFromInline var keyBits: UInt64 = 0
    }

    /// The bits of a coding key whose type holds no reference and 0, 1, 2,
    /// 4 or 8 bytes (the synthesized `CodingKeys` enums), or nil: equal bits
    /// of the same type are the same key, whose `stringValue` is the same.
    ///
    /// The assumption: a key's `stringValue` depends on its stored bytes
    /// only, as in every synthesized or hand-written key enum or struct.
    /// A key whose `stringValue` reads anything else (a global, the time)
    /// would be matched to the column of its first lookup. Debug builds
    /// (the test suite) check each match against `stringValue` and trap.
    @inlinable
    static func bits<Key: CodingKey>(of key: Key) -> UInt64? {
        bits(of: key, size: bitsSize(of: Key.self))
    }

    /// The size of the keys of a type that have bits (see `bits(of:)`),
    /// or -1: computed once by a container that matches many keys.
    @inlinable
    static func bitsSize<Key: CodingKey>(of type: Key.Type) -> Int {
        guard _isPOD(Key.self) else { return -1 }
        switch MemoryLayout<Key>.size {
        case 0, 1, 2, 4, 8: return MemoryLayout<Key>.size
        default: return -1
        }
    }

    /// The bits of a key whose size is `bitsSize(of: Key.self)`.
    @inlinable
    static func bits<Key: CodingKey>(of key: Key, size: Int) -> UInt64? {
        // Unsafe casts below: the key's bytes, of the size checked, only
        // compared, never used as a key.
        switch size {
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self)) // unsafe: a key of this size, as bits
        case 0: return 0
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self)) // unsafe: a key of this size, as bits
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self)) // unsafe: a key of this size, as bits
        case 8: return unsafeBitCast(key, to: UInt64.self) // unsafe: a key of this size, as bits
        default: return nil
        }
    }

    /// The ordinal of the next lookup in the current row.
    @usableFromInline var position = 0
    @usableFromInline var count = 0
    @usableFromInline let capacity: Int
    // Owned: allocated in init, freed by `destroy()` (once, from Statement.deinit).
    @usableFromInline let entries: UnsafeMutablePointer<Entry>

    init(capacity: Int) {
        self.capacity = capacity
        self.entries = .allocate(capacity: capacity)
    }

    /// Frees the entries; called once, when the statement is deallocated.
    func destroy() {
        entries.deinitialize(count: count)
        entries.deallocate()
    }
}

extension UnsafeMutablePointer where Pointee == ColumnLookup {
    /// The index of `name` among the `width` columns that start at column
    /// `offset` of `statement`, relative to `offset`, or nil if missing.
    @inlinable
    func index(of name: String, offset: Int, width: Int, in statement: Statement) -> Int? {
        let position = pointee.position
        if position < pointee.count {
            let entry = pointee.entries + position
            // The entry retains its name, so equal bits are the same string.
            let bits = name.storageBits
            if entry.pointee.bits == bits && entry.pointee.offset == offset && entry.pointee.width == width {
                pointee.position = position + 1
                let index = entry.pointee.index
                return index < 0 ? nil : index
            }
        }
        return slowIndex(of: name, offset: offset, width: width, in: statement)
    }

    /// The index of the column named by `key`, whose bits are `keyBits`
    /// (see ``ColumnLookup/bits(of:)``), as `index(of: key.stringValue, …)`.
    @inlinable
    func index<Key: CodingKey>(
        of key: Key, keyBits: UInt64, offset: Int, width: Int, in statement: Statement
    ) -> Int? {
        let position = pointee.position
        if position < pointee.count {
            let entry = pointee.entries + position
            if entry.pointee.keyType == ObjectIdentifier(Key.self) && entry.pointee.keyBits == keyBits
                && entry.pointee.offset == offset && entry.pointee.width == width
            {
                #if DEBUG
                checkKeyMatch(key, at: position)
                #endif
                pointee.position = position + 1
                let index = entry.pointee.index
                return index < 0 ? nil : index
            }
        }
        return slowIndex(of: key, keyBits: keyBits, offset: offset, width: width, in: statement)
    }

    /// Traps when a key matched by its bits has another `stringValue`
    /// than the key remembered at `position` (see ``bits(of:)``).
    @usableFromInline
    func checkKeyMatch<Key: CodingKey>(_ key: Key, at position: Int) {
        let remembered = pointee.entries[position].name
        precondition(
            key.stringValue == remembered,
            "coding key \(Key.self) has the bits of the key \"\(remembered)\" but the stringValue "
                + "\"\(key.stringValue)\": a key's stringValue must depend on its stored bytes only")
    }

    /// A lookup by name, then remembered for the key.
    @usableFromInline
    func slowIndex<Key: CodingKey>(
        of key: Key, keyBits: UInt64, offset: Int, width: Int, in statement: Statement
    ) -> Int? {
        let position = pointee.position
        let found = index(of: key.stringValue, offset: offset, width: width, in: statement)
        // The lookup above described this position, unless the entries
        // were full.
        if position < pointee.count {
            pointee.entries[position].keyType = ObjectIdentifier(Key.self)
            pointee.entries[position].keyBits = keyBits
        }
        return found
    }

    @usableFromInline
    func slowIndex(of name: String, offset: Int, width: Int, in statement: Statement) -> Int? {
        let position = pointee.position
        pointee.position = position + 1
        let identifier = CaseInsensitiveIdentifier(name)
        let found = statement.columnNames[offset..<(offset + width)]
            .firstIndex { identifier.matches($0) }
            .map { $0 - offset }
        let entry = ColumnLookup.Entry(
            bits: name.storageBits, // see index(of:): compared only
            offset: offset, width: width,
            index: found ?? -1,
            name: name)
        if position < pointee.count {
            pointee.entries[position] = entry
        } else if position == pointee.count && position < pointee.capacity {
            (pointee.entries + position).initialize(to: entry)
            pointee.count += 1
        }
        return found
    }
}
