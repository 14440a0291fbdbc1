import Foundation
import Synchronization

/// The switch between the fast record coders and their reference
/// implementation.
///
/// The coders of `Decodable` and `Encodable` records have a fast path
/// (`Record/Decoding`, `Record/Encoding`: cached containers, key plans,
/// unsafe constructs) and a reference implementation of the same rules
/// (`Record/Decoding/Reference`, `Record/Encoding/Reference`: plain code,
/// no unsafe construct). `GRDBLITE_REFERENCE_CODERS=1` in the environment
/// selects the reference coders for the whole process:
///
/// ```sh
/// GRDBLITE_REFERENCE_CODERS=1 swift test --skip-build --filter Record
/// ```
///
/// The test suites run on both (CI runs the coder suites again with the
/// switch), so that they check that the fast path behaves as the
/// reference. The switch is read once, at the entry points
/// (`FetchableRecord.init(row:)` and `FetchableRecordDecoder` for
/// `Decodable` records, `EncodableRecord.encode(to:)` for `Encodable`
/// records); it is not an API.
@usableFromInline
enum ReferenceCoders {
    /// Whether `GRDBLITE_REFERENCE_CODERS=1`: read once, when the first
    /// record is decoded or encoded.
    @usableFromInline static let isEnabled = ProcessInfo.processInfo.environment["GRDBLITE_REFERENCE_CODERS"] == "1"

    /// The records that the reference coders decoded and encoded: a unit
    /// test checks that the switch reaches them.
    static let decodedRecords = Atomic<Int>(0)
    static let encodedRecords = Atomic<Int>(0)

    /// Decodes a record with the reference decoder.
    @usableFromInline
    static func decode<Record: FetchableRecord & Decodable>(_ type: Record.Type, from row: Row) throws -> Record {
        decodedRecords.add(1, ordering: .relaxed)
        return try ReferenceRowDecoder<Record>.decodeRecord(Record.self, from: row)
    }

    /// Encodes a record with the reference encoder.
    @usableFromInline
    static func encode<Record: EncodableRecord & Encodable>(
        _ record: Record, to container: inout PersistenceContainer) throws
    {
        encodedRecords.add(1, ordering: .relaxed)
        try ReferenceEncodingTarget.encode(record, to: &container)
    }
}
