import CSQLite
import Foundation

// Decodable records: each coding key reads, in this order, the column of
// the same name (through `databaseColumnDecodingStrategy`), the row scope of
// that name (a joined record), or the prefetched rows of that name (a
// to-many association). A key that matches nothing decodes a nested record
// from the whole row, once (for types such as `struct BookInfo { var book:
// Book; var author: Author }` where `book` is the base row).
//
// Values that are `DatabaseValueConvertible` read their column directly;
// other `Decodable` values (nested structs, arrays...) are decoded from the
// JSON text of their column.
//
// Performance: the keyed container is built once per cursor and reused for
// every row, and coding keys find their column through its key plan (the
// column of the n-th key of the previous record, see `RowDecodingState`),
// so decoding a record allocates nothing beyond the record itself.
//
// Lifetimes: `init(from:)` may keep the decoder or a container beyond its
// return. Decoders, single value, unkeyed and nested containers own their
// rows: they stay valid. The cached keyed container refers to its row
// without retaining it (see `RowKeyedDecodingContainer`): once the row is
// gone, using a kept container traps with an explanation, instead of
// reading freed memory.

extension FetchableRecord where Self: Decodable {
    /// Decodes a record from a row: each coding key reads the column of the
    /// same name.
    ///
    /// `GRDBLITE_REFERENCE_CODERS=1` in the environment selects the
    /// reference decoder instead of the fast path (see <doc:Harness>).
    @inlinable
    public init(row: Row) throws {
        if _slowPath(ReferenceCoders.isEnabled) {
            self = try ReferenceCoders.decode(Self.self, from: row)
            return
        }
        self = try Self(from: RowDecoder<Self>(row: row))
    }
}

/// Decodes `Decodable` records from rows, as `init(row:)` does: for
/// records whose `init(row:)` does more than decode.
///
/// ```swift
/// struct Player: Decodable, FetchableRecord {
///     init(row: Row) throws {
///         self = try FetchableRecordDecoder().decode(Player.self, from: row)
///         // ...
///     }
/// }
/// ```
public class FetchableRecordDecoder {
    /// A decoder.
    public init() { }

    /// The record of type `type` decoded from `row`, with the decoding
    /// strategies of `type`.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        if ReferenceCoders.isEnabled { return try ReferenceCoders.decode(T.self, from: row) }
        return try T(from: RowDecoder<T>(row: row))
    }
}
