/// A type that presents fetched rows with other columns: renamed, reordered,
/// hidden, or split into named scopes.
///
/// ```swift
/// // [consumed:"Hello"]
/// let row = try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced",
///                            adapter: ColumnMapping(["consumed": "produced"]))!
/// row.unadapted // [produced:"Hello"]
/// ```
///
/// Every fetching method takes an `adapter:` argument, requests take one
/// with `SQLRequest.init(sql:arguments:adapter:cached:)` or
/// ``FetchRequest/adapted(_:)``. The built-in adapters are ``ColumnMapping``,
/// ``SuffixRowAdapter``, ``RangeRowAdapter``, ``ScopeAdapter``,
/// ``EmptyRowAdapter`` and ``RenameColumnAdapter``; see also
/// ``splittingRowAdapters(columnCounts:)``.
///
/// An adapter is applied once per statement: the rows of a cursor read the
/// statement's columns through it, without copying them.
public protocol RowAdapter: Sendable {
    /// Not an API: the columns and scopes of adapted rows, given the
    /// columns of the row to adapt. GRDBLite calls it once per statement.
    /// A custom adapter returns a ``_LayoutedColumnMapping``.
    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter
}

/// Not an API: an adapter applied to the columns of a row (see
/// ``RowAdapter``).
public protocol _LayoutedRowAdapter {
    /// Not an API: the columns of the adapted row.
    var _mapping: _LayoutedColumnMapping { get }
    /// Not an API: the scopes of the adapted row.
    var _scopes: [String: any _LayoutedRowAdapter] { get }
}

/// Not an API: the columns of a row that an adapter adapts (a statement,
/// or the columns of another adapter).
public protocol _RowLayout {
    /// Not an API: (index in the unadapted row, name) of each column.
    var _layoutColumns: [(Int, String)] { get }
    /// Not an API: the position in `_layoutColumns` of the leftmost column
    /// named `name` (case-insensitive), or nil.
    func _layoutIndex(ofColumn name: String) -> Int?
}

/// Not an API: the columns of adapted rows, each an index in the unadapted
/// row and a name.
///
/// ```swift
/// // The second and third columns, named foo and bar.
/// struct FooBarAdapter: RowAdapter {
///     func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
///         _LayoutedColumnMapping(layoutColumns: [(1, "foo"), (2, "bar")])
///     }
/// }
/// ```
public struct _LayoutedColumnMapping: Sendable {
    /// Not an API: (index in the unadapted row, name) of each column.
    public let _layoutColumns: [(Int, String)]

    /// Not an API: a mapping from (index in the unadapted row, name) pairs.
    public init(layoutColumns: some Collection<(Int, String)>) {
        self._layoutColumns = Array(layoutColumns)
    }

    /// The index in the unadapted row of column `index`.
    func baseIndex(_ index: Int) -> Int { _layoutColumns[index].0 }

    /// The name of column `index`.
    func name(_ index: Int) -> String { _layoutColumns[index].1 }

    var count: Int { _layoutColumns.count }
}

extension _LayoutedColumnMapping: _LayoutedRowAdapter {
    /// Not an API: see ``RowAdapter``.
    public var _mapping: _LayoutedColumnMapping { self }
    /// Not an API: see ``RowAdapter``.
    public var _scopes: [String: any _LayoutedRowAdapter] { [:] }
}

extension _LayoutedColumnMapping: _RowLayout {
    /// Not an API: see ``RowAdapter``.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        let name = CaseInsensitiveIdentifier(name)
        return _layoutColumns.firstIndex { name.matches($0.1) }
    }
}

extension Statement: _RowLayout {
    /// Not an API: the statement's columns, for row adapters.
    public var _layoutColumns: [(Int, String)] {
        Array(columnNames.enumerated())
    }

    /// Not an API: the index of the leftmost column named `name`.
    public func _layoutIndex(ofColumn name: String) -> Int? {
        index(ofColumn: name)
    }
}

