// Rows and records of a prepared request, with the scopes of joined
// associations and the prefetched rows of `including(all:)`.

extension PreparedRequest {
    /// The row of cursors: the current row of the statement, adapted.
    private func adaptedRow() throws -> Row {
        try Row.adapted(statement: statement, by: adapter)
    }

    private func preconditionNoSupplementaryFetch() {
        precondition(
            supplementaryFetch == nil,
            "Not implemented: fetchCursor with prefetched associations (including(all:)): use fetchAll or fetchOne")
    }

    /// A cursor over the rows of the request.
    func makeRowCursor() throws -> RowCursor {
        preconditionNoSupplementaryFetch()
        return try makeRowCursorIgnoringPrefetch()
    }

    private func makeRowCursorIgnoringPrefetch() throws -> RowCursor {
        try RowCursor(statement: statement, arguments: nil, row: adaptedRow())
    }

    /// A cursor over the records of the request.
    func makeRecordCursor<Record: FetchableRecord>(of type: Record.Type = Record.self) throws -> RecordCursor<Record> {
        preconditionNoSupplementaryFetch()
        return try RecordCursor(statement: statement, arguments: nil, row: adaptedRow())
    }

    /// Copies of all rows, with their prefetched rows.
    func fetchAllRows(_ db: Database) throws -> [Row] {
        let cursor = try makeRowCursorIgnoringPrefetch()
        var rows: [Row] = []
        while let row = try cursor.next() {
            rows.append(row.copy())
        }
        try supplementaryFetch?(db, rows)
        return rows
    }

    /// Copies of all rows, with their prefetched rows; `willPrefetch`
    /// gets each prefetch request, and the key path of its association,
    /// before it runs.
    func fetchAllRows(
        _ db: Database,
        willPrefetch: (PreparedRequest, [String]) throws -> Void) throws -> [Row]
    {
        let cursor = try makeRowCursorIgnoringPrefetch()
        var rows: [Row] = []
        while let row = try cursor.next() {
            rows.append(row.copy())
        }
        try withoutActuallyEscaping(willPrefetch) { willPrefetch in
            try observedSupplementaryFetch?(db, rows, willPrefetch)
        }
        return rows
    }

    /// A copy of the first row, with its prefetched rows.
    func fetchOneRow(_ db: Database) throws -> Row? {
        let row = try makeRowCursorIgnoringPrefetch()._fetchFirst { $0.copy() }
        // Without a row, the prefetch still records what it would read, for
        // value observations.
        try supplementaryFetch?(db, row.map { [$0] } ?? [])
        return row
    }

    /// All records.
    func fetchAllRecords<Record: FetchableRecord>(_ db: Database, of type: Record.Type = Record.self) throws -> [Record]
    {
        if supplementaryFetch != nil {
            return try fetchAllRows(db).map(Record.init(row:))
        }
        return try makeRecordCursor(of: Record.self)._fetchAll()
    }

    /// The first record.
    func fetchOneRecord<Record: FetchableRecord>(_ db: Database, of type: Record.Type = Record.self) throws -> Record? {
        if supplementaryFetch != nil {
            return try fetchOneRow(db).map(Record.init(row:))
        }
        return try makeRecordCursor(of: Record.self)._fetchFirst { $0 }
    }
}
