import Foundation
import GRDBLite
import PropertyBased
import Testing

/// Insert then fetch: random tables and records, compared with
/// `RecordModel` (what SQLite stores, what reads back, which insertions
/// fail).
@Suite struct RecordRoundTripTests {
    @Test func rowRecords() async {
        await checkProperty(count: 400, input: RecordGenerators.recordCase(path: .row)) { testCase in
            try TableSpec.$current.withValue(testCase.table) {
                try checkRoundTrip(testCase, RecordAdapter<RowRecord>.dynamic)
            }
        }
    }

    @Test func codableRecords() async {
        await checkProperty(count: 400, input: RecordGenerators.recordCase(path: .codable)) { testCase in
            try TableSpec.$current.withValue(testCase.table) {
                try checkRoundTrip(testCase, RecordAdapter<CodableRecord>.dynamic)
            }
        }
    }

    @Test func synthesizedCodableRecords() async {
        let input = RecordGenerators.records(of: AllValuesRecord.table, path: .codable, count: 1...6)
        await checkProperty(count: 200, input: input) { testCase in
            try checkRoundTrip(testCase, RecordAdapter(
                make: { AllValuesRecord(values: $0.values) },
                state: { RecordState(values: $0.values, rowID: nil) },
                key: { ["id": $0.id] }))
        }
    }

    /// Inserts the records, then checks the stored values, and the records
    /// fetched by `fetchAll` (statement rows), from copied rows, and by
    /// `find`.
    private func checkRoundTrip<Record>(_ testCase: RecordCase, _ adapter: RecordAdapter<Record>) throws {
        let table = testCase.table
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: table.createSQL)
            var model = TableModel(table: table)
            var expected: [RecordState] = []
            for (index, input) in testCase.records.enumerated() {
                var record = adapter.make(input)
                let predicted = model.insert(input.values, rowID: input.rowID)
                do {
                    try record.insert(db)
                    switch predicted {
                    case .success(let state):
                        // didInsert gave the record its rowid.
                        let inserted = adapter.state(record)
                        for column in table.primaryKeyIndexes {
                            #expect(inserted.values[column] == state.values[column], "key of record #\(index)")
                        }
                        #expect(inserted.rowID == state.rowID, "rowid of record #\(index)")
                        expected.append(state)
                    case .failure(let failure):
                        Issue.record("record #\(index) was inserted, the model expected a failure: \(failure)")
                    }
                } catch {
                    switch predicted {
                    case .success:
                        Issue.record("record #\(index) was not inserted: \(error)")
                    case .failure(let failure):
                        #expect(failure.matches(error), "record #\(index): expected \(failure), got \(error)")
                    }
                }
            }

            let selection = table.hasHiddenRowID ? "*, rowid" : "*"
            let sql = "SELECT \(selection) FROM \(table.name.quotedDatabaseIdentifier)"
            let storedRows = try Row.fetchAll(db, sql: sql).map { $0.databaseValues.map(Stored.init) }
            let modelRows = model.rows.map { $0.values + (table.hasHiddenRowID ? [.integer($0.rowID!)] : []) }
            expectSameElements(storedRows, modelRows, "stored values")

            try expectSameElements(Record.fetchAll(db).map(adapter.state), expected, "fetchAll")
            try expectSameElements(
                Row.fetchAll(db, sql: sql).map { try adapter.state(Record(row: $0)) }, expected,
                "records from copied rows")
            for state in expected {
                let found = try Record.find(
                    db, key: adapter.key(adapter.make(RecordCase.Input(values: state.values, rowID: state.rowID))))
                #expect(adapter.state(found) == state, "find")
            }
        }
    }
}

/// How a test builds a record of some type, and reads it.
struct RecordAdapter<Record: FetchableRecord & MutablePersistableRecord> {
    var make: (RecordCase.Input) -> Record
    var state: (Record) -> RecordState
    var key: (Record) -> [String: (any DatabaseValueConvertible)?]
}

extension RecordAdapter where Record: DynamicRecord {
    static var dynamic: Self {
        RecordAdapter(
            make: { Record(values: $0.values, rowID: $0.rowID) },
            state: { RecordState(values: $0.values, rowID: $0.rowID) },
            key: { $0.keyDictionary })
    }
}

extension InsertFailure {
    func matches(_ error: any Error) -> Bool {
        switch self {
        case .encoding: error is EncodingError
        case .notNull: (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL
        case .primaryKey: (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        // SQLITE_CONSTRAINT_ROWID
        case .rowID: (error as? DatabaseError)?.extendedResultCode == ResultCode(rawValue: 2579)
        }
    }
}

/// Checks that two arrays have the same elements, in any order.
func expectSameElements<T: Equatable>(
    _ actual: [T],
    _ expected: [T],
    _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation)
{
    var missing = expected
    var unexpected: [T] = []
    for element in actual {
        if let index = missing.firstIndex(of: element) {
            missing.remove(at: index)
        } else {
            unexpected.append(element)
        }
    }
    if !missing.isEmpty || !unexpected.isEmpty {
        Issue.record("""
            \(what): \(unexpected.count) unexpected, \(missing.count) missing
            unexpected: \(unexpected.map { String(describing: $0) }.joined(separator: "\n            "))
            missing (model): \(missing.map { String(describing: $0) }.joined(separator: "\n            "))
            """, sourceLocation: sourceLocation)
    }
}
