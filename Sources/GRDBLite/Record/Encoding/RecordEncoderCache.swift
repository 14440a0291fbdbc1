import Foundation
import Synchronization

/// What the encoder of `Encodable` records reuses from one record to the
/// next: its keyed container. Shared by a persistence container and its
/// copies, which may be sent to other threads.
///
/// `@unchecked Sendable`: the properties other than `isBusy` are only used
/// by the thread that set `isBusy` (between `begin` and `end`); other
/// threads use a cache of their own.
@usableFromInline
// @unchecked Sendable: only the thread that set `isBusy` uses the other properties.
final class RecordEncoderCache: @unchecked Sendable {
    @usableFromInline let isBusy = Atomic<Bool>(false)
    // Unchecked exclusivity, for all properties below: they are used for
    // every encoded record, by the thread that holds `isBusy`.
    /// The persistence container of the running `encode(to:)`, nil between
    /// calls.
    @usableFromInline @exclusivity(unchecked) var container: UnsafeMutablePointer<PersistenceContainer>?
    /// Counts the calls of `encode(to:)`: an encoder of a finished call
    /// must not write into the container of the running one.
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var call: UInt = 0
    /// The cached keyed container: its record and key types, and its box
    /// (`noType` and nil if none).
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var cachedRecord = RecordEncoderCache.noType
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var cachedKey = RecordEncoderCache.noType
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var cachedBox: AnyObject?
    /// The ``CodingContainerReader`` of the cached box.
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var cachedReader: AnyObject?
    /// The type of the record of the running `encode(to:)` (kept
    /// afterwards): the encoder is not generic, so that building it costs
    /// no lookup of its type's metadata.
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var recordType: any EncodableRecord.Type = NoRecord.self
    /// Where the cached keyed container writes: armed with `container`
    /// when the container is given out, disarmed by `end()`.
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var target: RecordEncodingTarget
    /// The targets of the other keyed containers given out during the
    /// running call, which are not cached.
    // Unchecked exclusivity: only the thread that holds `isBusy` uses it.
    @usableFromInline @exclusivity(unchecked) var otherTargets: [RecordEncodingTarget] = []

    /// The identifier of no record or key type, in `cachedRecord` and
    /// `cachedKey` when no container is cached (not an optional: each
    /// record compares them).
    @usableFromInline static var noType: ObjectIdentifier { ObjectIdentifier(RecordEncoderCache.self) }

    @usableFromInline
    init() {
        target = RecordEncodingTarget()
        target.cache = self
    }

    /// `cache` if no other thread uses it, or a new cache; then call
    /// `begin(encodingInto:)`.
    @inlinable
    @inline(__always)
    static func acquire(_ cache: consuming RecordEncoderCache?) -> RecordEncoderCache {
        if let cache, cache.isBusy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            return cache
        }
        let cache = RecordEncoderCache()
        cache.isBusy.store(true, ordering: .relaxed)
        return cache
    }

    /// Starts encoding a record of type `recordType` into `container`.
    @inlinable
    @inline(__always)
    func begin(
        encodingInto container: UnsafeMutablePointer<PersistenceContainer>, recordType: any EncodableRecord.Type)
    {
        self.container = container
        self.recordType = recordType
        call &+= 1
    }

    /// Ends the call of `encode(to:)`: the containers given out can't
    /// write anymore, and a container that the user kept is not reused.
    @inlinable
    @inline(__always)
    func end() {
        container = nil
        target.fastCount = 0
        if target.container != nil {
            target.container = nil
            if !isKnownUniquelyReferenced(&cachedBox) {
                retireCachedContainer()
            }
        }
        if _slowPath(!otherTargets.isEmpty) {
            retireOtherTargets()
        }
        isBusy.store(false, ordering: .releasing)
    }

    /// Forgets the cached container, which the user kept: it can't write
    /// anymore.
    @usableFromInline
    func retireCachedContainer() {
        cachedRecord = Self.noType
        cachedKey = Self.noType
        cachedBox = nil
        cachedReader = nil
        target = RecordEncodingTarget()
        target.cache = self
    }

    @usableFromInline
    func retireOtherTargets() {
        for target in otherTargets { target.container = nil }
        otherTargets.removeAll()
    }

    /// The keyed container of a record type, when it is not the cached one.
    @usableFromInline
    func makeKeyedContainer<Record: EncodableRecord, Key: CodingKey>(
        _ record: Record.Type,
        keyedBy type: Key.Type) -> KeyedEncodingContainer<Key>
    {
        if target.container != nil || !CodingContainerBox.isAvailable {
            // The cached container is in use, or kept containers can't be
            // detected: a container that is not cached.
            let target = RecordEncodingTarget()
            target.cache = self
            target.container = container
            otherTargets.append(target)
            // Its writes may grow the container's arrays.
            self.target.fastCount = 0
            return KeyedEncodingContainer(RecordKeyedEncodingContainer<Record, Key>(target: target))
        }
        // Replaces the cached container, which no one else holds (it was
        // checked when its call ended).
        let keyedContainer = KeyedEncodingContainer(RecordKeyedEncodingContainer<Record, Key>(target: target))
        target.forgetKeys() // the keys of another type
        cachedRecord = ObjectIdentifier(Record.self)
        cachedKey = ObjectIdentifier(Key.self)
        cachedBox = CodingContainerBox.box(of: keyedContainer)
        cachedReader = CodingContainerReader<KeyedEncodingContainer<Key>>()
        target.container = container
        return keyedContainer
    }

    /// The keyed container of the running record type, when it is not the
    /// cached one.
    @usableFromInline
    func makeKeyedContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        func make<Record: EncodableRecord>(_ record: Record.Type) -> KeyedEncodingContainer<Key> {
            makeKeyedContainer(record, keyedBy: type)
        }
        return make(recordType)
    }

    /// The record type of a cache that has encoded nothing yet.
    @usableFromInline
    struct NoRecord: EncodableRecord {
        @usableFromInline func encode(to container: inout PersistenceContainer) { }
    }

    @usableFromInline
    static func encoderMisuse() -> Never {
        fatalError("""
            The Encoder of a record was used after its `encode(to:)` returned: \
            it writes into the persistence container of that call only. \
            Encode values inside `encode(to:)` instead of keeping the encoder.
            """)
    }
}
