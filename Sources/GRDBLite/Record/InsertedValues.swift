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
    /// Inline, and without destroying the former value when it is nil
    /// (unless an insert ran during the encoding): the insert of each
    /// record runs it.
    @inline(__always)
    func putBack(_ container: consuming PersistenceContainer) {
        guard case .none = self.container else {
            self.container = container
            return
        }
        // Unsafe: the former value is nil, which holds nothing to destroy.
        withUnsafeMutablePointer(to: &self.container) { $0.initialize(to: container) }
    }

    /// Moves out the container, prepared for a new record, if it is a
    /// reusable one (one with an encoder cache).
    func takeReusableContainer() -> PersistenceContainer? {
        guard container?.encoderCache != nil, var taken = container.take() else { return nil }
        taken.prepareForReuse()
        return taken
    }
}
