// Records of the scopes and prefetched rows of a row, for record types
// that are not `Decodable`:
//
//     struct Authorship: FetchableRecord {
//         var book: Book
//         var author: Author?
//         init(row: Row) throws {
//             book = try Book(row: row)
//             author = row["author"]
//         }
//     }
//     let request = Book.including(optional: Book.author).asRequest(of: Authorship.self)

extension Row {
    /// The record of the scope named `scope` (a joined association), at
    /// any depth. Traps if there is no such scope, or if it only contains
    /// NULL; ``decode(_:forKey:)->Record`` throws instead.
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
        do {
            return try decode(Record.self, forKey: scope)
        } catch {
            fatalError("\(error)")
        }
    }

    /// The record of the scope named `scope` (a joined association), at
    /// any depth, or nil if there is no such scope or if it only contains
    /// NULL (a left join without match). Traps if the record can't be
    /// decoded.
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
        do {
            return try decodeIfPresent(Record.self, forKey: scope)
        } catch {
            fatalError("\(error)")
        }
    }

    /// The records of the prefetched rows named `key` (a to-many
    /// association included with `including(all:)`). Traps if there are no
    /// such prefetched rows.
    public subscript<Records>(_ key: String) -> Records
    where Records: RangeReplaceableCollection, Records.Element: FetchableRecord
    {
        do {
            return try decode(Records.self, forKey: key)
        } catch {
            fatalError("\(error)")
        }
    }

    /// The records of the prefetched rows named `key`, as a set. Traps if
    /// there are no such prefetched rows.
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        do {
            return try decode(Set<Record>.self, forKey: key)
        } catch {
            fatalError("\(error)")
        }
    }

    /// The record of the scope named `scope`, at any depth.
    ///
    /// - throws: A ``RowDecodingError`` if there is no such scope, or if it
    ///   only contains NULL, or the error of the record.
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws
        -> Record
    {
        guard let scopedRow = scopesTree[scope] else {
            throw RowDecodingError.scopeNotFound(scope, type: Record.self, row: self)
        }
        guard scopedRow.containsNonNullValue else {
            throw RowDecodingError.nullScope(scope, type: Record.self, row: self)
        }
        return try Record(row: scopedRow)
    }

    /// The record of the scope named `scope`, at any depth, or nil if there
    /// is no such scope, or if it only contains NULL.
    ///
    /// - throws: The error of the record.
    public func decodeIfPresent<Record: FetchableRecord>(
        _ type: Record.Type = Record.self,
        forKey scope: String) throws -> Record?
    {
        guard let scopedRow = scopesTree[scope], scopedRow.containsNonNullValue else { return nil }
        return try Record(row: scopedRow)
    }

    /// The records of the prefetched rows named `key`.
    ///
    /// - throws: A ``RowDecodingError`` if there are no such prefetched
    ///   rows, or the error of a record.
    public func decode<Records>(_ type: Records.Type = Records.self, forKey key: String) throws -> Records
    where Records: RangeReplaceableCollection, Records.Element: FetchableRecord
    {
        guard let rows = prefetchedRows[key] else {
            throw RowDecodingError.prefetchKeyNotFound(key, type: Records.self, row: self)
        }
        var records = Records()
        records.reserveCapacity(rows.count)
        for row in rows {
            try records.append(Records.Element(row: row))
        }
        return records
    }

    /// The records of the prefetched rows named `key`, as a set.
    ///
    /// - throws: A ``RowDecodingError`` if there are no such prefetched
    ///   rows, or the error of a record.
    public func decode<Record: FetchableRecord & Hashable>(
        _ type: Set<Record>.Type = Set<Record>.self,
        forKey key: String) throws -> Set<Record>
    {
        guard let rows = prefetchedRows[key] else {
            throw RowDecodingError.prefetchKeyNotFound(key, type: Set<Record>.self, row: self)
        }
        return try Set(rows.map(Record.init(row:)))
    }
}
