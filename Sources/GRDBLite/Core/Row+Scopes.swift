extension Row {
    /// The named slices of a row that joins several tables: for example the
    /// `author` columns of a row of books joined with their authors.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Book.including(required: Book.author))!
    /// let authorRow = row.scopes["author"]
    /// ```
    public struct ScopesView: Collection {
        let row: Row
        /// The scope names, sorted.
        public let names: [String]

        init(row: Row) {
            self.row = row
            self.names = row.scopeNames.sorted()
        }

        /// The position of a scope, in the order of ``names``.
        public typealias Index = Int

        public var startIndex: Int { 0 }
        public var endIndex: Int { names.count }
        public func index(after i: Int) -> Int { i + 1 }

        /// The (name, row) pair at `position`.
        public subscript(position: Int) -> (name: String, row: Row) {
            let name = names[position]
            return (name, row.scope(named: name)!)
        }

        /// The scope named `name`, or nil.
        public subscript(_ name: String) -> Row? {
            row.scope(named: name)
        }
    }

    /// The scopes of the row, by name (direct children only).
    public var scopes: ScopesView {
        ScopesView(row: self)
    }

    /// Whether the row has scopes.
    var hasScopes: Bool {
        if let adaptation { return !adaptation.scopes.isEmpty }
        return !scopeLayouts.isEmpty
    }

    /// The names of the row's scopes, in no particular order.
    var scopeNames: [String] {
        if let adaptation { return Array(adaptation.scopes.keys) }
        return Array(scopeLayouts.keys)
    }

    /// The scope named `name`, or nil.
    func scope(named name: String) -> Row? {
        let scope: Row?
        if let adaptation {
            scope = adaptation.scopes[name].map(adaptation.base.adapted(by:))
        } else {
            scope = scopeLayouts[name].map(scoped)
        }
        if let scope, !prefetchedRows.isEmpty {
            scope.prefetchedRows = prefetchedRows.nested(name)
        }
        return scope
    }

    /// Looks for scopes at any depth, breadth-first.
    public struct ScopesTreeView {
        let row: Row

        /// The names of all scopes, at any depth.
        public var names: Set<String> {
            var names: Set<String> = []
            var fringe = [row]
            while !fringe.isEmpty {
                let row = fringe.removeFirst()
                for (name, scope) in row.scopes {
                    names.insert(name)
                    fringe.append(scope)
                }
            }
            return names
        }

        /// The nearest scope named `name`, at any depth, or nil.
        public subscript(_ name: String) -> Row? {
            var fringe = [row]
            while !fringe.isEmpty {
                let row = fringe.removeFirst()
                if let scope = row.scopes[name] { return scope }
                fringe.append(contentsOf: row.scopes.map(\.row))
            }
            return nil
        }
    }

    /// The scopes of the row, at any depth.
    public var scopesTree: ScopesTreeView { ScopesTreeView(row: self) }

    /// The row without its scopes and prefetched rows.
    public var unscoped: Row {
        if !hasScopes && prefetchedRows.isEmpty { return self }
        if let adaptation {
            return Row(adaptation: RowAdaptation(base: adaptation.base, columns: adaptation.columns, scopes: [:]))
        }
        if let statement {
            return Row(statement: statement, offset: offset, count: count)
        }
        return Row(values: storedValues, names: storedNames, offset: offset, count: count)
    }

    /// A row that sees the columns of `layout`.
    func scoped(_ layout: ScopeLayout) -> Row {
        let scoped: Row
        if let statement {
            scoped = Row(statement: statement, offset: offset + layout.offset, count: layout.count,
                         scopeLayouts: layout.scopes)
        } else {
            scoped = Row(values: storedValues, names: storedNames, offset: offset + layout.offset,
                         count: layout.count, scopeLayouts: layout.scopes)
        }
        return scoped
    }

    /// The rows of to-many associations (`including(all:)`), fetched by
    /// another request, by association key.
    ///
    /// The row of a request also holds the prefetched rows of the
    /// associations included in its joined associations (its scopes):
    /// `Book.including(required: Book.author.including(all: Author.awards))`
    /// gives rows whose `author` scope has prefetched `awards`, which the
    /// book row finds too.
    public struct PrefetchedRowsView: Equatable {
        /// A key of prefetched rows, or of a scope whose row has prefetched
        /// rows (then `rows` is nil).
        struct Entry: Equatable {
            var key: String
            var rows: [Row]?
            var nested: PrefetchedRowsView
        }

        /// In the order of the request's associations.
        var entries: [Entry] = []

        /// Whether there is no prefetched rows.
        public var isEmpty: Bool { entries.isEmpty }

        /// The association keys, at any depth.
        public var keys: Set<String> {
            var keys: Set<String> = []
            var fringe = entries
            while !fringe.isEmpty {
                let entry = fringe.removeFirst()
                if entry.rows != nil { keys.insert(entry.key) }
                fringe += entry.nested.entries
            }
            return keys
        }

        /// The rows prefetched for `key`, or nil. Those of the row come
        /// first, then those of its scopes, breadth-first.
        public subscript(_ key: String) -> [Row]? {
            get {
                var fringe = entries
                while !fringe.isEmpty {
                    let entry = fringe.removeFirst()
                    if entry.key == key, let rows = entry.rows { return rows }
                    fringe += entry.nested.entries
                }
                return nil
            }
            set {
                if let newValue {
                    setRows(newValue, forKeyPath: [key])
                } else {
                    entries.removeAll { $0.key == key && $0.rows != nil }
                }
            }
        }

        /// The prefetched rows of the scope named `name`.
        func nested(_ name: String) -> PrefetchedRowsView {
            entries.first { $0.key == name && $0.rows == nil }?.nested ?? PrefetchedRowsView()
        }

        /// Sets the rows of the last key of `keyPath`; the keys before it
        /// are scopes.
        mutating func setRows(_ rows: [Row], forKeyPath keyPath: some Collection<String>) {
            guard let key = keyPath.first else { return }
            let isLast = keyPath.count == 1
            let index = entries.firstIndex { $0.key == key && ($0.rows == nil) != isLast }
                ?? { entries.append(Entry(key: key, rows: nil, nested: .init())); return entries.count - 1 }()
            if isLast {
                entries[index].rows = rows
            } else {
                entries[index].nested.setRows(rows, forKeyPath: keyPath.dropFirst())
            }
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.entries.count == rhs.entries.count && lhs.entries.allSatisfy(rhs.entries.contains)
        }
    }
}