/// An adapter with scopes (see ``ScopeAdapter``).
struct LayoutedScopes: _LayoutedRowAdapter {
    let _mapping: _LayoutedColumnMapping
    let _scopes: [String: any _LayoutedRowAdapter]
}

extension RowAdapter {
    /// This adapter, with more scopes; a scope of the same name as one of
    /// the adapter's replaces it.
    ///
    /// ```swift
    /// let adapter = RangeRowAdapter(0..<2).addingScopes(["rest": SuffixRowAdapter(fromIndex: 2)])
    /// ```
    public func addingScopes(_ scopes: [String: any RowAdapter]) -> any RowAdapter {
        scopes.isEmpty ? self : ScopeAdapter(base: self, scopes: scopes)
    }
}

/// Row adapters that split a row into consecutive chunks of the given
/// numbers of columns, plus one for the columns left on the right.
///
/// ```swift
/// // SELECT player.*, team.* FROM player JOIN team ON ...
/// let adapters = try splittingRowAdapters(columnCounts: [
///     Player.numberOfSelectedColumns(db),
///     Team.numberOfSelectedColumns(db),
/// ])
/// let adapter = ScopeAdapter(["player": adapters[0], "team": adapters[1]])
/// let row = try Row.fetchOne(db, sql: sql, adapter: adapter)!
/// let team: Team = row["team"]
/// ```
public func splittingRowAdapters(columnCounts: [Int]) -> [any RowAdapter] {
    var adapters: [any RowAdapter] = []
    var start = 0
    for count in columnCounts {
        adapters.append(RangeRowAdapter(start..<(start + count)))
        start += count
    }
    adapters.append(SuffixRowAdapter(fromIndex: start))
    return adapters
}

/// An adapter that hides all columns.
public struct EmptyRowAdapter: RowAdapter {
    public init() { }

    /// Not an API: see ``RowAdapter``.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        _LayoutedColumnMapping(layoutColumns: [])
    }
}

/// An adapter that renames columns and hides the others: its keys are the
/// names in the adapted row, its values the names in the fetched row.
///
/// ```swift
/// // [newA:0 newB:1]
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c",
///                            adapter: ColumnMapping(["newA": "a", "newB": "b"]))!
/// ```
///
/// Columns keep the order of the fetched row. A missing fetched column is
/// a ``DatabaseError`` (`SQLITE_MISUSE`) when the statement runs.
public struct ColumnMapping: RowAdapter {
    /// Adapted name → fetched name.
    let mapping: [String: String]

    public init(_ mapping: [String: String]) {
        self.mapping = mapping
    }

    /// Not an API: see ``RowAdapter``.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        let mapped = try mapping.map { name, baseName -> (Int, String) in
            guard let index = layout._layoutIndex(ofColumn: baseName) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Mapping references missing column \(baseName). "
                        + "Valid column names are: \(columns.map(\.1).joined(separator: ", ")).")
            }
            return (columns[index].0, name)
        }
        // The order of the fetched row; a dictionary has none.
        return _LayoutedColumnMapping(layoutColumns: mapped.sorted { ($0.0, $0.1) < ($1.0, $1.1) })
    }
}

/// An adapter that hides the columns on the left of an index.
///
/// ```swift
/// // [c:2 d:3]
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d",
///                            adapter: SuffixRowAdapter(fromIndex: 2))!
/// ```
///
/// An index beyond the last column is a ``DatabaseError``
/// (`SQLITE_MISUSE`) when the statement runs.
public struct SuffixRowAdapter: RowAdapter {
    let index: Int

    /// The columns from `index` (0 keeps them all). Traps if `index` is
    /// negative.
    public init(fromIndex index: Int) {
        precondition(index >= 0, "SuffixRowAdapter: negative column index \(index)")
        self.index = index
    }

