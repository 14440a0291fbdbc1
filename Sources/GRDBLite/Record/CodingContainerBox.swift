/// The box of a `KeyedEncodingContainer` or `KeyedDecodingContainer`.
///
/// The record coders cache their keyed containers (building one allocates
/// the standard library's box of our container), and our containers refer
/// to what they read or write without reference counting (copying them
/// happens for every value). `encode(to:)` and `init(from:)` may keep a
/// container beyond their return: a keyed container is a single reference to
/// its box, so the coders keep the box itself, hand out containers made
/// from it, and tell from its reference count whether the user kept a copy.
/// They then retire the container, so that its later use traps instead of
/// touching another record or freed memory.
@usableFromInline
enum CodingContainerBox {
    /// Whether keyed containers are a single reference, as expected. If a
    /// future standard library changes that, the coders stop caching their
    /// containers (slower, still safe). Read when a coder first caches a
    /// container, which runs `checkRoundTrip()` first.
    static let isAvailable: Bool = {
        let isSingleReference =
            MemoryLayout<KeyedDecodingContainer<ProbeKey>>.size == MemoryLayout<AnyObject>.size
            && MemoryLayout<KeyedEncodingContainer<ProbeKey>>.size == MemoryLayout<AnyObject>.size
        if isSingleReference { checkRoundTrip() }
        return isSingleReference
    }()

    /// Checks, once, what the coders' caches rely on: a keyed container
    /// rebuilt from its box is the container that was boxed (the same box
    /// object, which answers as that container). A standard library whose
    /// containers are a single reference, but not to their box, would make
    /// every cached container undefined behaviour: a programmer error of
    /// GRDBLite, which traps at once, naming its cause.
    private static func checkRoundTrip() {
        let decoding = KeyedDecodingContainer(ProbeDecodingContainer())
        // Unsafe: a container of one reference (the sizes are checked) seen
        // as that reference, as `box(of:)` does.
        let decodingBox = unsafeBitCast(decoding, to: AnyObject.self)
        // Unsafe: the round trip under test, as `TypedCachedDecodingContainer`
        // rebuilds its container.
        let decoded = unsafeBitCast(decodingBox, to: KeyedDecodingContainer<ProbeKey>.self)
        // Unsafe: the rebuilt container seen as its reference again.
        let decodedBox = unsafeBitCast(decoded, to: AnyObject.self)
        precondition(
            decodedBox === decodingBox && decoded.codingPath.first?.stringValue == ProbeKey.marker,
            roundTripFailure("KeyedDecodingContainer"))

        let encoding = KeyedEncodingContainer(ProbeEncodingContainer())
        // Unsafe: a container of one reference (the sizes are checked) seen
        // as that reference, as `box(of:)` does.
        let encodingBox = unsafeBitCast(encoding, to: AnyObject.self)
        // The round trip under test, with the encoder's own reader.
        let encoded = CodingContainerReader<KeyedEncodingContainer<ProbeKey>>().read(encodingBox)
        // Unsafe: the rebuilt container seen as its reference again.
        let encodedBox = unsafeBitCast(encoded, to: AnyObject.self)
        precondition(
            encodedBox === encodingBox && encoded.codingPath.first?.stringValue == ProbeKey.marker,
            roundTripFailure("KeyedEncodingContainer"))
    }

    private static func roundTripFailure(_ container: String) -> String {
        """
        GRDBLite's record coders can't rebuild a \(container) from its box: the standard library \
        changed the layout of keyed containers. The coders' container caches rely on it \
        (CodingContainerBox): this version of GRDBLite can't run with this Swift runtime.
        """
    }

    /// The key of the probe containers.
    private struct ProbeKey: CodingKey {
        static let marker = "GRDBLite probe"
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A decoding container whose coding path tells it apart.
    private struct ProbeDecodingContainer: KeyedDecodingContainerProtocol {
        struct Unsupported: Error { }
        var codingPath: [any CodingKey] { [ProbeKey(stringValue: ProbeKey.marker)] }
        var allKeys: [ProbeKey] { [] }
        func contains(_ key: ProbeKey) -> Bool { false }
        func decodeNil(forKey key: ProbeKey) throws -> Bool { true }
        func decode<T: Decodable>(_ type: T.Type, forKey key: ProbeKey) throws -> T { throw Unsupported() }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: ProbeKey) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw Unsupported()
        }
        func nestedUnkeyedContainer(forKey key: ProbeKey) throws -> any UnkeyedDecodingContainer {
            throw Unsupported()
        }
        func superDecoder() throws -> any Decoder { throw Unsupported() }
        func superDecoder(forKey key: ProbeKey) throws -> any Decoder { throw Unsupported() }
    }

    /// An encoding container whose coding path tells it apart.
    private struct ProbeEncodingContainer: KeyedEncodingContainerProtocol {
        var codingPath: [any CodingKey] { [ProbeKey(stringValue: ProbeKey.marker)] }
        mutating func encodeNil(forKey key: ProbeKey) { }
        mutating func encode<T: Encodable>(_ value: T, forKey key: ProbeKey) { }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: ProbeKey)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(IgnoringKeyedContainer<NestedKey>())
        }
        mutating func nestedUnkeyedContainer(forKey key: ProbeKey) -> any UnkeyedEncodingContainer {
            IgnoringUnkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { IgnoringEncoder() }
        mutating func superEncoder(forKey key: ProbeKey) -> any Encoder { IgnoringEncoder() }
    }

    /// The box of a keyed container.
    static func box<Container>(of container: Container) -> AnyObject {
        precondition(isAvailable)
        // Unsafe: the container is a single reference (`isAvailable`).
        return unsafeBitCast(container, to: AnyObject.self)
    }

    /// The keyed container whose box is `box`, from the reader of its type
    /// (see ``CodingContainerReader``).
    @inlinable
    // @inline(__always): insert-encodable, +4.7% instructions without it (callgrind, quick).
    @inline(__always)
    static func container<Container>(_ box: AnyObject, reader: AnyObject) -> Container {
        // Unsafe: `reader` is the reader of this container type.
        unsafeDowncast(reader, to: CodingContainerReader<Container>.self).read(box)
    }
}
