/// Returns the keyed container of type `Container` whose box it is given
/// (see ``CodingContainerBox``).
///
/// In generic code, a value of `KeyedDecodingContainer<Key>` (a resilient
/// type) can only be made with its type metadata, which the runtime looks
/// up by `Key` for every record: about 330 instructions, more than the
/// decoding of a small record's values. The encoder makes a reader once
/// per cached container; its method finds that metadata in the reader's
/// own. (The decoder's cached containers are readers themselves:
/// ``TypedCachedDecodingContainer``.)
@usableFromInline
final class CodingContainerReader<Container> {
    init() { }

    /// The container whose box is `box`. Never inlined: specialized in a
    /// caller generic over the key, it would look up the metadata again.
    @usableFromInline
    @inline(never)
    func read(_ box: AnyObject) -> Container {
        // Unsafe: the container is a single reference to its box, which
        // it is rebuilt from (`CodingContainerBox.isAvailable` checks both
        // once, and this round trip).
        unsafeBitCast(box, to: Container.self)
    }
}
