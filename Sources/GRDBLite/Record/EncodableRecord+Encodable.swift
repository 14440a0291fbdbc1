import Foundation
import Synchronization

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
    @inlinable
    public func encode(to container: inout PersistenceContainer) throws {
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
    /// Unchecked exclusivity: see `container`.
    @usableFromInline @exclusivity(unchecked) var keyBits: [UInt64] = []
    // Unchecked exclusivity: see `container`.
    @usableFromInline @exclusivity(unchecked) var keyColumns: [String] = []
    /// The fast path of the running record: at the positions below
    /// `fastCount`, the container holds the column of the key remembered
    /// there, and the key of bits `fastBits[position]` stores its value
    /// into `fastValues[position]` (the container's values, uniquely
    /// referenced), without checking the arrays. Anything that may change
    /// the arrays (another column, another container) sets `fastCount`
    /// to 0 first.
    // Unchecked exclusivity: see `container`.
    @usableFromInline @exclusivity(unchecked) var fastCount = 0
    // Unchecked exclusivity: see `container`. Unsafe: valid below `fastCount`.
    @usableFromInline @exclusivity(unchecked) var fastBits: UnsafePointer<UInt64>?
    // Unchecked exclusivity: see `container`. Unsafe: valid below `fastCount`.
    @usableFromInline @exclusivity(unchecked) var fastValues: UnsafeMutablePointer<DatabaseValue>?
    /// The column names whose first `verifiedCount` are those of
    /// `keyColumns`, sharing their buffer so that it can't change: a
    /// container with the same buffer needs no new comparison.
    // Unchecked exclusivity: see `container`.
    @exclusivity(unchecked) var verifiedNames: [String] = []
    // Unchecked exclusivity: see `container`.
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

/// The `Encoder` of `Encodable` records.
@usableFromInline
struct RecordEncoder: Encoder {
    @usableFromInline let cache: RecordEncoderCache
    /// The call of `encode(to:)` that the encoder serves.
    @usableFromInline let call: UInt

    @inlinable
    init(cache: RecordEncoderCache, call: UInt) {
        self.cache = cache
        self.call = call
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }

    /// The type of the record; traps outside of the call of `encode(to:)`
    /// that the encoder serves (another call may have set the cache's).
    @usableFromInline var recordType: any EncodableRecord.Type {
        guard cache.call == call, cache.container != nil else { RecordEncoderCache.encoderMisuse() }
        return cache.recordType
    }

    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard cache.call == call, let container = cache.container else {
            RecordEncoderCache.encoderMisuse()
        }
        if cache.cachedRecord == ObjectIdentifier(cache.recordType), cache.cachedKey == ObjectIdentifier(Key.self) {
            cache.target.container = container
            if cache.otherTargets.isEmpty {
                // Unretained, unsafe: the cache, alive, owns its target.
                Unmanaged.passUnretained(cache.target)._withUnsafeGuaranteedRef { $0.prepareFastPath(container) }
            }
            // Unsafe: the box is there when the record and key types are.
            let box = cache.cachedBox.unsafelyUnwrapped
            // Unsafe: its reader too.
            let reader = cache.cachedReader.unsafelyUnwrapped
            return CodingContainerBox.container(box, reader: reader)
        }
        return cache.makeKeyedContainer(keyedBy: type)
    }

    /// A record can't be a list: the container throws when it is used.
    @usableFromInline
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(
            reason: "\(recordType) can't be encoded as a list: a record encodes its columns in a keyed container")
    }

    /// Encodes a value whose columns are the record's: a record, or a value
    /// encoded with a keyed container.
    @usableFromInline
    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleValueEncodingContainer(encoder: self)
    }
}

