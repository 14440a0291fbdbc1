// The prefetch of to-many associations (`including(all:)`): one request
// per association, whatever the number of fetched rows (no N+1 queries).
//
//     // SELECT * FROM author
//     // SELECT *, authorId AS grdb_authorId FROM book WHERE authorId IN (1, 2, 3)
//     Author.including(all: Author.books)
//
// Associated rows are grouped by the `grdb_` columns, which repeat the key
// of the origin row, and stored in the `prefetchedRows` of each fetched row.

extension SQLRelation {
    /// Whether the relation, or one of its joined associations, includes
    /// to-many associations to prefetch.
    var hasPrefetches: Bool { !prefetches.isEmpty }

    /// Makes `preparedRequest` prefetch the relation's to-many
    /// associations into the rows it fetches.
    func addPrefetches(to preparedRequest: inout PreparedRequest) {
        preparedRequest.supplementaryFetch = { db, rows in try prefetch(db, into: rows) }
        preparedRequest.observedSupplementaryFetch = { db, rows, willFetch in
            try withoutActuallyEscaping(willFetch) { try prefetch(db, into: rows, willFetch: $0) }
        }
    }

    /// A to-many association to prefetch, and where its rows go.
    private struct Prefetch {
        /// The keys of the joined associations it is included in (the
        /// scopes of fetched rows), then its own key.
        var keyPath: [String]
        /// From the relation's table: through the joined associations,
        /// then the association itself.
        var association: _SQLAssociation
    }

    /// The to-many associations of the relation, and those of its joined
    /// associations at any depth, which are reached through them:
    ///
    ///     // Prefetches the awards of each book's author, through author.
    ///     Book.including(required: Book.author.including(all: Author.awards))
    private var prefetches: [Prefetch] {
        var result = prefetchedChildrenSharingPivots.map { Prefetch(keyPath: [$0.key], association: $0.association) }
        for child in joinedChildren {
            // The joined table, joined back by the prefetch request without
            // its own associations.
            var pivot = child.association
            pivot.destination.relation.children = []
            for nested in child.relation.prefetches {
                result.append(Prefetch(
                    keyPath: [child.key] + nested.keyPath,
                    association: nested.association.through(pivot)))
            }
        }
        return result
    }

    /// The region of the prefetched associations, nested ones included,
    /// whatever the origin rows: a value observation of the request tracks
    /// them even when there is no origin row (the first one would bring
    /// associated rows). The prefetch requests are compiled, not run, with a
    /// pivot filter that shows SQLite the pivot columns.
    func prefetchedRegion(_ db: Database) throws -> DatabaseRegion {
        var region = DatabaseRegion()
        for prefetch in prefetches {
            var association = prefetch.association
            let mapping = try association.pivot.condition.joinMapping(
                db, leftTable: source.tableName, rightTable: association.pivot.relation.source.tableName)
            // Not a NULL, nor an integer: the filter must not narrow the
            // region to no row, nor to a rowid.
            let anyOrigin = SQLExpression.associative(.and, mapping.map {
                .compare(.equal, .column($0.right), .value("".databaseValue))
            })
            association.pivot.relation = association.pivot.relation.filter { _ in anyOrigin }
            region.formUnion(try association.destinationRelation()
                .makePreparedRequest(db, forSingleResult: false, cached: false)
                .statement.databaseRegion)
        }
        return region
    }

