import Foundation
@_spi(GRDBLite) import GRDBLite
import PropertyBased
import Testing

/// Values stored with SQL, read by records: a value that converts reads as
/// `RecordModel.read` says, and a value that can't be represented (an
/// integer out of the range of a narrow integer, a real out of Int64's
/// range, NULL in a non-optional property, a wrong storage class) is a
/// `RowDecodingError` that names its column, never a wrong value. Both
/// statement rows (the fast path of cursors) and copied rows are checked.
@Suite struct ValueConversionTests {
    @Test func rowRecords() async {
        await checkProperty(count: 500, input: RecordGenerators.conversionCase) { testCase in
            try TableSpec.$current.withValue(testCase.table) {
                try checkConversions(testCase, RowRecord.self)
            }
        }
    }

    @Test func codableRecords() async {
        await checkProperty(count: 500, input: RecordGenerators.conversionCase) { testCase in
            try TableSpec.$current.withValue(testCase.table) {
                try checkConversions(testCase, CodableRecord.self)
            }
        }
    }

    private func checkConversions<Record: DynamicRecord>(_ testCase: ConversionCase, _ type: Record.Type) throws {
        let table = testCase.table
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // No NOT NULL constraint: NULL in a non-optional property is a
            // case to read.
            let columns = table.columns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
            try db.execute(sql: "CREATE TABLE t (\(columns))")
            let marks = table.columns.map { _ in "?" }.joined(separator: ", ")
            for row in testCase.rows {
                try db.execute(
                    sql: "INSERT INTO t (\(columns)) VALUES (\(marks))",
                    arguments: StatementArguments(row.map(\.databaseValueConvertible)))
            }
            let sql = "SELECT *, rowid FROM t WHERE rowid = ?"
            for (index, row) in testCase.rows.enumerated() {
                let rowID = index + 1
                let context = "row #\(index)"
                // Untyped columns keep values as they are bound.
                let stored = try #require(try Row.fetchOne(db, sql: sql, arguments: [rowID])).databaseValues.dropLast()
                    .map(Stored.init)
                #expect(stored == row, "\(context)")

                check(
                    Result { try #require(try Record.fetchOne(db, sql: sql, arguments: [rowID])) },
                    expectedRecord(row, table, fromStatement: true, Record.self), "statement row, \(context)")
                check(
                    Result { try Record(row: #require(try Row.fetchOne(db, sql: sql, arguments: [rowID]))) },
                    expectedRecord(row, table, fromStatement: false, Record.self), "copied row, \(context)")
            }
        }
    }

    /// The values a record reads, or the first column it can't read.
    private func expectedRecord<Record: DynamicRecord>(
        _ row: [Stored], _ table: TableSpec, fromStatement: Bool, _ type: Record.Type
    ) -> Result<[ColumnValue], ExpectedDecodingError>
    {
        var values: [ColumnValue] = []
        for (column, stored) in zip(table.columns, row) {
            guard let value = RecordModel.read(stored, as: column, fromStatement: fromStatement) else {
                // JSON is read from a String: a statement's column reads
                // numbers as text too.
                let readsText = stored.isText || (fromStatement && stored != .null)
                return .failure(
                    ExpectedDecodingError(column: column.name, isJSONText: column.kind == .json && readsText))
            }
            values.append(value)
        }
        return .success(values)
    }

    private func check<Record: DynamicRecord>(
        _ result: Result<Record, any Error>,
        _ expected: Result<[ColumnValue], ExpectedDecodingError>,
        _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation)
    {
        switch (result, expected) {
        case let (.success(record), .success(values)):
            #expect(record.values == values, "\(context)", sourceLocation: sourceLocation)
        case let (.success(record), .failure(expectedError)):
            Issue.record(
                "\(context): read \(record.values), expected an error on \(expectedError.column)",
                sourceLocation: sourceLocation)
        case let (.failure(error), .success(values)):
            Issue.record("\(context): \(error), expected \(values)", sourceLocation: sourceLocation)
        case let (.failure(error), .failure(expectedError)):
            if let error = error as? RowDecodingError {
                #expect(
                    error.kind == .valueMismatch && error.key == expectedError.column, "\(context): \(error)",
                    sourceLocation: sourceLocation)
            } else {
                // Invalid JSON text: `init(row:)` reads a String, and
                // JSONDecoder throws.
                #expect(
                    expectedError.isJSONText && Record.self == RowRecord.self, "\(context): \(error)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}

private struct ExpectedDecodingError: Error {
    var column: String
    var isJSONText: Bool
}

extension Stored {
    var isText: Bool {
        if case .text = self { return true }
        return false
    }

    var databaseValueConvertible: (any DatabaseValueConvertible)? {
        switch self {
        case .null: nil
        case .integer(let v): v
        case .real(let v): v
        case .text(let v): v
        case .blob(let v): v
        }
    }
}
