import CSQLite
import Foundation

/// The keyed containers of the records decoded from a row, built for the
/// first record and reused for the next ones: the row of a cursor is the
/// same object for every record. Core keeps it in the row (``RowCache``).
///
/// Containers are identified by their generic arguments, which
/// unspecialized code has at hand (unlike the metadata of the container
/// type). They are never replaced: a container in use (the one of a record
/// that decodes another record from the same row) must keep its state.
@usableFromInline
final class RowDecoderCache: RowCache {
    /// The container of the row's records.
    @usableFromInline let first: CachedDecodingContainer
    /// The containers of other records decoded from the row.
    /// Unchecked exclusivity: used by the one thread that uses the row.
    @exclusivity(unchecked) var others: [CachedDecodingContainer] = []

    init(first: CachedDecodingContainer) {
        self.first = first
    }

    /// The keyed container of `Record` and `Key` in `row`: inlined in the
    /// decoder, without retaining the cache (`withCache(ofType:_:)`).
    @inlinable
    @inline(__always)
    static func container<Record: FetchableRecord, Key: CodingKey>(
        _ record: Record.Type,
        keyedBy type: Key.Type,
        row: Row) -> KeyedDecodingContainer<Key>
    {
        row.withCache(ofType: RowDecoderCache.self) { cache in
            if let first = cache?.first, first.record == ObjectIdentifier(Record.self),
               first.key == ObjectIdentifier(Key.self)
            {
                first.state.startRecord()
                // Unsafe: the entry of these record and key types is typed.
                return unsafeDowncast(first, to: TypedCachedDecodingContainer<KeyedDecodingContainer<Key>>.self)
                    .container()
            }
            return otherContainer(Record.self, keyedBy: Key.self, row: row)
        }
    }

    /// The container when it is not the row's first one; creates it if
    /// needed.
    @usableFromInline
    static func otherContainer<Record: FetchableRecord, Key: CodingKey>(
        _ record: Record.Type,
        keyedBy type: Key.Type,
        row: Row) -> KeyedDecodingContainer<Key>
    {
        guard CodingContainerBox.isAvailable else {
            // Kept containers can't be detected: use containers that own
            // their row.
            return KeyedDecodingContainer(OwningRowKeyedDecodingContainer<Record, Key>(row: row, codingPath: []))
        }
        let recordID = ObjectIdentifier(Record.self)
        let keyID = ObjectIdentifier(Key.self)
        let cache = row.cache(ofType: RowDecoderCache.self)
        if let cache, let entry = cache.others.first(where: { $0.record == recordID && $0.key == keyID }) {
            entry.state.startRecord()
            // Unsafe: the entry of these record and key types is typed.
            return unsafeDowncast(entry, to: TypedCachedDecodingContainer<KeyedDecodingContainer<Key>>.self)
                .container()
        }
        // The row owns this cache, which owns the state: the state must
        // not retain the row.
        let state = RowKeyedDecodingContainer<Record, Key>.makeState(row: row, codingPath: [])
        let container = KeyedDecodingContainer(RowKeyedDecodingContainer<Record, Key>(state: state))
        let entry = TypedCachedDecodingContainer<KeyedDecodingContainer<Key>>(
            record: recordID, key: keyID, state: state, box: CodingContainerBox.box(of: container))
        if let cache {
            cache.others.append(entry)
        } else {
            row.setCache(RowDecoderCache(first: entry))
        }
        return container
    }
}

/// A keyed container in a ``RowDecoderCache`` (the box of a
/// `KeyedDecodingContainer`), with the state it reads. Entries are
/// ``TypedCachedDecodingContainer``.
@usableFromInline
class CachedDecodingContainer {
    @usableFromInline let record: ObjectIdentifier
    @usableFromInline let key: ObjectIdentifier
    @usableFromInline let state: RowDecodingState
    /// Unchecked exclusivity: used by the one thread that uses the row.
    @usableFromInline @exclusivity(unchecked) var box: AnyObject

    /// Only the typed subclass is made.
    fileprivate init(record: ObjectIdentifier, key: ObjectIdentifier, state: RowDecodingState, box: AnyObject) {
        self.record = record
        self.key = key
        self.state = state
        self.box = box
    }

    /// The row is gone (it owns this entry): a container that the user
    /// kept must trap instead of reading it, so its state must outlive it.
    deinit {
        state.forgetRow()
        if !isKnownUniquelyReferenced(&box) {
            RowDecodingState.keep(state, whileBoxLives: box)
        }
    }
}

/// The cached keyed container of type `Container` (see
/// ``CodingContainerReader``: its method finds the container's metadata
/// in its own class).
@usableFromInline
final class TypedCachedDecodingContainer<Container>: CachedDecodingContainer {
    /// The container whose box this entry holds. Never inlined: see
    /// ``CodingContainerReader/read(_:)``.
    @usableFromInline
    @inline(never)
    func container() -> Container {
        // Unsafe: the container is a single reference to its box, which
        // it is rebuilt from (`CodingContainerBox.isAvailable` checks both
        // once, and this round trip).
        unsafeBitCast(box, to: Container.self)
    }
}
