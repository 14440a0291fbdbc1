// Adapted rows (see RowAdapter).
//
// An adapter whose columns are a run of consecutive columns of the fetched
// row, with their names, and whose scopes are such runs too (RangeRowAdapter,
// SuffixRowAdapter, splittingRowAdapters, ScopeAdapter of those: the common
// case) gives a row that is a slice of the statement, as the rows of joined
// requests are: reading it costs what reading a plain row costs. Other
// adapters (ColumnMapping, RenameColumnAdapter) give a row that reads its
// base row through a `RowAdaptation`.

/// The columns and scopes of an adapted row that is not a slice of the
/// fetched row.
@usableFromInline
final class RowAdaptation {
    /// The unadapted row: all columns of the statement, or their copy.
    let base: Row
    let columns: _LayoutedColumnMapping
    /// Relative to `base`, as the adapted row's columns.
    let scopes: [String: any _LayoutedRowAdapter]

    init(base: Row, columns: _LayoutedColumnMapping, scopes: [String: any _LayoutedRowAdapter]) {
        self.base = base
        self.columns = columns
        self.scopes = scopes
    }

    func withBase(_ base: Row) -> RowAdaptation {
        RowAdaptation(base: base, columns: columns, scopes: scopes)
    }

    @usableFromInline
    func value(atUncheckedIndex index: Int) -> DatabaseValue {
        base.databaseValue(atUncheckedIndex: columns.baseIndex(index))
    }
}

extension Row {
    /// The row of a statement, adapted by `adapter`, or the plain row if
    /// `adapter` is nil.
    static func adapted(statement: Statement, by adapter: (any RowAdapter)?) throws -> Row {
        guard let adapter else { return Row(statement: statement) }
        if let slices = adapter as? SliceRowAdapter {
            return Row(statement: statement, count: slices.count, scopeLayouts: slices.scopes)
        }
        return try Row(statement: statement).adapted(by: adapter._layoutedAdapter(from: statement))
    }

    /// This unadapted row (the whole row of a statement, or its copy) seen
    /// through `adapter`.
    func adapted(by adapter: any _LayoutedRowAdapter) -> Row {
        let names = statement?.columnNames ?? storedNames
        if let slice = Self.slice(adapter, names: names) {
            if let statement {
                return Row(statement: statement, offset: slice.offset, count: slice.count, scopeLayouts: slice.scopes)
            }
            return Row(values: storedValues, names: storedNames, offset: slice.offset, count: slice.count,
                       scopeLayouts: slice.scopes)
        }
        return Row(adaptation: RowAdaptation(base: self, columns: adapter._mapping, scopes: adapter._scopes))
    }

    /// The slice of the row that `adapter` selects, if it selects
    /// consecutive columns with their names, and its scopes too.
    private static func slice(_ adapter: any _LayoutedRowAdapter, names: [String])
        -> (offset: Int, count: Int, scopes: [String: ScopeLayout])?
    {
        let columns = adapter._mapping._layoutColumns
        let start = columns.first?.0 ?? 0
        for (position, (index, name)) in columns.enumerated() {
            guard index == start + position, names[index].utf8.elementsEqual(name.utf8) else { return nil }
        }
        var scopes: [String: ScopeLayout] = [:]
        for (key, scopeAdapter) in adapter._scopes {
            guard let scope = slice(scopeAdapter, names: names) else { return nil }
            scopes[key] = ScopeLayout(offset: scope.offset - start, count: scope.count, scopes: scope.scopes)
        }
        return (start, columns.count, scopes)
    }

    /// The fetched row, without adapter: all columns of the statement,
    /// without scopes.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced",
    ///                            adapter: ColumnMapping(["consumed": "produced"]))!
    /// row           // [consumed:"Hello"]
    /// row.unadapted // [produced:"Hello"]
    /// ```
    ///
    /// The rows of requests that join associations are adapted rows: their
    /// unadapted row holds the columns of all joined tables.
    public var unadapted: Row {
        if let adaptation { return adaptation.base.unadapted }
        if let statement {
            if offset == 0 && count == statement.columnCount && scopeLayouts.isEmpty { return self }
            return Row(statement: statement)
        }
        if offset == 0 && count == storedValues.count && scopeLayouts.isEmpty { return self }
        return Row(values: storedValues, names: storedNames)
    }
}

/// The adapter of requests that join associations: the columns of the
/// request's table come first, then each association's, in nested scopes.
/// Its rows are slices of the statement, made without layout.
struct SliceRowAdapter: RowAdapter {
    /// The number of columns of the row itself, from the first one.
    let count: Int
    let scopes: [String: Row.ScopeLayout]

    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        func layouted(offset: Int, count: Int, scopes: [String: Row.ScopeLayout]) -> any _LayoutedRowAdapter {
            LayoutedScopes(
                _mapping: _LayoutedColumnMapping(layoutColumns: columns[offset..<(offset + count)]),
                _scopes: scopes.mapValues { layouted(offset: offset + $0.offset, count: $0.count, scopes: $0.scopes) })
        }
        return layouted(offset: 0, count: count, scopes: scopes)
    }
}
