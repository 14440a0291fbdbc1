/// The inserted values of an ``InsertionSuccess`` and its rowid column,
/// behind one reference: the success is copied through the persistence
/// callbacks, and a copy costs one retain instead of one per array of the
/// container and one for the column.
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
    /// The column that holds the rowid, if any.
    // Unchecked exclusivity: see `container`.
    @exclusivity(unchecked) var rowIDColumn: String?

    init(_ container: PersistenceContainer?, rowIDColumn: String? = nil) {
        self.container = container
        self.rowIDColumn = rowIDColumn
    }

    /// Puts back the container that `takeReusableContainer()` moved out.
    /// Inline: the insert of each record runs it. An assignment, which
    /// releases the former value (nil, unless an insert ran during the
    /// encoding): initializing over it would be undefined, since the
    /// optional container is not a trivial type.
    @inline(__always)
    func putBack(_ container: consuming PersistenceContainer) {
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