/// The single-value container of a record: the value it encodes writes its
/// columns into the record's persistence container (a wrapper record that
/// encodes its wrapped model). A value that is not made of columns (a
/// string, nil...) is an error.
struct RecordSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    func encode<T: Encodable>(_ value: T) throws {
        guard encoder.cache.call == encoder.call, let container = encoder.cache.container else {
            RecordEncoderCache.encoderMisuse()
        }
        if let record = value as? any EncodableRecord {
            encoder.cache.target.fastCount = 0 // it may grow the arrays
            try record.encode(to: &container.pointee)
        } else {
            try value.encode(to: encoder)
        }
    }

    func refuse(_ value: Any?) throws -> Never {
        throw EncodingError.invalidValue(value as Any, EncodingError.Context(
            codingPath: [],
            debugDescription: "\(encoder.recordType) can't encode a single value: a record encodes its columns"))
    }

    func encodeNil() throws { try refuse(nil) }
    func encode(_ value: Bool) throws { try refuse(value) }
    func encode(_ value: String) throws { try refuse(value) }
    func encode(_ value: Double) throws { try refuse(value) }
    func encode(_ value: Float) throws { try refuse(value) }
    func encode(_ value: Int) throws { try refuse(value) }
    func encode(_ value: Int8) throws { try refuse(value) }
    func encode(_ value: Int16) throws { try refuse(value) }
    func encode(_ value: Int32) throws { try refuse(value) }
    func encode(_ value: Int64) throws { try refuse(value) }
    func encode(_ value: UInt) throws { try refuse(value) }
    func encode(_ value: UInt8) throws { try refuse(value) }
    func encode(_ value: UInt16) throws { try refuse(value) }
    func encode(_ value: UInt32) throws { try refuse(value) }
    func encode(_ value: UInt64) throws { try refuse(value) }
}

/// An unkeyed container that throws an `EncodingError` when it is used:
/// what a record encoder gives where it can't encode.
struct RefusingUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let reason: String
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    func refuse() throws -> Never {
        throw EncodingError.invalidValue((), EncodingError.Context(codingPath: [], debugDescription: reason))
    }

    mutating func encodeNil() throws { try refuse() }
    mutating func encode<T: Encodable>(_ value: T) throws { try refuse() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>(reason: reason))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { RefusingEncoder(reason: reason) }
}

/// A keyed container that throws an `EncodingError` when it is used.
struct RefusingKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let reason: String
    var codingPath: [any CodingKey] { [] }

    func refuse() throws -> Never {
        throw EncodingError.invalidValue((), EncodingError.Context(codingPath: [], debugDescription: reason))
    }

    mutating func encodeNil(forKey key: Key) throws { try refuse() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try refuse() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>(reason: reason))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(reason: reason)
    }
    mutating func superEncoder() -> any Encoder { RefusingEncoder(reason: reason) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RefusingEncoder(reason: reason) }
}

/// An encoder whose containers throw an `EncodingError` when they are used.
struct RefusingEncoder: Encoder, SingleValueEncodingContainer {
    let reason: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<Key>(reason: reason))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedEncodingContainer(reason: reason) }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func refuse() throws -> Never {
        throw EncodingError.invalidValue((), EncodingError.Context(codingPath: [], debugDescription: reason))
    }

    mutating func encodeNil() throws { try refuse() }
    mutating func encode<T: Encodable>(_ value: T) throws { try refuse() }
}

/// Writes the columns of a record into the persistence container of the
/// running `encode(to:)`.
@usableFromInline
struct RecordKeyedEncodingContainer<Record: EncodableRecord, Key: CodingKey>: KeyedEncodingContainerProtocol {
    @usableFromInline let target: RecordEncodingTarget
    @usableFromInline let usesDefaultKeys: Bool
    /// The size of the keys' bits when they name the columns, or -1: keys
    /// are then matched by column name only (see `ColumnLookup.bits(of:)`).
    @usableFromInline let keyBitsSize: Int

    @usableFromInline
    init(target: RecordEncodingTarget) {
        self.target = target
        if case .useDefaultKeys = Record.databaseColumnEncodingStrategy {
            usesDefaultKeys = true
            keyBitsSize = ColumnLookup.bitsSize(of: Key.self)
        } else {
            usesDefaultKeys = false
            keyBitsSize = -1
        }
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }

