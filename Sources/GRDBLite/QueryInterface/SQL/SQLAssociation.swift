/// The model of an association: the path from the origin table to the
/// destination table, one step per joined table.
///
/// A direct association (`belongsTo`, `hasMany`, `hasOne`) has one step. An
/// association through a pivot (`hasMany(_:through:using:)`) has the steps
/// of the pivot association, then those of the target association.
///
/// Public because the ``Association`` protocol exposes it; not an API.
public struct _SQLAssociation: Sendable {
    /// From the table next to the origin (the pivot) to the destination.
    /// Never empty.
    var steps: [SQLAssociationStep]

    init(steps: [SQLAssociationStep]) {
        precondition(!steps.isEmpty)
        self.steps = steps
    }

    init(key: SQLAssociationKey, condition: SQLAssociationCondition, relation: SQLRelation, isToMany: Bool) {
        self.init(steps: [SQLAssociationStep(key: key, condition: condition, relation: relation, isToMany: isToMany)])
    }

    /// The first step, joined to the origin.
    var pivot: SQLAssociationStep {
        get { steps[0] }
        set { steps[0] = newValue }
    }

    /// The last step: the associated table.
    var destination: SQLAssociationStep {
        get { steps[steps.count - 1] }
        set { steps[steps.count - 1] = newValue }
    }

    /// The association without the columns of its destination, for
    /// `joining(required:)` and `joining(optional:)`. The associations of
    /// the destination keep theirs.
    func withoutSelectedColumns() -> _SQLAssociation {
        var result = self
        result.destination.relation = destination.relation.select { _ in [] }
        return result
    }

    /// This association, reached through `pivot`.
    func through(_ pivot: _SQLAssociation) -> _SQLAssociation {
        _SQLAssociation(steps: pivot.steps + steps)
    }

    /// The relation of the associated rows, for requests that start from
    /// the destination table: `author.request(for: Author.books)`, and the
    /// prefetch of `including(all:)`.
    ///
    /// Tables between the origin and the destination are joined back from
    /// the destination, without their columns:
    ///
    /// ```sql
    /// -- Country.hasMany(Citizen.self, through: Country.passports, using: Passport.citizen)
    /// SELECT citizen.* FROM citizen
    /// JOIN passport ON passport.citizenId = citizen.id AND <pivot filter>
    /// ```
    ///
    /// The filter of the pivot (the first step) is where the caller
    /// restricts the associated rows to some origin rows.
    func destinationRelation() -> SQLRelation {
        var relation = pivot.relation
        for (previous, step) in zip(steps, steps.dropFirst()) {
            // The previous table, joined back from this one.
            let joinedBack = relation.selectingNothing().removingPrefetchedChildren()
            relation = step.relation.appendingChild(SQLRelation.Child(
                key: "grdb_" + previous.key.singularName,
                kind: .oneRequired,
                association: _SQLAssociation(
                    key: .fixed(previous.key.singularName),
                    condition: step.condition.reversed,
                    relation: joinedBack,
                    isToMany: false)))
        }
        return relation
    }
}

/// A table of an association, and how it joins the previous one.
struct SQLAssociationStep: Sendable {
    var key: SQLAssociationKey
    /// How the rows of this table match the rows of the previous table
    /// (the left table of the join).
    var condition: SQLAssociationCondition
    var relation: SQLRelation
    /// Whether a row of the previous table matches many rows of this one.
    var isToMany: Bool
}

/// The name of an association, which names its row scope or prefetched
/// rows: `author` for `Book.author`, `books` for `Author.books`.
///
/// A key derived from the table name is singular when the association is
/// joined (`including(required:)`) and plural when it is prefetched
/// (`including(all:)`).
enum SQLAssociationKey: Sendable {
    /// The name of the destination table, inflected as needed.
    case inflected(String)
    /// A singular name given by the user, pluralized as needed.
    case fixedSingular(String)
    /// A plural name given by the user, singularized as needed.
    case fixedPlural(String)
    /// A name used as is.
    case fixed(String)

    /// The key, singular or plural.
    func name(plural: Bool) -> String {
        plural ? pluralName : singularName
    }

    var singularName: String {
        switch self {
        case .inflected(let name), .fixedPlural(let name): name.singularized
        case .fixedSingular(let name), .fixed(let name): name
        }
    }

    var pluralName: String {
        switch self {
        case .inflected(let name), .fixedSingular(let name): name.pluralized
        case .fixedPlural(let name), .fixed(let name): name
        }
    }
}

/// How the rows of two joined tables match: through a foreign key, which
/// goes from the left table to the right one (`belongsTo`), or from the
/// right table to the left one (`hasMany`, `hasOne`); or, for the
/// associations of common table expressions, through an expression, or
/// nothing at all (`JOIN "cte"`).
struct SQLAssociationCondition: Sendable {
    enum Impl: Sendable {
        /// The foreign key given by the user, or nil for the one of the
        /// schema, and whether it belongs to the left table.
        case foreignKey(ForeignKey?, originIsLeft: Bool)
        /// `association(to:on:)`: an expression of the left and right
        /// tables.
        case expression(@Sendable (_ left: TableAliasBase, _ right: TableAliasBase) -> SQLExpression)
        /// `association(to:)`: every row of the right table.
        case none
    }

    var impl: Impl

    init(foreignKey: ForeignKey?, originIsLeft: Bool) {
        impl = .foreignKey(foreignKey, originIsLeft: originIsLeft)
    }

