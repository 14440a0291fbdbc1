import Foundation
@testable import GRDBLite

// Fuzz target: the UTF-8 validation of the text GRDBLite reads
// (`String.validatingUTF8Bytes`, `String.validatingSQLiteText` and the
// ASCII check they start with) against the standard library's
// `String(validating:as:)`. The input is the bytes.
//
// The agreement checked: each function returns nil exactly when
// `String(validating:as:)` does, and otherwise the same string, whose
// UTF-8 bytes are the input's (NUL bytes included: never repaired,
// never cut). `isASCII` is true exactly when no byte has its high bit.

/// Traps with the input and the disagreement.
private func disagreement(_ bytes: [UInt8], _ message: String) -> Never {
    fatalError("\(message): \(bytes.map { String(format: "%02x", $0) }.joined())")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let expected = String(validating: bytes, as: UTF8.self)
    if let expected, Array(expected.utf8) != bytes {
        disagreement(bytes, "String(validating:as:) changed the bytes")
    }

    // Plain memory of the exact size, then a NUL byte, as SQLite hands
    // text over (ASan sees reads past the end).
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size + 1)
    defer { buffer.deallocate() }
    _ = buffer.initialize(from: bytes)
    buffer[size] = 0
    let exact = UnsafeBufferPointer(rebasing: buffer[0..<size])

    let isASCII = String.isASCII(exact)
    if isASCII != bytes.allSatisfy({ $0 < 0x80 }) {
        disagreement(bytes, "isASCII: \(isASCII)")
    }
    let validated = String.validatingUTF8Bytes(exact)
    if validated != expected || validated.map({ Array($0.utf8) != bytes }) == true {
        disagreement(bytes, "validatingUTF8Bytes: \(String(describing: validated))")
    }
    let raw = String.validatingUTF8Bytes(UnsafeRawBufferPointer(exact))
    if raw != expected || raw.map({ Array($0.utf8) != bytes }) == true {
        disagreement(bytes, "validatingUTF8Bytes (raw): \(String(describing: raw))")
    }
    let text = String.validatingSQLiteText(UnsafePointer(buffer.baseAddress!), count: size)
    if text != expected || text.map({ Array($0.utf8) != bytes }) == true {
        disagreement(bytes, "validatingSQLiteText: \(String(describing: text))")
    }
    return 0
}
