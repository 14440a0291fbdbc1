extension String {
    /// The two words of the string value, to compare strings without
    /// reading them: equal bits are the same string (the same storage, or
    /// the same small string), as long as one of them is alive. Unequal
    /// bits may still be equal strings.
    @inlinable
    @inline(__always)
    var storageBits: (UInt64, UInt64) {
        // Unsafe: a String is two words; they are compared, never used as
        // a string.
        unsafeBitCast(self, to: (UInt64, UInt64).self)
    }
}

extension Array where Element == String {
    /// The ``Swift/String/storageBits`` of the string at `position`, which
    /// must be in bounds, read in place (no retain of the string).
    @inlinable
    @inline(__always)
    func stringBits(at position: Int) -> (UInt64, UInt64) {
        // Unsafe: a String is 16 bytes; its bits are compared, never used
        // as a string.
        withUnsafeBytes { $0.load(fromByteOffset: position * 16, as: (UInt64, UInt64).self) }
    }
}
