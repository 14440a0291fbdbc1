/// The region of the statement of a query interface request, as in GRDB
/// (``Statement/databaseRegion``, ``FetchRequest/databaseRegion(_:)``, and
/// the region a `ValueObservation` tracks):
///
/// - A filter by rowid narrows it to those rows: `Player.filter(id: 1)`
///   reads `player(...)[1]`, `Player.none()` an empty region.
/// - Unless it is empty, it holds the associations that `including(all:)`
///   prefetches with other statements, even when there is no row to
///   prefetch for.
final class RequestRegionRefinement: StatementRegionRefinement {
    let relation: SQLRelation

    init(relation: SQLRelation) {
        self.relation = relation
    }

    func refinedRegion(_ db: Database, authorizerRegion: DatabaseRegion) throws -> DatabaseRegion {
        var region = authorizerRegion
        if let (table, rowIDs) = try relation.restrictedRowIDs(db) {
            region = region.restrictingRows(ofTable: table, to: rowIDs)
        }
        if !region.isEmpty {
            region.formUnion(try relation.prefetchedRegion(db))
        }
        return region
    }
}

extension SQLRelation {
    /// The table of the relation and the row ids its filter restricts it
    /// to, or nil when it may read any row of it.
    func restrictedRowIDs(_ db: Database) throws -> (table: String, rowIDs: Set<Int64>)? {
        let relation = self
        guard let filter = try relation.filter?.resolve(db) else { return nil }
        let tableName = relation.source.tableName
        // Other rows of the table may be read by a join, a CTE or a
        // subquery: the region can't be narrowed then.
        guard relation.ctes.isEmpty,
              !relation.joinedChildren.contains(where: { $0.relation.readsTable(tableName) }),
              !filter.mayReadOtherRows,
              try !(relation.having?.resolve(db).mayReadOtherRows ?? false),
              try !relation.selection.resolve(db).contains(where: \.mayReadOtherRows),
              let primaryKey = try db.primaryKeyIfAny(tableName), primaryKey.tableHasRowID
        else { return nil }
        // A column named `oid` hides the rowid's alias.
        let columnNames = try Set(db.columns(in: tableName).map { CaseInsensitiveIdentifier($0.name) })
        var rowIDNames = ["rowid", "oid", "_rowid_"].map(CaseInsensitiveIdentifier.init).filter {
            !columnNames.contains($0)
        }
        if let column = primaryKey.rowIDColumn { rowIDNames.append(CaseInsensitiveIdentifier(column)) }
        let alias = relation.source.alias ?? TableAliasBase(tableName: tableName)
        guard let rowIDs = filter.qualified(with: alias).rowIDs(alias: alias, names: rowIDNames) else { return nil }
        return (tableName, rowIDs)
    }


    /// Whether the relation or its joined children read `tableName`.
    fileprivate func readsTable(_ tableName: String) -> Bool {
        CaseInsensitiveIdentifier(source.tableName) == CaseInsensitiveIdentifier(tableName)
            || joinedChildren.contains { $0.relation.readsTable(tableName) }
    }
}

extension SQLSelection {
    fileprivate var mayReadOtherRows: Bool {
        switch impl {
        case .allColumns, .qualifiedAllColumns, .allColumnsExcluding, .qualifiedAllColumnsExcluding: false
        case .expression(let expression), .aliased(let expression, _): expression.mayReadOtherRows
        case .literal: true
        }
    }
}

extension SQLExpression {
    /// Whether the expression may read other rows than the current one: a
    /// subquery, or raw SQL.
    fileprivate var mayReadOtherRows: Bool {
        switch impl {
        case .value, .column, .qualifiedColumn, .countAll, .resolved:
            return false
        case .literal, .subquery, .exists:
            return true
        case let .in(expression, collection, _):
            if case .array(let expressions) = collection {
                return expression.mayReadOtherRows || expressions.contains(where: \.mayReadOtherRows)
            }
            return true
        case let .between(expression, lowerBound, upperBound, _):
            return [expression, lowerBound, upperBound].contains(where: \.mayReadOtherRows)
        case let .binary(_, lhs, rhs), let .compare(_, lhs, rhs):
            return lhs.mayReadOtherRows || rhs.mayReadOtherRows
        case let .like(lhs, pattern, escape, _):
            return lhs.mayReadOtherRows || pattern.mayReadOtherRows || (escape?.mayReadOtherRows ?? false)
        case .unary(_, let expression), .not(let expression), .collated(let expression, _), .cast(let expression, _):
            return expression.mayReadOtherRows
        case let .associative(_, operands), let .function(_, operands):
            return operands.contains(where: \.mayReadOtherRows)
        case let .aggregate(_, arguments, _, _, filter):
            return arguments.contains(where: \.mayReadOtherRows) || (filter?.mayReadOtherRows ?? false)
        case .tableMatch(_, let pattern):
            return pattern.mayReadOtherRows
        }
    }

    /// The row ids a filter restricts `alias` to, or nil when it does not
    /// restrict them: `id = 1`, `rowid IN (1, 2)`, `id IS NULL` (no row),
    /// combined with AND and OR. `names` are the names of the rowid.
    fileprivate func rowIDs(alias: TableAliasBase, names: [CaseInsensitiveIdentifier]) -> Set<Int64>? {
        func isRowID(_ expression: SQLExpression) -> Bool {
            if case let .qualifiedColumn(name, columnAlias) = expression.impl, columnAlias == alias {
                return names.contains(CaseInsensitiveIdentifier(name))
            }
            return false
        }
        func rowIDs(of value: SQLExpression) -> Set<Int64>? {
            guard case .value(let dbValue) = value.impl else { return nil }
            switch dbValue.storage {
            case .null: return []
            case .int64(let int64): return [int64]
            default: return nil // Affinity may convert text and reals.
            }
        }
        switch impl {
        case .value(let dbValue):
            // `none()`, `[].contains(...)`: no row.
            if case .int64(0) = dbValue.storage { return [] }
            if dbValue.isNull { return [] }
            return nil
        case let .compare(op, lhs, rhs) where op == .equal || op == .is:
            if isRowID(lhs) { return rowIDs(of: rhs) }
            if isRowID(rhs) { return rowIDs(of: lhs) }
            return nil
        case let .in(expression, .array(values), isNegated) where !isNegated && isRowID(expression):
            var result: Set<Int64> = []
            for value in values {
                guard let ids = rowIDs(of: value) else { return nil }
                result.formUnion(ids)
            }
            return result
        case let .associative(op, operands) where op == .and:
            let restrictions = operands.compactMap { $0.rowIDs(alias: alias, names: names) }
            guard let first = restrictions.first else { return nil }
            return restrictions.dropFirst().reduce(first) { $0.intersection($1) }
        case let .associative(op, operands) where op == .or:
            var result: Set<Int64> = []
            for operand in operands {
                guard let ids = operand.rowIDs(alias: alias, names: names) else { return nil }
                result.formUnion(ids)
            }
            return result
        default:
            return nil
        }
    }
}
