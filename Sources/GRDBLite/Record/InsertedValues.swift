/// The inserted values of an ``InsertionSuccess``, behind one reference:
/// the success is copied through the persistence callbacks, and a copy
/// costs one retain instead of one per array of the container.
///
/// A connection's ``RecordStorage`` reuses the instance of its last
/// insert once no success holds it anymore.
@usableFromInline
final class InsertedValues {
    // Unchecked exclusivity: written by the connection's storage only
    // while it holds the only reference, read-only afterwards. Nil while
    // the storage has taken it out (it is there when a success holds
    // the instance).
    @exclusivity(unchecked) var container: PersistenceContainer?

    init(_ container: PersistenceContainer?) {
        self.container = container
    }

    /// Moves out the container, prepared for a new record, if it is a
    /// reusable one (one with an encoder cache).
    func takeReusableContainer() -> PersistenceContainer? {
        guard container?.encoderCache != nil, var taken = container.take() else { return nil }
        taken.prepareForReuse()
        return taken
    }
}