    /// Fetches the to-many associations of `rows`, and stores them in their
    /// prefetched rows. `willFetch` gets each prefetch request, and the
    /// key path of its association, before it runs (for dumps).
    private func prefetch(
        _ db: Database,
        into rows: [Row],
        willFetch: ((PreparedRequest, [String]) throws -> Void)? = nil) throws
    {
        guard let firstRow = rows.first else { return }
        for prefetch in prefetches {
            var association = prefetch.association
            let mapping = try association.pivot.condition.joinMapping(
                db, leftTable: source.tableName, rightTable: association.pivot.relation.source.tableName)
            let leftIndexes = mapping.map { pair in
                guard let index = firstRow.index(forColumn: pair.left) else {
                    fatalError("""
                        including(all:) needs the column \(pair.left) of \(source.tableName) \
                        in the selection, in order to find the \(prefetch.keyPath.joined(separator: "."))
                        """)
                }
                return index
            }
            func key(of row: Row) -> [DatabaseValue] {
                leftIndexes.map { row.databaseValue(atUncheckedIndex: $0) }
            }

            // Unique keys in order of appearance, without NULL, which
            // matches nothing.
            var keys: [[DatabaseValue]] = []
            var knownKeys: Set<[DatabaseValue]> = []
            for row in rows {
                let key = key(of: row)
                if !key.contains(where: \.isNull) && knownKeys.insert(key).inserted {
                    keys.append(key)
                }
            }

            var groups: [[DatabaseValue]: [Row]] = [:]
            if !keys.isEmpty {
                let pivotColumns = mapping.map(\.right)
                let pivotAlias = TableAliasBase()
                // A compound key reads the keys from the origin request, as
                // GRDB does, instead of the values of the fetched rows:
                //
                //     WITH "grdb_base" AS (SELECT "a", "b" FROM "parent")
                //     SELECT * FROM "child" WHERE ("a", "b") IN "grdb_base"
                let usesOriginCTE = mapping.count > 1
                let pivotFilter = usesOriginCTE
                    ? SQLExpression.rows(withColumns: pivotColumns, inTable: Self.prefetchOriginTableName)
                    : SQLExpression.rows(withColumns: pivotColumns, matching: keys)
                association.pivot.relation = association.pivot.relation
                    .aliased(pivotAlias)
                    .filter { _ in pivotFilter }
                var prefetchRelation = association.destinationRelation().annotated { _ in
                    pivotColumns.map { pivotAlias[$0].forKey("grdb_" + $0) }
                }
                if usesOriginCTE {
                    prefetchRelation.ctes.append(prefetchOriginCTE(selecting: mapping.map(\.left)))
                }
                // The SQL of IN (...) depends on the number of keys: don't
                // fill the statement cache with it.
                let prefetchRequest = try prefetchRelation
                    .makePreparedRequest(db, forSingleResult: false, cached: usesOriginCTE)
                try willFetch?(prefetchRequest, prefetch.keyPath)
                let prefetchedRows = try prefetchRequest.fetchAllRows(db)
                if let firstPrefetchedRow = prefetchedRows.first {
                    let indexes = pivotColumns.map { firstPrefetchedRow.index(forColumn: "grdb_" + $0)! }
                    groups = Dictionary(grouping: prefetchedRows) { row in
                        indexes.map { row.databaseValue(atUncheckedIndex: $0) }
                    }
                }
            }
            for row in rows {
                row.prefetchedRows.setRows(groups[key(of: row)] ?? [], forKeyPath: prefetch.keyPath)
            }
        }
    }
}

extension SQLRelation {
    /// The name of the common table expression of the origin request, in
    /// the prefetch requests of compound keys.
    fileprivate static let prefetchOriginTableName = "grdb_base"

    /// `"grdb_base" AS (SELECT <columns> FROM ...)`: the relation, as the
    /// origin of a prefetch request, selecting the columns of the key. The
    /// ordering matters only with a limit; prefetched associations not at
    /// all.
    fileprivate func prefetchOriginCTE(selecting columns: [String]) -> SQLCTE {
        let origin = (limit == nil ? unordered() : self)
            .removingPrefetchedChildren()
            .selectingOnly(columns.map { .expression(.column($0)) })
        return SQLCTE(
            tableName: Self.prefetchOriginTableName, columns: nil,
            subquery: .generated(SQLQueryGenerator(relation: origin)), isRecursive: false)
    }
}

extension SQLExpression {
    /// `("a", "b") IN "table"`: the rows whose `columns` hold one of the
    /// rows of a table (a common table expression).
    fileprivate static func rows(withColumns columns: [String], inTable tableName: String) -> SQLExpression {
        var sql = SQL(sql: "(") + columns.map { SQL(SQLExpression.column($0)) }.joined(separator: ", ")
        sql += SQL(sql: ") IN " + tableName.quotedDatabaseIdentifier)
        return .literal(sql)
    }

    /// The rows whose `columns` hold one of `keys`:
    ///
    /// ```sql
    /// "authorId" = ?
    /// "authorId" IN (?, ?, ?)
    /// "a" = ? AND "b" = ?
    /// ("a", "b") IN (VALUES (?, ?), (?, ?))
    /// ```
    ///
    /// A key that contains NULL matches nothing.
    static func rows(withColumns columns: [String], matching keys: [[DatabaseValue]]) -> SQLExpression {
        let keys = keys.filter { !$0.contains(where: \.isNull) }
        if columns.count == 1 {
            return SQLCollection.array(keys.map { .value($0[0]) }).contains(.column(columns[0]))
        }
        switch keys.count {
        case 0:
            return .value(false.databaseValue)
        case 1:
            return .associative(.and, zip(columns, keys[0]).map { .compare(.equal, .column($0), .value($1)) })
        default:
            // A list of row values does not hit SQLite's limit on the depth
            // of expressions, as `(a = ? AND b = ?) OR ...` would.
            var sql = SQL(sql: "(") + columns.map { SQL(SQLExpression.column($0)) }.joined(separator: ", ")
            sql += SQL(sql: ") IN (VALUES ")
            sql += keys.map { key in
                SQL(sql: "(") + key.map { SQL(SQLExpression.value($0)) }.joined(separator: ", ") + SQL(sql: ")")
            }.joined(separator: ", ")
            sql += SQL(sql: ")")
            return .literal(sql)
        }
    }
}
