/// An SQL identifier (a table, column, index, savepoint, collation or
/// function name) that compares as SQLite compares identifiers:
/// case-insensitively for the ASCII letters only. `Player` and `player` name
/// one table; `É` and `é` name two. It remembers how it was written.
///
/// Every comparison and every dictionary or set of identifiers in GRDBLite
/// goes through this type, so that GRDBLite and SQLite always agree on
/// which names are the same.
struct CaseInsensitiveIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identifier, as written.
    let rawValue: String

    init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    var description: String { rawValue }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.matches(rhs.rawValue)
    }

    /// Whether `name` is the same identifier.
    func matches(_ name: String) -> Bool {
        // O(1) for native strings: most mismatches end here.
        guard rawValue.utf8.count == name.utf8.count else { return false }
        // The same string, most of the time: the names of a region, a
        // statement, a schema.
        if rawValue.storageBits == name.storageBits { return true }
        let contiguous = rawValue.utf8.withContiguousStorageIfAvailable { lhs in
            name.utf8.withContiguousStorageIfAvailable { rhs in
                zip(lhs, rhs).allSatisfy { l, r in l == r || Self.folded(l) == Self.folded(r) }
            }
        }
        if let contiguous = contiguous ?? nil { return contiguous }
        var lhs = rawValue.utf8.makeIterator()
        var rhs = name.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil):
                return true
            case let (l?, r?):
                if l != r && Self.folded(l) != Self.folded(r) { return false }
            default:
                return false
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        // The folded bytes, eight to a word: one `combine` per eight bytes
        // instead of one per byte (identifiers are hashed for every
        // region check of every observation).
        let utf8 = rawValue.utf8
        let contiguous: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            Self.combineFolded(bytes, into: &hasher)
        }
        if contiguous == nil {
            Self.combineFolded(Array(utf8), into: &hasher)
        }
        // The length: "a" and "a\0" differ, and "ab" + "c" and "a" + "bc"
        // hash differently in a combined hash.
        hasher.combine(utf8.count)
    }

    private static func combineFolded(_ bytes: some Collection<UInt8>, into hasher: inout Hasher) {
        var word: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            word |= UInt64(folded(byte)) << shift
            shift += 8
            if shift == 64 {
                hasher.combine(word)
                word = 0
                shift = 0
            }
        }
        hasher.combine(word)
    }

    /// Orders identifiers by their bytes, ASCII letters lowercased: a
    /// stable order for generated SQL and descriptions.
    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue.utf8.lazy.map(folded).lexicographicallyPrecedes(rhs.rawValue.utf8.lazy.map(folded))
    }

    /// The byte, with the ASCII uppercase letters lowercased.
    static func folded(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }
}
