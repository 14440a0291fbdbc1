import Foundation
import PropertyBased

/// A random table, and a script of persistence methods on its records.
struct LifecycleCase: Sendable, CustomStringConvertible {
    /// A new value for a column.
    enum Change: Sendable, CustomStringConvertible {
        case value(ColumnValue)
        /// The current value: no change.
        case keep
        /// The current string in another Unicode normalization form
        /// ("é" and "e\u{301}"): equal strings for Swift, different bytes
        /// for SQLite.
        case otherNormalization

        var description: String {
            switch self {
            case .value(let value): value.description
            case .keep: "(same)"
            case .otherNormalization: "(other normalization)"
            }
        }
    }

    enum Step: Sendable, CustomStringConvertible {
        case insert(RecordCase.Input)
        /// Modifies a record the test holds (index modulo their count),
        /// then `update(db)`, or `updateChanges(db) { ... }`.
        case update(record: Int, changes: [Int: Change], onlyChanges: Bool)
        /// `delete(db)` a record the test holds.
        case delete(record: Int)

        var description: String {
            switch self {
            case .insert(let input):
                "insert [" + input.values.map(\.description).joined(separator: ", ") + "]"
                    + (input.rowID.map { " rowid \($0)" } ?? "")
            case let .update(record, changes, onlyChanges):
                "\(onlyChanges ? "updateChanges" : "update") #\(record): "
                    + changes.sorted { $0.key < $1.key }.map { "c\($0.key) = \($0.value)" }.joined(separator: ", ")
            case .delete(let record):
                "delete #\(record)"
            }
        }
    }

    var table: TableSpec
    var steps: [Step]

    var description: String {
        "\(table)\n" + steps.enumerated().map { "  \($0.offset): \($0.element)" }.joined(separator: "\n")
    }
}

extension RecordGenerators {
    static func lifecycleCase(path: RecordPath) -> Generator<LifecycleCase, [LifecycleCase]> {
        generator(
            run: { r in
                let table = table(&r)
                let steps = (0..<r.int(1...14)).map { _ in lifecycleStep(&r, table, path: path) }
                return LifecycleCase(table: table, steps: steps)
            },
            shrink: shrinkLifecycle)
    }

    static func lifecycleStep(_ r: inout Rand, _ table: TableSpec, path: RecordPath) -> LifecycleCase.Step {
        switch r.int(0...9) {
        case 0...3:
            // NaN is left out: `databaseChanges` compares encoded values,
            // and NaN has no equal (the round-trip suite covers NaN).
            return .insert(record(&r, table, path: .row, allowsNaN: false))
        case 4...8:
            let columns = table.columns.indices.filter { !table.primaryKeyIndexes.contains($0) }
            var changes: [Int: LifecycleCase.Change] = [:]
            for column in columns where r.chance(0.5) {
                changes[column] = r.weighted([
                    (5, .value(value(&r, table.columns[column], path: .row, allowsNaN: false))),
                    (2, .keep),
                    (table.columns[column].kind == .string ? 2 : 0, .otherNormalization),
                ])
            }
            return .update(record: r.int(0...20), changes: changes, onlyChanges: r.chance(0.7))
        default:
            return .delete(record: r.int(0...20))
        }
    }

    static func shrinkLifecycle(_ testCase: LifecycleCase) -> [LifecycleCase] {
        var candidates: [LifecycleCase] = []
        for index in testCase.steps.indices {
            var smaller = testCase
            smaller.steps.remove(at: index)
            candidates.append(smaller)
        }
        for column in testCase.table.columns.indices {
            guard let table = removing(column: column, from: testCase.table) else { continue }
            let steps = testCase.steps.map { step -> LifecycleCase.Step in
                switch step {
                case .insert(var input):
                    input.values.remove(at: column)
                    return .insert(input)
                case let .update(record, changes, onlyChanges):
                    let changes = Dictionary(uniqueKeysWithValues: changes.compactMap { key, change in
                        key == column ? nil : (key > column ? key - 1 : key, change)
                    })
                    return .update(record: record, changes: changes, onlyChanges: onlyChanges)
                case .delete:
                    return step
                }
            }
            candidates.append(LifecycleCase(table: table, steps: steps))
        }
        // Simpler names, keys and WITHOUT ROWID, with the record shrinker.
        for simpler in shrink(RecordCase(table: testCase.table, records: []))
        where simpler.table.columns.count == testCase.table.columns.count {
            candidates.append(LifecycleCase(table: simpler.table, steps: testCase.steps))
        }
        for (index, step) in testCase.steps.enumerated() {
            switch step {
            case let .update(record, changes, onlyChanges):
                for column in changes.keys {
                    var smaller = testCase
                    var fewer = changes
                    fewer[column] = nil
                    smaller.steps[index] = .update(record: record, changes: fewer, onlyChanges: onlyChanges)
                    candidates.append(smaller)
                }
                if record > 0 {
                    var smaller = testCase
                    smaller.steps[index] = .update(record: 0, changes: changes, onlyChanges: onlyChanges)
                    candidates.append(smaller)
                }
            case .delete(let record) where record > 0:
                var smaller = testCase
                smaller.steps[index] = .delete(record: 0)
                candidates.append(smaller)
            case .insert(let input):
                // Simpler values, with the record shrinker.
                let single = RecordCase(table: testCase.table, records: [input])
                for simpler in shrink(single) where simpler.table == testCase.table && simpler.records.count == 1 {
                    var smaller = testCase
                    smaller.steps[index] = .insert(simpler.records[0])
                    candidates.append(smaller)
                }
            default:
                break
            }
        }
        return candidates
    }
}