    @inlinable
    @inline(__always)
    func column(forKey key: Key) -> String {
        usesDefaultKeys ? key.stringValue : Record.databaseColumnEncodingStrategy.column(forKey: key)
    }

    /// The persistence container; traps outside of the call of
    /// `encode(to:)` that gave out the container.
    @inlinable
    @inline(__always)
    var persistenceContainer: UnsafeMutablePointer<PersistenceContainer> {
        guard let container = target.container else { RecordEncodingTarget.containerMisuse() }
        return container
    }

    /// Stores the value of a key. With column names from the keys, a key
    /// that wrote the same position of the previous record is matched by
    /// its bits (see ``RecordEncodingTarget/fastCount``): the fast path,
    /// inlined in each `encode` method. Other keys take `slowSet`.
    @inlinable
    @inline(__always)
    func set(_ value: consuming DatabaseValue, forKey key: Key) throws {
        let target = self.target
        if let container = target.container {
            let position = container.pointee.setCount
            if position < target.fastCount {
                // One-byte keys (the synthesized `CodingKeys` enums) with
                // one compare; other sizes take an outlined function, in
                // tail position like the slow path: no register has to
                // survive a call, which keeps the witnesses' frame small.
                guard _fastPath(keyBitsSize == 1) else { return try setWiderKey(value, forKey: key) }
                // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`),
                // and the size of the key is checked.
                if target.fastBits.unsafelyUnwrapped[position] == UInt64(unsafeBitCast(key, to: UInt8.self)) {
                    Self.store(value, at: position, of: target, in: container)
                    return
                }
            }
        }
        try slowSet(value, forKey: key)
    }

    /// Stores a value on the fast path (see `set`).
    @inlinable
    @inline(__always)
    static func store(
        _ value: consuming DatabaseValue, at position: Int, of target: RecordEncodingTarget,
        in container: UnsafeMutablePointer<PersistenceContainer>)
    {
        // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`).
        let slot = target.fastValues.unsafelyUnwrapped + position
        container.pointee.setCount = position &+ 1
        switch slot.pointee.storage {
        case .null, .int64, .double:
            // Unsafe: the former value holds no reference.
            slot.initialize(to: value)
        case .string, .blob:
            // Last: the release of the former value is a call, after
            // which nothing needs a register kept.
            slot.pointee = value
        }
    }

    /// `set` for keys of another size than one byte.
    @usableFromInline
    @inline(never)
    func setWiderKey(_ value: DatabaseValue, forKey key: Key) throws {
        if let container = target.container {
            let position = container.pointee.setCount
            if position < target.fastCount,
                let bits = ColumnLookup.bits(of: key, size: keyBitsSize),
                // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`).
                target.fastBits.unsafelyUnwrapped[position] == bits
            {
                Self.store(value, at: position, of: target, in: container)
                return
            }
        }
        try slowSet(value, forKey: key)
    }

    /// Stores the value of a key that is not on the fast path: a key
    /// matched by bits whose column is not known at this position, or by
    /// name.
    @usableFromInline
    @inline(never)
    func slowSet(_ value: DatabaseValue, forKey key: Key) throws {
        let container = persistenceContainer
        let position = container.pointee.setCount
        let bits = ColumnLookup.bits(of: key, size: keyBitsSize)
        target.fastCount = 0 // the arrays may change below
        if let bits, target.isKnownKey(bits, at: position, in: container.pointee) {
            container.pointee.replaceValue(at: position, with: value)
            container.pointee.setCount = position + 1
            return
        }
        let column = column(forKey: key)
        container.pointee.set(value, forColumn: column)
        if let bits, container.pointee.setCount == position + 1 {
            target.rememberKey(bits, column: column, at: position)
        }
    }

