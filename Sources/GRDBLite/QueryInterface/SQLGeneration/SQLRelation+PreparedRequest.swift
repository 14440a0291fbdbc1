extension SQLRelation {
    /// A prepared request for the relation: its statement, the adapter of
    /// its joined associations, and the prefetch of its to-many
    /// associations when it has some.
    ///
    /// - parameter cached: Whether the statement comes from the statement
    ///   cache: prefetch requests, whose SQL depends on the number of
    ///   origin rows, are not cached.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool, cached: Bool = true) throws
        -> PreparedRequest
    {
        let generator = SQLQueryGenerator(relation: self, forSingleResult: singleResult)
        var preparedRequest = try PreparedRequest(
            statement: generator.makeStatement(db, cached: cached),
            adapter: joinedChildren.isEmpty ? nil : generator.rowAdapter(db))
        let hasPrefetches = hasPrefetches
        if hasPrefetches {
            addPrefetches(to: &preparedRequest)
        }
        if hasPrefetches || filter != nil {
            // The region narrowed to rows, with prefetched associations.
            preparedRequest.statement.selectionRefinement = RequestRegionRefinement(relation: self)
        }
        return preparedRequest
    }
}
