extension MutablePersistableRecord {
    /// Deletes the row with the record's primary key; returns whether a row
    /// was deleted.
    @discardableResult
    public func delete(_ db: Database) throws -> Bool {
        try willDelete(db)
        var deleted: Bool?
        try aroundDelete(db) {
            deleted = try PersistenceEngine(db, self).delete()
            return deleted!
        }
        guard let deleted else { try persistenceCallbackMisuse("aroundDelete") }
        didDelete(deleted: deleted)
        return deleted
    }
}