    // Each method inlines the fast path of `set` into its witness, which the
    // standard library's box calls for every value: no call chain. The
    // methods of Int64 don't: their witnesses would be the same code as
    // Int's, which the compiler merges behind a slower thunk.
    @inlinable @inline(__always)
    func encodeNil(forKey key: Key) throws { try set(.null, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Bool, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: String, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Double, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Float, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Int, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: Int8, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: Int16, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: Int32, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable
    func encode(_ value: Int64, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(value)), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt8, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt16, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt32, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt, forKey key: Key) throws { try set(unsigned(value, key), forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: UInt64, forKey key: Key) throws { try set(unsigned(value, key), forKey: key) }

    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: String?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable
    func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try set(value.map { try unsigned($0, key) } ?? .null, forKey: key)
    }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try set(value.map { try unsigned($0, key) } ?? .null, forKey: key)
    }

    /// Unsigned values above Int64.max can't be stored: an error.
    @usableFromInline
    func unsigned<T: FixedWidthInteger>(_ value: T, _ key: Key) throws -> DatabaseValue {
        guard let value = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [key],
                debugDescription: "\(T.self) value \(value) of column \(String(reflecting: column(forKey: key))) "
                    + "can't be stored in SQLite: it exceeds Int64.max"))
        }
        return DatabaseValue(storage: .int64(value))
    }

    @usableFromInline
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let column = column(forKey: key)
        let dbValue = try RecordValueEncoding<Record>.databaseValue(value, column: column, key: key)
        // The column is known (its strategies needed it): no key matching.
        let container = persistenceContainer
        let position = container.pointee.setCount
        if position < target.fastCount,
            container.pointee.names.stringBits(at: position) == column.storageBits
        {
            // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`).
            (target.fastValues.unsafelyUnwrapped + position).pointee = dbValue
            container.pointee.setCount = position &+ 1
            return
        }
        target.fastCount = 0 // the arrays may change below
        container.pointee.set(dbValue, forColumn: column)
    }

    @usableFromInline
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try set(.null, forKey: key) }
        try encode(value, forKey: key)
    }

    /// Not supported: the container throws when it is used.
    @usableFromInline
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>(reason: Self.nestedContainerReason))
    }

    /// Not supported: the container throws when it is used.
    @usableFromInline
    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(reason: Self.nestedContainerReason)
    }

    static var nestedContainerReason: String {
        "\(Record.self): nested containers are not supported: store nested values as Codable properties (JSON)"
    }

    @usableFromInline
    func superEncoder() -> any Encoder {
        _ = persistenceContainer // traps outside of the call
        let cache = target.cache.unsafelyUnwrapped // alive during the call
        return RecordEncoder(cache: cache, call: cache.call)
    }

    @usableFromInline
    func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}

/// Turns any `Encodable` value into a database value.
enum RecordValueEncoding<Record: EncodableRecord> {
    ///
    /// `Date`, `Data` and `UUID` are recognized by their metadata, a
    /// comparison of pointers, before any dynamic cast: `as?` costs a
    /// runtime call, for every value.
    static func databaseValue<T: Encodable>(_ value: T, column: String, key: some CodingKey) throws -> DatabaseValue {
        if T.self == Date.self {
            // Unsafe: T is Date.
            return Record.databaseDateEncodingStrategy(for: column).encode(unsafeBitCast(value, to: Date.self))
        }
        if T.self == Data.self {
            return try Record.databaseDataEncodingStrategy(for: column).encode(value as! Data)
        }
        if T.self == UUID.self {
            // Unsafe: T is UUID.
            return Record.databaseUUIDEncodingStrategy(for: column).encode(unsafeBitCast(value, to: UUID.self))
        }
        if let date = value as? Date {
            return Record.databaseDateEncodingStrategy(for: column).encode(date)
        }
        if let data = value as? Data {
            return try Record.databaseDataEncodingStrategy(for: column).encode(data)
        }
        if let uuid = value as? UUID {
            return Record.databaseUUIDEncodingStrategy(for: column).encode(uuid)
        }
        if let value = value as? any DatabaseValueConvertible {
            return try checked(value, column: column, key: key)
        }
        // A single value (an enum with a raw value...), or JSON.
        let encoder = SingleValueColumnEncoder<Record>(column: column, key: key)
        try value.encode(to: encoder)
        if !encoder.requiresJSON, let dbValue = encoder.value {
            return dbValue
        }
        let json = try Record.databaseJSONEncoder(for: column).encode(value)
        return String(decoding: json, as: UTF8.self).databaseValue
    }

