extension String {
    /// The bits of the string value, to compare strings without reading
    /// them: equal bits are the same string (the same storage, or the same
    /// small string), as long as one of them is alive. Unequal bits may
    /// still be equal strings.
    @inlinable
    var storageBits: (UInt64, UInt64) {
        #if _pointerBitWidth(_64)
        // Unsafe: a 64-bit String is two words (unsafeBitCast traps on
        // another size); they are compared, never used as a string.
        unsafeBitCast(self, to: (UInt64, UInt64).self)
        #else
        var bits: (UInt64, UInt64) = (0, 0)
        // Unsafe: the string's bytes (fewer than 16 off 64-bit platforms),
        // zero-padded; they are compared, never used as a string.
        withUnsafeBytes(of: self) { source in
            // Unsafe: copies the bytes above into the padded bits.
            withUnsafeMutableBytes(of: &bits) { $0.copyMemory(from: source) }
        }
        return bits
        #endif
    }
}

extension Array where Element == String {
    /// The ``Swift/String/storageBits`` of the string at `position`, which
    /// must be in bounds, read in place (no retain of the string).
    @inlinable
    func stringBits(at position: Int) -> (UInt64, UInt64) {
        #if _pointerBitWidth(_64)
        assert(MemoryLayout<String>.stride == 16)
        // Unsafe: a 64-bit String is 16 bytes, two words (the stride is
        // checked); its bits are compared, never used as a string.
        return withUnsafeBytes { $0.load(fromByteOffset: position * 16, as: (UInt64, UInt64).self) }
        #else
        return self[position].storageBits
        #endif
    }
}
