import Foundation
import GRDBLite
import PropertyBased
import Testing

/// Scripts of insert, update, updateChanges, delete and exists on random
/// tables, compared with `TableModel`:
/// - `databaseChanges(modify:)` is the model's column diff, with the old
///   values;
/// - `updateChanges` returns whether something differs, runs no statement
///   when nothing does, and updates exactly the changed columns;
/// - after update and updateChanges, the table holds the new values;
/// - delete returns whether a row was deleted, and exists is then false.
@Suite struct RecordLifecycleTests {
    @Test func rowRecords() async {
        await checkProperty(count: 400, input: RecordGenerators.lifecycleCase(path: .row)) { testCase in
            try TableSpec.$current.withValue(testCase.table) {
                try checkLifecycle(testCase, RowRecord.self)
            }
        }
    }

    @Test func codableRecords() async {
        await checkProperty(count: 400, input: RecordGenerators.lifecycleCase(path: .codable)) { testCase in
            try TableSpec.$current.withValue(testCase.table) {
                try checkLifecycle(testCase, CodableRecord.self)
            }
        }
    }

    private func checkLifecycle<Record: DynamicRecord>(_ testCase: LifecycleCase, _ type: Record.Type) throws {
        let table = testCase.table
        let dbQueue = try DatabaseQueue()
        let observer = UpdatedColumnsObserver()
        try dbQueue.write { db in
            try db.execute(sql: table.createSQL)
            db.add(transactionObserver: observer, extent: .databaseLifetime)
            var model = TableModel(table: table)
            // The records the test holds, as they are in memory.
            var records: [Record] = []

            for (index, step) in testCase.steps.enumerated() {
                let context = "step \(index): \(step)"
                switch step {
                case .insert(let input):
                    var record = Record(values: input.values, rowID: input.rowID)
                    let predicted = model.insert(input.values, rowID: input.rowID)
                    do {
                        try record.insert(db)
                        #expect(throws: Never.self, "\(context)") { try predicted.get() }
                        records.append(record)
                    } catch {
                        if case .failure(let failure) = predicted {
                            #expect(failure.matches(error), "\(context)")
                        } else {
                            Issue.record("insert failed: \(error) — \(context)")
                        }
                    }

                case let .update(index, changes, onlyChanges):
                    guard !records.isEmpty else { break }
                    let index = index % records.count
                    let old = records[index]
                    let new = modified(old, changes, table)
                    let expectedChanges = model.changes(from: old.state, to: new.state)

                    var copy = old
                    let changes = try copy.databaseChanges { $0 = new }.mapValues(Stored.init)
                    #expect(changes == expectedChanges, "databaseChanges — \(context)")

                    var record = old
                    let changesBefore = db.totalChangesCount
                    observer.updatedColumns = []
                    if onlyChanges {
                        let columns = Set(
                            table.columns.indices.filter { expectedChanges[table.columns[$0].name] != nil })
                        let predicted = columns.isEmpty ? nil : model.update(new.state, columns: columns)
                        do {
                            let didUpdate = try record.updateChanges(db) { $0 = new }
                            #expect(didUpdate == !columns.isEmpty, "updateChanges result — \(context)")
                            #expect(throws: Never.self, "\(context)") { try predicted?.get() }
                            // Only the changed columns, in one statement.
                            #expect(db.totalChangesCount - changesBefore == (didUpdate ? 1 : 0), "\(context)")
                            #expect(
                                observer.updatedColumns == (didUpdate ? [Set(expectedChanges.keys)] : []), "\(context)")
                        } catch {
                            expect(error, matches: predicted, context)
                        }
                    } else {
                        let predicted = model.update(new.state)
                        record = new
                        do {
                            try record.update(db)
                            #expect(throws: Never.self, "\(context)") { try predicted.get() }
                            #expect(db.totalChangesCount - changesBefore == 1, "\(context)")
                        } catch {
                            expect(error, matches: predicted, context)
                        }
                    }
                    // The record was modified in memory, saved or not.
                    records[index] = new

                case .delete(let index):
                    guard !records.isEmpty else { break }
                    let record = records[index % records.count]
                    let expected = model.delete(record.state)
                    #expect(try record.delete(db) == expected, "delete — \(context)")
                    #expect(try record.exists(db) == false, "exists after delete — \(context)")
                }

                for record in records {
                    #expect(try record.exists(db) == (model.rowIndex(of: record.state) != nil), "exists — \(context)")
                }
            }
            try expectSameElements(Record.fetchAll(db).map(\.state), model.records, "records at the end")
        }
    }

    /// The record with the changes applied.
    private func modified<Record: DynamicRecord>(
        _ record: Record, _ changes: [Int: LifecycleCase.Change], _ table: TableSpec
    ) -> Record {
        var record = record
        for (column, change) in changes {
            switch change {
            case .value(let value):
                record.values[column] = value
            case .keep:
                break
            case .otherNormalization:
                guard case .string(let string) = record.values[column] else { break }
                let decomposed = string.decomposedStringWithCanonicalMapping
                record.values[column] = .string(decomposed.utf8.elementsEqual(string.utf8)
                    ? string.precomposedStringWithCanonicalMapping : decomposed)
            }
        }
        return record
    }

    private func expect(
        _ error: any Error,
        matches predicted: Result<RecordState, UpdateFailure>?,
        _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation)
    {
        guard case .failure(let failure) = predicted else {
            Issue.record("update failed: \(error) — \(context)", sourceLocation: sourceLocation)
            return
        }
        let matches = switch failure {
        case .encoding: error is EncodingError
        case .notNull: (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL
        case .notFound: error is RecordError
        }
        #expect(matches, "expected \(failure), got \(error) — \(context)", sourceLocation: sourceLocation)
    }
}

extension DynamicRecord {
    var state: RecordState { RecordState(values: values, rowID: rowID) }
}

/// Records the columns of each UPDATE statement, as they are announced to
/// transaction observers.
private final class UpdatedColumnsObserver: TransactionObserver {
    var updatedColumns: [Set<String>] = []

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .update(_, let columns) = eventKind { updatedColumns.append(columns) }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) { }
    func databaseDidCommit(_ db: Database) { }
    func databaseDidRollback(_ db: Database) { }
}
