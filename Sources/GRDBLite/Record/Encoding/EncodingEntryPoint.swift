import Foundation

// Encodable records: each coding key writes the column of the same name
// (through `databaseColumnEncodingStrategy`). Database values are stored as
// they are (`Date`, `Data` and `UUID` through the record's strategies); nil
// optionals store NULL; other values (nested structs, arrays...) are stored
// as JSON text.
//
// Performance: the keyed container is built once and reused with the
// persistence container of the connection, so encoding a record for an
// insert allocates nothing.
//
// Lifetimes: `encode(to:)` may keep the encoder or the keyed container
// beyond its return. Both then trap when they are used, with an
// explanation: the persistence container they wrote into is gone, and they
// must not write into the container of another record.

extension EncodableRecord where Self: Encodable {
    /// Encodes the record: each coding key writes the column of the same
    /// name.
    ///
    /// `GRDBLITE_REFERENCE_CODERS=1` in the environment selects the
    /// reference encoder instead of the fast path (see <doc:Harness>).
    @inlinable
    public func encode(to container: inout PersistenceContainer) throws {
        if _slowPath(ReferenceCoders.isEnabled) {
            return try ReferenceCoders.encode(self, to: &container)
        }
        // Unsafe: the pointer is used by the keyed container during this
        // call only (it traps afterwards).
        try withUnsafeMutablePointer(to: &container) { pointer in
            let cache = RecordEncoderCache.acquire(pointer.pointee.encoderCache)
            cache.begin(encodingInto: pointer, recordType: Self.self)
            // The encoder holds the only retain of the cache, which keeps
            // it alive until `end()` (the existential lives until then).
            let unretained = Unmanaged.passUnretained(cache)
            let call = cache.call
            let encoder: any Encoder = RecordEncoder(cache: consume cache, call: call)
            defer {
                // Unretained, unsafe: the encoder keeps the cache alive.
                unretained._withUnsafeGuaranteedRef { $0.end() }
                withExtendedLifetime(encoder) { }
            }
            try encode(to: encoder)
        }
    }
}
