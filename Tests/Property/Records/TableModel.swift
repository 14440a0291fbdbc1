import Foundation

/// The reference model of a table: its rows as SQLite stores them, and what
/// record persistence methods do to them (insert, update, updateChanges,
/// delete, exists).
struct TableModel {
    let table: TableSpec
    /// Stored values, one array per row, and the rowid of rowid tables.
    private(set) var rows: [(rowID: Int64?, values: [Stored])] = []

    init(table: TableSpec) {
        self.table = table
    }

    // MARK: Insert

    /// Inserts the values of a record (its rowid for hidden-rowid tables),
    /// and returns the record as it reads back, with its assigned rowid.
    mutating func insert(_ values: [ColumnValue], rowID: Int64?) -> Result<RecordState, InsertFailure> {
        guard var stored = store(values) else { return .failure(.encoding) }
        if hasNullInNotNullColumn(stored) { return .failure(.notNull) }
        var assignedRowID: Int64?
        switch table.primaryKey {
        case .hiddenRowID:
            assignedRowID = rowID ?? nextRowID
            if rows.contains(where: { $0.rowID == assignedRowID }) { return .failure(.rowID) }
        case .rowIDAlias(let index):
            if case .integer(let id) = stored[index] {
                assignedRowID = id
            } else {
                assignedRowID = nextRowID
                stored[index] = .integer(nextRowID)
            }
            if rows.contains(where: { $0.rowID == assignedRowID }) { return .failure(.primaryKey) }
        case .columns(let indexes):
            if rows.contains(where: { row in indexes.allSatisfy { row.values[$0] == stored[$0] } }) {
                return .failure(.primaryKey)
            }
            assignedRowID = table.withoutRowID ? nil : nextRowID
        }
        rows.append((assignedRowID, stored))
        return .success(RecordState(values: readBack(stored), rowID: table.hasHiddenRowID ? assignedRowID : nil))
    }

    /// SQLite gives max(rowid) + 1 (the maximum is not reached in our tests).
    private var nextRowID: Int64 {
        (rows.compactMap(\.rowID).max() ?? 0) + 1
    }

    // MARK: Update, delete

    /// The row with the primary key of a record.
    func rowIndex(of record: RecordState) -> Int? {
        switch table.primaryKey {
        case .hiddenRowID:
            return rows.firstIndex { $0.rowID == record.rowID }
        case .rowIDAlias(let index):
            let key = RecordModel.stored(record.values[index], in: table.columns[index])
            return rows.firstIndex { $0.values[index] == key }
        case .columns(let indexes):
            let key = indexes.map { RecordModel.stored(record.values[$0], in: table.columns[$0]) }
            return rows.firstIndex { row in zip(indexes, key).allSatisfy { row.values[$0] == $1 } }
        }
    }

    /// `update(db)`: all columns of the row with the record's key.
    mutating func update(_ record: RecordState) -> Result<RecordState, UpdateFailure> {
        update(record, columns: Set(table.columns.indices))
    }

    /// Updates some columns of the row with the record's key, and returns
    /// the record as it reads back.
    mutating func update(_ record: RecordState, columns: Set<Int>) -> Result<RecordState, UpdateFailure> {
        guard let stored = store(record.values) else { return .failure(.encoding) }
        guard let index = rowIndex(of: record) else { return .failure(.notFound) }
        var row = rows[index].values
        for column in columns { row[column] = stored[column] }
        if hasNullInNotNullColumn(row) { return .failure(.notNull) }
        rows[index].values = row
        return .success(RecordState(values: readBack(row), rowID: record.rowID))
    }

    /// The columns whose encoded values differ (`databaseChanges`), with
    /// their old encoded values.
    func changes(from old: RecordState, to new: RecordState) -> [String: Stored] {
        var changes: [String: Stored] = [:]
        for (index, column) in table.columns.enumerated() {
            let oldValue = RecordModel.encoded(old.values[index])!
            if RecordModel.isDistinct(oldValue, RecordModel.encoded(new.values[index])!) {
                changes[column.name] = oldValue
            }
        }
        return changes
    }

    /// Deletes the row with the record's key; returns whether there was one.
    mutating func delete(_ record: RecordState) -> Bool {
        guard let index = rowIndex(of: record) else { return false }
        rows.remove(at: index)
        return true
    }

    // MARK: Values

    private func store(_ values: [ColumnValue]) -> [Stored]? {
        var stored: [Stored] = []
        for (column, value) in zip(table.columns, values) {
            guard let value = RecordModel.stored(value, in: column) else { return nil }
            stored.append(value)
        }
        return stored
    }

    private func hasNullInNotNullColumn(_ stored: [Stored]) -> Bool {
        zip(table.columns, stored).contains { column, value in !column.isOptional && value == .null }
    }

    /// The values a record reads from stored values.
    func readBack(_ stored: [Stored]) -> [ColumnValue] {
        zip(table.columns, stored).map { column, value in
            // Values in the table were written by records: they read back.
            RecordModel.read(value, as: column)!
        }
    }

    /// The records of the table.
    var records: [RecordState] {
        rows.map { RecordState(values: readBack($0.values), rowID: table.hasHiddenRowID ? $0.rowID : nil) }
    }
}

/// A record's values, and its hidden rowid.
struct RecordState: Equatable, Sendable, CustomStringConvertible {
    var values: [ColumnValue]
    var rowID: Int64?

    var description: String {
        "[" + values.map(\.description).joined(separator: ", ") + "]" + (rowID.map { " rowid \($0)" } ?? "")
    }
}

/// Why an update fails.
enum UpdateFailure: Error, Equatable, Sendable {
    case encoding
    case notNull
    /// `RecordError.recordNotFound`: no row has the record's key.
    case notFound
}
