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
    private struct ProbeKey: CodingKey {
        var stringValue: String { "" }
        var intValue: Int? { nil }
        init?(stringValue: String) { }
        init?(intValue: Int) { }
    }

    /// Whether keyed containers are a single reference, as expected. If a
    /// future standard library changes that, the coders stop caching their
    /// containers (slower, still safe).
    static let isAvailable =
        MemoryLayout<KeyedDecodingContainer<ProbeKey>>.size == MemoryLayout<AnyObject>.size
        && MemoryLayout<KeyedEncodingContainer<ProbeKey>>.size == MemoryLayout<AnyObject>.size

    /// The box of a keyed container.
    static func box<Container>(of container: Container) -> AnyObject {
        precondition(isAvailable)
        // Unsafe: the container is a single reference (`isAvailable`).
        return unsafeBitCast(container, to: AnyObject.self)
    }

    /// The keyed container whose box is `box`, from the reader of its type
    /// (see ``CodingContainerReader``).
    @inlinable
    @inline(__always)
    static func container<Container>(_ box: AnyObject, reader: AnyObject) -> Container {
        // Unsafe: `reader` is the reader of this container type.
        unsafeDowncast(reader, to: CodingContainerReader<Container>.self).read(box)
    }
}
