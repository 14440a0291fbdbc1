// The associations of a relation: its children.
//
// A to-one child (`including(required:)`, `joining(optional:)`...) is
// joined in the SQL of the relation; its columns, if selected, are
// appended to the selection and form a row scope named after its key. A
// to-many child (`including(all:)`) is fetched by a second request, and its
// rows go in the prefetched rows of each row.
//
// Children with the same key are merged, so that a request can refine an
// association in several steps:
//
//     Book.all()
//         .joining(required: Book.author.filter(countryCode: "CO"))
//         .including(required: Book.author)
//     // SELECT book.*, author.* FROM book
//     // JOIN author ON author.id = book.authorId AND author.countryCode = ?

extension SQLRelation {
    /// An associated relation.
    struct Child: Sendable {
        enum Kind: Sendable {
            /// `JOIN`
            case oneRequired
            /// `LEFT JOIN`
            case oneOptional
            /// A second request: `including(all:)`.
            case all
        }

        /// The name of the row scope or of the prefetched rows.
        var key: String
        var kind: Kind
        /// The association to the child. Joined children have a single
        /// step; prefetched children keep all the steps of their
        /// association, which the prefetch request joins back.
        var association: _SQLAssociation

        /// The relation of the child's table.
        var relation: SQLRelation {
            get { association.destination.relation }
            set { association.destination.relation = newValue }
        }

        /// How a joined child matches its parent.
        var condition: SQLAssociationCondition { association.destination.condition }

        var isJoined: Bool { kind != .all }

        /// The keys of the pivots of a prefetched association through
        /// pivots (empty for the others).
        var pivotKeys: [String] {
            guard kind == .all, association.steps.count > 1 else { return [] }
            return association.steps.dropLast().map(\.key.singularName)
        }

        func with(_ update: (inout Child) -> Void) -> Child {
            var result = self
            update(&result)
            return result
        }
    }

    // MARK: - Appending children

    /// Appends `association` as a child of `kind`.
    ///
    /// An association through a pivot is joined as the pivot (whose columns
    /// are not selected), and the destination joined to the pivot.
    func appendingChild(for association: _SQLAssociation, kind: Child.Kind) -> SQLRelation {
        let key = association.destination.key.name(plural: kind == .all)
        if association.steps.count == 1 || kind == .all {
            return appendingChild(Child(key: key, kind: kind, association: association))
        }
        var pivots = _SQLAssociation(steps: Array(association.steps.dropLast()))
        pivots.destination.relation = pivots.destination.relation
            .select { _ in [] }
            .appendingChild(Child(key: key, kind: kind, association: _SQLAssociation(steps: [association.destination])))
        return appendingChild(for: pivots, kind: kind)
    }

    /// Appends a child, or merges it into the child with the same key.
    func appendingChild(_ child: Child) -> SQLRelation {
        if child.isJoined {
            let relation = child.relation
            precondition(!relation.isDistinct, "Not implemented: join an association that selects DISTINCT rows")
            precondition(
                relation.group == nil && relation.having == nil,
                "Not implemented: join an association with a GROUP BY clause")
            precondition(relation.limit == nil, "Not implemented: join an association with a LIMIT clause")
        }
        return with { relation in
            // Prefetches through pivots of distinct keys stay apart, as in
            // GRDB, where each is nested in its own pivot.
            guard let index = relation.children.firstIndex(where: {
                $0.key == child.key && $0.pivotKeys == child.pivotKeys
            }) else {
                relation.children.append(child)
                return
            }
            guard let merged = relation.children[index].merged(with: child) else {
                fatalError("""
                    The association key "\(child.key)" is ambiguous. \
                    Use Association.forKey(_:) to disambiguate.
                    """)
            }
            relation.children[index] = merged
        }
    }

    // MARK: - Derived relations

    /// The relation without selected columns, in itself and in its joined
    /// children: a table that is joined but not included.
    func selectingNothing() -> SQLRelation {
        selectingOnly([])
    }

    /// The relation that selects `selection`, and nothing from its joined
    /// children.
    func selectingOnly(_ selection: [SQLSelection]) -> SQLRelation {
        with {
            $0.selection = DatabasePromise(value: selection)
            $0.children = $0.children.map { child in
                child.isJoined ? child.with { $0.relation = $0.relation.selectingNothing() } : child
            }
        }
    }

    /// The relation without `including(all:)` children, at any depth.
    func removingPrefetchedChildren() -> SQLRelation {
        with {
            $0.children = $0.children.compactMap { child in
                child.isJoined ? child.with { $0.relation = $0.relation.removingPrefetchedChildren() } : nil
            }
        }
    }

    /// The common table expressions of the relation and of its joined
    /// children, at any depth; of two expressions with the same name, the
    /// one of the deepest, or last, child wins.
    var allCTEs: [SQLCTE] {
        joinedChildren.reduce(ctes) { $0.merging($1.relation.allCTEs) }
    }

