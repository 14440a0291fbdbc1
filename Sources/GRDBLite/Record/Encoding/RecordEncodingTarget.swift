import Foundation

/// Where a keyed container of the record encoder writes: the persistence
/// container of the running `encode(to:)`, nil outside of the call that
/// gave out the keyed container.
@usableFromInline
final class RecordEncodingTarget {
    /// Unchecked exclusivity: used for every encoded value, by the thread
    /// that runs `encode(to:)`.
    @usableFromInline @exclusivity(unchecked) var container: UnsafeMutablePointer<PersistenceContainer>?
    /// The cache that gave out the container: only used while `container`
    /// is not nil, when the cache is alive (the running call holds it).
    /// Unowned: the cache owns this target.
    @usableFromInline unowned(unsafe) var cache: RecordEncoderCache?
    /// The keys that the previous records wrote, by position: the bits of
    /// each key (see `ColumnLookup.bits(of:)`) and its column. A key with
    /// the same bits at the same position, whose column is still the
    /// container's column at that position, writes there without asking
    /// the key its `stringValue`. The columns are kept alive here, so that
    /// equal bits are the same string.
    /// Unchecked exclusivity: only the thread that runs `encode(to:)` uses it.
    @usableFromInline @exclusivity(unchecked) var keyBits: [UInt64] = []
    // Unchecked exclusivity: only the thread that runs `encode(to:)` uses it.
    @usableFromInline @exclusivity(unchecked) var keyColumns: [String] = []
    /// The fast path of the running record: at the positions below
    /// `fastCount`, the container holds the column of the key remembered
    /// there, and the key of bits `fastBits[position]` stores its value
    /// into `fastValues[position]` (the container's values, uniquely
    /// referenced), without checking the arrays. Anything that may change
    /// the arrays (another column, another container) sets `fastCount`
    /// to 0 first.
    // Unchecked exclusivity: only the thread that runs `encode(to:)` uses it.
    @usableFromInline @exclusivity(unchecked) var fastCount = 0
    // Unchecked exclusivity: only the thread that runs `encode(to:)` uses it. Unsafe: valid below `fastCount`.
    @usableFromInline @exclusivity(unchecked) var fastBits: UnsafePointer<UInt64>?
    // Unchecked exclusivity: only the thread that runs `encode(to:)` uses it. Unsafe: valid below `fastCount`.
    @usableFromInline @exclusivity(unchecked) var fastValues: UnsafeMutablePointer<DatabaseValue>?
    /// The column names whose first `verifiedCount` are those of
    /// `keyColumns`, sharing their buffer so that it can't change: a
    /// container with the same buffer needs no new comparison.
    // Unchecked exclusivity: only the thread that runs `encode(to:)` uses it.
    @exclusivity(unchecked) var verifiedNames: [String] = []
    // Unchecked exclusivity: only the thread that runs `encode(to:)` uses it.
    @exclusivity(unchecked) var verifiedCount = 0

    init() { }

    /// Prepares the fast path for a record encoded into `container`:
    /// finds the positions whose column is still the one its key wrote
    /// for the previous record, and makes the values unique.
    @usableFromInline
    @inline(__always)
    func prepareFastPath(_ container: UnsafeMutablePointer<PersistenceContainer>) {
        let count = min(keyBits.count, container.pointee.names.count, container.pointee.values.count)
        fastCount = 0
        guard count > 0 else { return }
        // Unsafe: the addresses are compared, never dereferenced.
        let sameNames = verifiedNames.withUnsafeBufferPointer { lhs in
            // Unsafe: the base addresses are compared, never dereferenced.
            container.pointee.names.withUnsafeBufferPointer { rhs in lhs.baseAddress == rhs.baseAddress }
        }
        let verified: Int
        if sameNames {
            verified = min(verifiedCount, count)
        } else {
            var matching = 0
            while matching < count,
                keyColumns.stringBits(at: matching) == container.pointee.names.stringBits(at: matching)
            {
                matching += 1
            }
            verified = matching
            verifiedNames = container.pointee.names
            verifiedCount = matching
        }
        guard verified > 0 else { return }
        // Unsafe: the pointers outlive the closures. They stay valid while
        // the arrays are not changed: every change of these arrays during
        // the call resets `fastCount` first (slow paths, other containers,
        // nested records), and so does the end of the call.
        fastValues = container.pointee.values.withUnsafeMutableBufferPointer { $0.baseAddress }
        // Unsafe: kept after the closure; valid while `keyBits` is unchanged (each change resets `fastCount` first).
        fastBits = keyBits.withUnsafeBufferPointer { $0.baseAddress }
        fastCount = verified
    }

    /// Checks that the fast path's pointers are still the buffers of
    /// `keyBits` and of the container's values: a change of either array
    /// that forgot to reset `fastCount` traps here, before a write through
    /// a stale pointer. Debug builds (the test suite) call it at each use
    /// of the fast path; release builds don't.
    @usableFromInline
    func checkFastPath(_ container: UnsafeMutablePointer<PersistenceContainer>) {
        // Unsafe: the base addresses are compared, never dereferenced.
        let bits = keyBits.withUnsafeBufferPointer { $0.baseAddress }
        // Unsafe: the base addresses are compared, never dereferenced.
        let values = container.pointee.values.withUnsafeBufferPointer { $0.baseAddress }
        precondition(
            fastBits == bits && UnsafePointer(fastValues) == values,
            "the record encoder's fast path outlived the arrays it points into")
    }

    /// Whether the key of bits `bits` wrote the column that `container`
    /// holds at `position` for the previous record.
    @inlinable
    @inline(__always)
    func isKnownKey(_ bits: UInt64, at position: Int, in container: PersistenceContainer) -> Bool {
        guard position < keyBits.count, keyBits[position] == bits, position < container.names.count else {
            return false
        }
        // The column is alive (kept in `keyColumns`): equal bits are the
        // same string.
        return keyColumns.stringBits(at: position) == container.names.stringBits(at: position)
    }

    /// Remembers that the key of bits `bits` wrote `column` at `position`.
    @usableFromInline
    func rememberKey(_ bits: UInt64, column: String, at position: Int) {
        fastCount = 0
        verifiedCount = 0
        if position < keyBits.count {
            keyBits[position] = bits
            keyColumns[position] = column
        } else if position == keyBits.count {
            keyBits.append(bits)
            keyColumns.append(column)
        }
    }

    /// Forgets the keys: the container encodes keys of another type.
    @usableFromInline
    func forgetKeys() {
        fastCount = 0
        verifiedCount = 0
        keyBits.removeAll(keepingCapacity: true)
        keyColumns.removeAll(keepingCapacity: true)
    }

    @usableFromInline
    static func containerMisuse() -> Never {
        fatalError("""
            A KeyedEncodingContainer of a record was used after its `encode(to:)` returned: \
            it writes into the persistence container of that call only. \
            Encode values inside `encode(to:)` instead of keeping the container.
            """)
    }
}