    init(_ impl: Impl) {
        self.impl = impl
    }

    /// The same condition, with the left and right tables swapped.
    var reversed: SQLAssociationCondition {
        switch impl {
        case let .foreignKey(foreignKey, originIsLeft):
            SQLAssociationCondition(foreignKey: foreignKey, originIsLeft: !originIsLeft)
        case .expression(let expression):
            SQLAssociationCondition(.expression { left, right in expression(right, left) })
        case .none:
            self
        }
    }

    /// The condition of a child that merges two children with the same
    /// key, or nil if they are incompatible. Two foreign keys must be the
    /// same; of two expressions, the last one wins, as in GRDB.
    func merged(with other: SQLAssociationCondition) -> SQLAssociationCondition? {
        switch (impl, other.impl) {
        case let (.foreignKey(lhsKey, lhsLeft), .foreignKey(rhsKey, rhsLeft)):
            lhsKey == rhsKey && lhsLeft == rhsLeft ? self : nil
        case (.expression, .expression), (.none, .none):
            other
        default:
            nil
        }
    }

    /// The pairs of columns that must be equal: `book.authorId = author.id`.
    /// Traps for an association without foreign key.
    func joinMapping(_ db: Database, leftTable: String, rightTable: String) throws -> [(left: String, right: String)] {
        guard case let .foreignKey(foreignKey, originIsLeft) = impl else {
            fatalError("""
                The association from \(leftTable) to \(rightTable) has no foreign key: \
                it can only be joined (including(required:), including(optional:), joining...)
                """)
        }
        if originIsLeft {
            return try Self.foreignKeyMapping(db, from: leftTable, to: rightTable, foreignKey: foreignKey)
                .map { (left: $0.origin, right: $0.destination) }
        } else {
            return try Self.foreignKeyMapping(db, from: rightTable, to: leftTable, foreignKey: foreignKey)
                .map { (left: $0.destination, right: $0.origin) }
        }
    }

    /// The ON condition of a join: `"author"."id" = "book"."authorId"`, or
    /// nil for no condition.
    func joinExpression(_ db: Database, left: TableAliasBase, right: TableAliasBase) throws -> SQLExpression? {
        switch impl {
        case .foreignKey:
            let mapping = try joinMapping(db, leftTable: left.tableName, rightTable: right.tableName)
            return .associative(.and, mapping.map { .compare(.equal, right[$0.right], left[$0.left]) })
        case .expression(let expression):
            return expression(left, right)
        case .none:
            return nil
        }
    }

    /// The columns of the foreign key from `originTable` to
    /// `destinationTable`: the user's, or the one of the schema.
    ///
    /// A missing or ambiguous foreign key is a programmer error, as in GRDB.
    private static func foreignKeyMapping(
        _ db: Database,
        from originTable: String,
        to destinationTable: String,
        foreignKey: ForeignKey?) throws -> [(origin: String, destination: String)]
    {
        let key = ForeignKeyMappingCache.Lookup(
            originTable: originTable, destinationTable: destinationTable, foreignKey: foreignKey)
        return try db.cache(ForeignKeyMappingCache.self).mapping(key) {
            try findForeignKeyMapping(db, from: originTable, to: destinationTable, foreignKey: foreignKey)
        }
    }

    /// See `foreignKeyMapping(_:from:to:foreignKey:)`.
    private static func findForeignKeyMapping(
        _ db: Database,
        from originTable: String,
        to destinationTable: String,
        foreignKey: ForeignKey?) throws -> [(origin: String, destination: String)]
    {
        if let foreignKey, let destinationColumns = foreignKey.destinationColumns {
            precondition(
                foreignKey.originColumns.count == destinationColumns.count,
                "ForeignKey: the numbers of origin and destination columns differ")
            return Array(zip(foreignKey.originColumns, destinationColumns))
        }

        // A view has no foreign key: only the user's columns can tell.
        if try !db.viewExists(originTable) {
            let originColumns = foreignKey.map { Set($0.originColumns.map(CaseInsensitiveIdentifier.init)) }
            let candidates = try db.foreignKeys(on: originTable).filter { candidate in
                CaseInsensitiveIdentifier(candidate.destinationTable) == CaseInsensitiveIdentifier(destinationTable)
                    && (originColumns == nil
                        || Set(candidate.originColumns.map(CaseInsensitiveIdentifier.init)) == originColumns)
            }
            if candidates.count > 1 {
                fatalError("""
                    Ambiguous foreign key from '\(originTable)' to '\(destinationTable)'. \
                    To fix this error, provide an explicit `ForeignKey` in the association definition.
                    """)
            }
            if let candidate = candidates.first {
                if let foreignKey {
                    // In the user's order.
                    return foreignKey.originColumns.map { column in
                        candidate.mapping.first {
                            CaseInsensitiveIdentifier($0.origin) == CaseInsensitiveIdentifier(column)
                        }!
                    }
                }
                return candidate.mapping
            }
        }

        // Origin columns without a schema foreign key refer to the primary
        // key of the destination.
        if let foreignKey {
            let primaryKey = try db.primaryKey(destinationTable).columns
            if primaryKey.count == foreignKey.originColumns.count {
                return Array(zip(foreignKey.originColumns, primaryKey))
            }
        }
        fatalError("""
            Could not infer foreign key from '\(originTable)' to '\(destinationTable)'. \
            To fix this error, provide an explicit `ForeignKey` in the association definition.
            """)
    }
}