    /// The joined children, at the first level.
    var joinedChildren: [Child] { children.filter(\.isJoined) }

    /// The prefetched children, at the first level.
    var prefetchedChildren: [Child] { children.filter { !$0.isJoined } }

    /// The prefetched children, where those through a pivot of the same key
    /// and table share their pivots' filters, as in GRDB, which joins such
    /// pivots as one association of that key:
    ///
    ///     // Both prefetches join `a` with cola2 = 'a1' AND cola2 <> 'a1'.
    ///     B.including(all: B.hasMany(C.self, through: B.belongsTo(A.self).filter(cola2 == "a1"), ...).forKey("x"))
    ///      .including(all: B.hasMany(C.self, through: B.belongsTo(A.self).filter(cola2 != "a1"), ...).forKey("y"))
    ///
    /// Give the pivots distinct keys (`forKey(_:)`) to filter them apart.
    var prefetchedChildrenSharingPivots: [Child] {
        let prefetched = prefetchedChildren
        func pivotKey(_ child: Child) -> (String, CaseInsensitiveIdentifier)? {
            guard child.association.steps.count > 1 else { return nil }
            let pivot = child.association.steps[0]
            return (pivot.key.singularName, CaseInsensitiveIdentifier(pivot.relation.source.tableName))
        }
        return prefetched.map { child in
            guard let key = pivotKey(child) else { return child }
            let sharing = prefetched.filter { other in pivotKey(other).map { $0 == key } ?? false }
            guard sharing.count > 1 else { return child }
            return child.with { child in
                child.association.steps[0].relation.filter = sharing
                    .map { $0.association.steps[0].relation.filter }
                    .reduce(nil, Self.and)
            }
        }
    }

    // MARK: - Merging

    /// The relation that has the clauses of both relations, or nil if they
    /// can't be merged (different tables, conflicting aliases or children).
    ///
    /// Filters are combined with AND; for the selection, ordering, grouping
    /// and limit, `other` wins unless it has none.
    func merged(with other: SQLRelation) -> SQLRelation? {
        guard CaseInsensitiveIdentifier(source.tableName) == CaseInsensitiveIdentifier(other.source.tableName) else {
            return nil
        }
        var merged = self
        switch (source.alias, other.source.alias) {
        case (nil, let alias?):
            merged.source.alias = alias
        case let (alias?, otherAlias?):
            guard alias == otherAlias || alias.userName == nil || otherAlias.userName == nil
                    || alias.userName == otherAlias.userName else { return nil }
            otherAlias.becomeProxy(of: alias)
        default:
            break
        }

        let selection = self.selection
        let otherSelection = other.selection
        merged.selection = DatabasePromise { db in
            let otherColumns = try otherSelection.resolve(db)
            return try otherColumns.isEmpty ? selection.resolve(db) : otherColumns
        }
        merged.filter = Self.and(filter, other.filter)
        if !other.ordering.isEmpty {
            merged.ordering = other.ordering
        }
        merged.isDistinct = isDistinct || other.isDistinct
        merged.group = other.group ?? group
        merged.having = Self.and(having, other.having)
        merged.limit = other.limit ?? limit
        merged.ctes = ctes.merging(other.ctes)

        for child in other.children {
            if let index = merged.children.firstIndex(where: { $0.key == child.key }) {
                guard let mergedChild = merged.children[index].merged(with: child) else { return nil }
                merged.children[index] = mergedChild
            } else {
                merged.children.append(child)
            }
        }
        return merged
    }

    private static func and(
        _ lhs: DatabasePromise<SQLExpression>?,
        _ rhs: DatabasePromise<SQLExpression>?) -> DatabasePromise<SQLExpression>?
    {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return DatabasePromise { db in try .associative(.and, [lhs.resolve(db), rhs.resolve(db)]) }
    }
}

extension SQLRelation.Child {
    /// The child that has the clauses of both children, or nil if they
    /// differ in their foreign keys, their tables, or their kinds (a
    /// prefetched and a joined association).
    func merged(with other: SQLRelation.Child) -> SQLRelation.Child? {
        let kind: Kind
        switch (self.kind, other.kind) {
        case (.all, .all): kind = .all
        case (.oneOptional, .oneOptional): kind = .oneOptional
        case (.oneRequired, .oneRequired), (.oneRequired, .oneOptional), (.oneOptional, .oneRequired):
            kind = .oneRequired
        default: return nil
        }
        guard association.steps.count == other.association.steps.count else { return nil }
        var merged = self
        merged.kind = kind
        for index in association.steps.indices {
            let step = association.steps[index]
            let otherStep = other.association.steps[index]
            guard let condition = step.condition.merged(with: otherStep.condition),
                  let relation = step.relation.merged(with: otherStep.relation) else { return nil }
            merged.association.steps[index].condition = condition
            merged.association.steps[index].relation = relation
        }
        return merged
    }
}
