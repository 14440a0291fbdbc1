import Foundation

// Reading text: SQLite hands over UTF-8 bytes, which become a `String`
// only when they are valid UTF-8 (never repaired), NUL bytes included.
//
// The standard library's `String(validating:as:)` is generic over the
// encoding and the sequence: its entry point runs unspecialized, with
// runtime metadata lookups, at every call, and costs about three times
// the text read itself. The functions below are concrete. SQLite's text
// ends with a NUL byte: `String(validatingCString:)` validates it in one
// pass, without repairing. Other bytes (blobs, text with NUL bytes
// inside) take an ASCII check eight bytes at a time, then
// `String(decoding:as:)`, whose buffer entry point specializes, and for
// other text the decoded bytes compared with the input (decoding repairs
// invalid UTF-8 with U+FFFD, so the bytes differ exactly when the input
// was invalid).

extension String {
    /// The string of UTF-8 bytes, or nil if they are not valid UTF-8.
    @inlinable
    static func validatingUTF8Bytes(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if isASCII(bytes) {
            return String(decoding: bytes, as: UTF8.self)
        }
        return validatingNonASCIIBytes(bytes)
    }

    /// The string of a text that SQLite hands over (`count` bytes, then a
    /// NUL byte), or nil if it is not valid UTF-8.
    ///
    /// `String(validatingCString:)` is concrete: it measures the text up to
    /// its first NUL byte, and validates it once, without repairing. Only a
    /// text with NUL bytes inside (shorter as a C string) takes the general
    /// path, which keeps them.
    @inlinable
    static func validatingSQLiteText(_ text: UnsafePointer<UInt8>, count: Int) -> String? {
        // Unsafe: SQLite's text ends with a NUL byte after its `count` bytes.
        let prefix = text.withMemoryRebound(to: CChar.self, capacity: count &+ 1) {
            String(validatingCString: $0)
        }
        // Invalid before its first NUL byte: invalid as a whole.
        guard let prefix else { return nil }
        if prefix.utf8.count == count { return prefix }
        return validatingUTF8Bytes(UnsafeBufferPointer(start: text, count: count))
    }

    /// The string of UTF-8 bytes, or nil if they are not valid UTF-8.
    @inlinable
    static func validatingUTF8Bytes(_ bytes: UnsafeRawBufferPointer) -> String? {
        // unsafe: binds the raw bytes to UInt8, as which any byte reads: no value is reinterpreted.
        validatingUTF8Bytes(bytes.bindMemory(to: UInt8.self))
    }

    /// Whether all bytes are ASCII, read eight at a time; the bytes after
    /// the last whole word are read as one word overlapping it (or as two
    /// overlapping halves in shorter text), not one by one.
    @inlinable
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(start)
        let count = bytes.count
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                    return false
                }
                offset &+= 8
            }
            return raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        }
        if count >= 4 {
            let head = raw.loadUnaligned(as: UInt32.self)
            let tail = raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            return (head | tail) & 0x8080_8080 == 0
        }
        if count >= 2 {
            let head = raw.loadUnaligned(as: UInt16.self)
            let tail = raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
            return (head | tail) & 0x8080 == 0
        }
        return count == 0 || start[0] & 0x80 == 0
    }

    /// Text with non-ASCII bytes: decoded, then kept only if decoding
    /// changed nothing.
    @usableFromInline
    static func validatingNonASCIIBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var string = String(decoding: bytes, as: UTF8.self)
        let unchanged = string.withUTF8 { decoded in
            decoded.count == bytes.count
                && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return unchanged ? string : nil
    }
}
