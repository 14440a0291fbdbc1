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
        let layouts: [String: ScopeLayout]
        /// The scope names, sorted.
        public let names: [String]

        init(row: Row, layouts: [String: ScopeLayout]) {
            self.row = row
            self.layouts = layouts
            self.names = layouts.keys.sorted()
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { names.count }
        public func index(after i: Int) -> Int { i + 1 }

        /// The (name, row) pair at `position`.
        public subscript(position: Int) -> (name: String, row: Row) {
            let name = names[position]
            return (name, row.scoped(layouts[name]!))
        }

        /// The scope named `name`, or nil.
        public subscript(_ name: String) -> Row? {
            layouts[name].map(row.scoped)
        }
    }

    /// The scopes of the row, by name (direct children only).
    public var scopes: ScopesView {
        ScopesView(row: self, layouts: scopeLayouts)
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
        if scopeLayouts.isEmpty && prefetchedRows.isEmpty { return self }
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

    /// The rows of to-many associations, fetched by a second request.
    public struct PrefetchedRowsView: Equatable {
        var rows: [String: [Row]] = [:]

        /// Whether there is no prefetched rows.
        public var isEmpty: Bool { rows.isEmpty }

        /// The association keys.
        public var keys: Set<String> { Set(rows.keys) }

        /// The rows prefetched for `key`, or nil.
        public subscript(_ key: String) -> [Row]? {
            get { rows[key] }
            set { rows[key] = newValue }
        }
    }
}
