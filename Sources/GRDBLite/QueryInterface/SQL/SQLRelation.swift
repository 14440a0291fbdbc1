/// A value that is known once a database connection is available: request
/// clauses may need the schema (the primary key for `filter(key:)`...).
struct DatabasePromise<T>: Sendable {
    let resolve: @Sendable (Database) throws -> T

    init(_ resolve: @escaping @Sendable (Database) throws -> T) {
        self.resolve = resolve
    }

    init(value: T) where T: Sendable {
        self.resolve = { _ in value }
    }
}

/// The clauses of a SELECT request on a table, before its columns are
/// qualified: the model behind ``QueryInterfaceRequest``.
///
/// Expressions are stored unqualified (`"score"`); `SQLQueryGenerator`
/// qualifies them with the alias of the table when it writes SQL, so that
/// the same relation can be the base of a request or, later, a joined
/// association whose columns read `"author"."name"`. Associated relations
/// are children of this one (see `SQLRelation+Association.swift`).
struct SQLRelation: Sendable {
    var source: SQLSource
    var selection: DatabasePromise<[SQLSelection]>
    var filter: DatabasePromise<SQLExpression>?
    var ordering = Ordering()
    var isDistinct = false
    var group: DatabasePromise<[SQLExpression]>?
    var having: DatabasePromise<SQLExpression>?
    var limit: SQLLimit?
    /// Joined and prefetched associations, in the order they were added.
    var children: [Child] = []
    /// The common table expressions of the `WITH` clause.
    var ctes: [SQLCTE] = []

    /// `SELECT <selection> FROM <table>`
    static func all(fromTable tableName: String, selection: @escaping @Sendable (Database) throws -> [SQLSelection])
        -> SQLRelation
    {
        SQLRelation(source: SQLSource(tableName: tableName, alias: nil), selection: DatabasePromise(selection))
    }

    func with(_ update: (inout SQLRelation) throws -> Void) rethrows -> SQLRelation {
        var result = self
        try update(&result)
        return result
    }

    /// Replaces the selection.
    func select(_ selection: @escaping @Sendable (Database) throws -> [SQLSelection]) -> SQLRelation {
        with { $0.selection = DatabasePromise(selection) }
    }

    /// Appends to the selection.
    func annotated(with selection: @escaping @Sendable (Database) throws -> [SQLSelection]) -> SQLRelation {
        let base = self.selection
        return with { $0.selection = DatabasePromise { db in try base.resolve(db) + selection(db) } }
    }

    /// Adds a condition with AND.
    func filter(_ predicate: @escaping @Sendable (Database) throws -> SQLExpression) -> SQLRelation {
        with { $0.filter = $0.filter.and(predicate) }
    }

    /// Replaces the ordering.
    func order(_ orderings: @escaping @Sendable (Database) throws -> [SQLOrdering]) -> SQLRelation {
        with { $0.ordering = Ordering(orderings) }
    }

    /// Reverses the ordering, and the one of joined associations, which
    /// come after it in the ORDER BY clause.
    func reversed() -> SQLRelation {
        with { $0.ordering.isReversed.toggle() }
    }

    /// Removes the ordering, and the one of joined associations.
    func unordered() -> SQLRelation {
        with {
            $0.ordering = Ordering()
            $0.children = $0.children.map { child in
                child.with { $0.relation = $0.relation.unordered() }
            }
        }
    }

    /// Appends the primary key to the ordering, here and in associations,
    /// so that rows come in a deterministic order. A view without primary
    /// key is ordered by all its selected columns (`ORDER BY 1, 2, ...`).
    func withStableOrder() -> SQLRelation {
        let tableName = source.tableName
        let unstable = self
        return with {
            $0.ordering = $0.ordering.appending { db in
                if let primaryKey = try db.primaryKeyIfAny(tableName) {
                    return primaryKey.columns.map { SQLExpression.column($0).sqlOrdering }
                }
                let count = try SQLQueryGenerator(relation: unstable).columnCount(db)
                return (1...max(count, 1)).map { SQL(sql: String($0)).sqlOrdering }
            }
            $0.children = $0.children.map { child in
                child.with { $0.relation = $0.relation.withStableOrder() }
            }
        }
    }

    /// Replaces the grouping.
    func group(_ expressions: @escaping @Sendable (Database) throws -> [SQLExpression]) -> SQLRelation {
        with { $0.group = DatabasePromise(expressions) }
    }

    /// Adds a HAVING condition with AND.
    func having(_ predicate: @escaping @Sendable (Database) throws -> SQLExpression) -> SQLRelation {
        with { $0.having = $0.having.and(predicate) }
    }

    /// Gives the table an alias. When the table already has one, the new
    /// alias is merged into it: both name the same table.
    func aliased(_ alias: TableAliasBase) -> SQLRelation {
        with { relation in
            if let existing = relation.source.alias {
                alias.becomeProxy(of: existing)
            } else {
                alias.setTableName(relation.source.tableName)
                relation.source.alias = alias
            }
        }
    }
}

extension Optional {
    /// `self AND predicate`.
    fileprivate func and(
        _ predicate: @escaping @Sendable (Database) throws -> SQLExpression) -> DatabasePromise<SQLExpression>?
    where Wrapped == DatabasePromise<SQLExpression>
    {
        guard let base = self else { return DatabasePromise(predicate) }
        return DatabasePromise { db in try .associative(.and, [base.resolve(db), predicate(db)]) }
    }
}

/// The table of a relation.
struct SQLSource: Sendable {
    var tableName: String
    /// The alias given by the user (`aliased(_:)`), if any.
    var alias: TableAliasBase?
}

/// `LIMIT limit [OFFSET offset]`
struct SQLLimit: Sendable {
    var limit: Int
    var offset: Int?
}

extension SQLRelation {
    /// The ORDER BY clause: the orderings of the last `order(...)`,
    /// possibly reversed.
    struct Ordering: Sendable {
        private var orderings: DatabasePromise<[SQLOrdering]>?
        var isReversed = false

        init() { }

        init(_ orderings: @escaping @Sendable (Database) throws -> [SQLOrdering]) {
            self.orderings = DatabasePromise(orderings)
        }

        var isEmpty: Bool { orderings == nil }

        /// The orderings followed by `extra` (reversed with them).
        func appending(_ extra: @escaping @Sendable (Database) throws -> [SQLOrdering]) -> Ordering {
            var result = self
            let base = orderings
            result.orderings = DatabasePromise { db in try (base?.resolve(db) ?? []) + extra(db) }
            return result
        }

        /// The orderings, reversed if the relation is reversed, or if its
        /// parent is (`reversedByParent`), but not both: reversing twice
        /// gives the terms back as written (`"id"`, not `"id" ASC`), as GRDB.
        func resolve(_ db: Database, reversedByParent: Bool = false) throws -> [SQLOrdering] {
            guard let orderings else { return [] }
            let resolved = try orderings.resolve(db)
            return isReversed != reversedByParent ? resolved.map(\.reversed) : resolved
        }
    }
}