    /// Not an API: see ``RowAdapter``.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        guard index <= columns.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "SuffixRowAdapter(fromIndex: \(index)) is out of range for a row of \(columns.count) columns")
        }
        return _LayoutedColumnMapping(layoutColumns: columns[index...])
    }
}

/// An adapter that keeps a range of columns.
///
/// ```swift
/// // [b:1 c:2]
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d",
///                            adapter: RangeRowAdapter(1..<3))!
/// ```
///
/// A range beyond the last column is a ``DatabaseError`` (`SQLITE_MISUSE`)
/// when the statement runs.
public struct RangeRowAdapter: RowAdapter {
    let range: Range<Int>

    /// The columns in `range`. Traps if its lower bound is negative.
    public init(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0, "RangeRowAdapter: negative column index \(range.lowerBound)")
        self.range = range
    }

    /// The columns in `range`. Traps if its lower bound is negative.
    public init(_ range: ClosedRange<Int>) {
        self.init(range.lowerBound..<(range.upperBound + 1))
    }

    /// Not an API: see ``RowAdapter``.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let columns = layout._layoutColumns
        guard range.upperBound <= columns.count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "RangeRowAdapter(\(range)) is out of range for a row of \(columns.count) columns")
        }
        return _LayoutedColumnMapping(layoutColumns: columns[range])
    }
}

/// An adapter that defines scopes (``Row/scopes``): named rows, each made
/// by its own adapter from the columns of the fetched row.
///
/// ```swift
/// let adapter = ScopeAdapter([
///     "left": RangeRowAdapter(0..<2),
///     "right": RangeRowAdapter(2..<4)])
/// let row = try Row.fetchOne(db, sql: "SELECT 0 AS a, 1 AS b, 2 AS c, 3 AS d", adapter: adapter)!
/// row                 // [a:0 b:1 c:2 d:3]
/// row.scopes["left"]  // [a:0 b:1]
/// row.scopes["right"] // [c:2 d:3]
/// ```
///
/// The adapters of scopes, nested ones included, all see the columns of
/// the fetched row.
public struct ScopeAdapter: RowAdapter {
    let base: any RowAdapter
    let scopes: [String: any RowAdapter]

    /// An adapter that keeps all columns and adds scopes.
    public init(_ scopes: [String: any RowAdapter]) {
        self.init(base: SuffixRowAdapter(fromIndex: 0), scopes: scopes)
    }

    /// The `base` adapter, with scopes; a scope of the same name as one of
    /// `base` replaces it.
    public init(base: some RowAdapter, scopes: [String: any RowAdapter]) {
        self.base = base
        self.scopes = scopes
    }

    /// Not an API: see ``RowAdapter``.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        let layoutedBase = try base._layoutedAdapter(from: layout)
        var layoutedScopes = layoutedBase._scopes
        for (name, adapter) in scopes {
            layoutedScopes[name] = try adapter._layoutedAdapter(from: layout)
        }
        return LayoutedScopes(_mapping: layoutedBase._mapping, _scopes: layoutedScopes)
    }
}

/// An adapter that renames columns.
///
/// ```swift
/// // SELECT * FROM (SELECT 1 AS id, 2 AS id) names the columns id and id:1:
/// let adapter = RenameColumnAdapter { String($0.prefix { $0 != ":" }) }
/// ```
public struct RenameColumnAdapter: RowAdapter {
    let transform: @Sendable (String) -> String

    public init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    /// Not an API: see ``RowAdapter``.
    public func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        _LayoutedColumnMapping(layoutColumns: layout._layoutColumns.map { ($0.0, transform($0.1)) })
    }
}

/// `second` applied to the rows adapted by `first` (an adapted request
/// adapted again).
struct ChainedAdapter: RowAdapter {
    let first: any RowAdapter
    let second: any RowAdapter

    func _layoutedAdapter(from layout: some _RowLayout) throws -> any _LayoutedRowAdapter {
        try second._layoutedAdapter(from: first._layoutedAdapter(from: layout)._mapping)
    }
}