    /// The database value of a convertible value; unsigned integers out of
    /// Int64's range are an error instead of a trap.
    private static func checked(_ value: any DatabaseValueConvertible, column: String, key: some CodingKey) throws
        -> DatabaseValue
    {
        if let value = value as? any FixedWidthInteger, Int64(exactly: value) == nil {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [key],
                debugDescription: "\(type(of: value)) value \(value) of column \(String(reflecting: column)) "
                    + "can't be stored in SQLite: it exceeds Int64.max"))
        }
        return value.databaseValue
    }
}

/// Captures a value encoded as a single value; any keyed or unkeyed
/// container means the value must be stored as JSON.
final class SingleValueColumnEncoder<Record: EncodableRecord>: Encoder, SingleValueEncodingContainer {
    var value: DatabaseValue?
    var requiresJSON = false
    let column: String
    let key: any CodingKey
    var codingPath: [any CodingKey] { [key] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    init(column: String, key: some CodingKey) {
        self.column = column
        self.key = key
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        requiresJSON = true
        return KeyedEncodingContainer(IgnoringKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        requiresJSON = true
        return IgnoringUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }

    func encode<T: Encodable>(_ value: T) throws {
        // A wrapper of a value: the value is the column's.
        self.value = try RecordValueEncoding<Record>.databaseValue(value, column: column, key: key)
    }

    func encode(_ value: Bool) throws { self.value = value.databaseValue }
    func encode(_ value: String) throws { self.value = value.databaseValue }
    func encode(_ value: Double) throws { self.value = value.databaseValue }
    func encode(_ value: Float) throws { self.value = value.databaseValue }
    func encode(_ value: Int) throws { self.value = value.databaseValue }
    func encode(_ value: Int8) throws { self.value = value.databaseValue }
    func encode(_ value: Int16) throws { self.value = value.databaseValue }
    func encode(_ value: Int32) throws { self.value = value.databaseValue }
    func encode(_ value: Int64) throws { self.value = value.databaseValue }
    func encode(_ value: UInt8) throws { self.value = value.databaseValue }
    func encode(_ value: UInt16) throws { self.value = value.databaseValue }
    func encode(_ value: UInt32) throws { self.value = value.databaseValue }
    func encode(_ value: UInt) throws { try encode(UInt64(value)) }
    func encode(_ value: UInt64) throws {
        guard let value = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                    codingPath: [],
                    debugDescription: "UInt64 value \(value) can't be stored in SQLite: it exceeds Int64.max"))
        }
        self.value = value.databaseValue
    }
}

/// Swallows what a JSON-bound value writes while we find out it is JSON.
private struct IgnoringKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) { }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(IgnoringKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { IgnoringUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { IgnoringEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { IgnoringEncoder() }
}

private struct IgnoringUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0
    mutating func encodeNil() { }
    mutating func encode<T: Encodable>(_ value: T) { }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(IgnoringKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { IgnoringUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { IgnoringEncoder() }
}

/// An encoder that swallows everything (see `IgnoringKeyedContainer`).
private struct IgnoringEncoder: Encoder, SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(IgnoringKeyedContainer<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { IgnoringUnkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }
    mutating func encodeNil() { }
    mutating func encode<T: Encodable>(_ value: T) { }
}
