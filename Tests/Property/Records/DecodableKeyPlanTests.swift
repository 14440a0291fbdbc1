import Foundation
@_spi(GRDBLite) import GRDBLite
import PropertyBased
import Testing

/// The key plan of `Decodable` records (`RowDecodingState`): the cached
/// keyed container of a cursor's row remembers the column of the n-th key
/// looked up in the previous record, and the next record checks its n-th
/// lookup against it.
///
/// Records whose `init(from:)` follows a script of key lookups written in
/// their row (`decode`, `decodeIfPresent`, `decodeNil`, `contains`, of
/// values that convert or not, NULL, missing keys, repeated keys, another
/// order on another row, errors caught or escaping `init(from:)`, a second
/// container, a nested record decoded from the same row) read exactly what
/// `KeyPlanModel` predicts from the generated rows: on every row of
/// `fetchCursor` (twice, on the same statement), `fetchAll`, `fetchOne`,
/// and records decoded twice from each row of a `Row` cursor. Columns are
/// in random order and case, some duplicated (the leftmost is read), with
/// or without a row adapter that slices the statement's columns.
@Suite struct DecodableKeyPlanTests {
    @Test func scriptedRecords() async {
        await checkProperty(count: 400, input: KeyPlanGenerators.keyPlanCase) { testCase in
            try checkKeyPlan(testCase)
        }
    }

    private func checkKeyPlan(_ testCase: KeyPlanCase) throws {
        let expected = KeyPlanModel.results(testCase)
        let expectedLog = expected.enumerated().map { KeyPlanModel.entry($0.offset, $0.element) }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            // One statement for all fetches: its column lookups
            // (`ColumnLookup`) outlive a cursor, its rows and their key
            // plans don't.
            let statement = try db.cachedStatement(sql: testCase.sql)
            let arguments = testCase.arguments
            let adapter = testCase.rowAdapter

            for pass in 1...2 {
                let cursor = try OuterRecord.fetchCursor(statement, arguments: arguments, adapter: adapter)
                var log: [String] = []
                // A record that throws leaves the cursor on its row: the
                // next call steps to the next row. Bounded, in case a
                // failing step throws forever.
                for index in 0...testCase.rows.count {
                    do {
                        guard let record = try cursor.next() else { break }
                        log.append(KeyPlanModel.entry(index, .record(record.outcomes)))
                    } catch {
                        log.append(KeyPlanModel.entry(index, .threw(PlanFormat.error(error))))
                    }
                }
                expectSameLog(log, expectedLog, "fetchCursor, pass \(pass)")
            }

            // fetchAll: the records, or the first error.
            let expectedAll: [String] =
                expected.lazy.compactMap { result -> String? in
                    if case .threw(let error) = result { return "threw \(error)" }
                    return nil
                }.first.map { [$0] } ?? expectedLog
            do {
                let records = try OuterRecord.fetchAll(statement, arguments: arguments, adapter: adapter)
                let log = records.enumerated().map { KeyPlanModel.entry($0.offset, .record($0.element.outcomes)) }
                expectSameLog(log, expectedAll, "fetchAll")
            } catch {
                expectSameLog(["threw \(PlanFormat.error(error))"], expectedAll, "fetchAll")
            }

            // fetchOne: a single record, which remembers no plan.
            do {
                let record = try OuterRecord.fetchOne(statement, arguments: arguments, adapter: adapter)
                expectSameLog(
                    [record.map { KeyPlanModel.entry(0, .record($0.outcomes)) } ?? "no record"],
                    [expectedLog[0]], "fetchOne")
            } catch {
                expectSameLog(
                    [KeyPlanModel.entry(0, .threw(PlanFormat.error(error)))], [expectedLog[0]], "fetchOne")
            }

            // Records decoded twice from each row of a row cursor: the
            // second one starts over the plan of the first.
            let rows = try Row.fetchCursor(statement, arguments: arguments, adapter: adapter)
            var log: [String] = []
            var index = 0
            while let row = try rows.next(), index <= testCase.rows.count {
                for _ in 1...2 {
                    do {
                        log.append(KeyPlanModel.entry(index, .record(try OuterRecord(row: row).outcomes)))
                    } catch {
                        log.append(KeyPlanModel.entry(index, .threw(PlanFormat.error(error))))
                    }
                }
                index += 1
            }
            expectSameLog(log, expectedLog.flatMap { [$0, $0] }, "row cursor, records decoded twice per row")
        }
    }
}

// MARK: - Scripts

/// The coding keys of the scripted records: one byte, as synthesized
/// `CodingKeys`, which the key plan matches by their byte. No column of
/// the records is named `x`; `fé` has a letter that SQLite doesn't fold.
private enum PlanKey: String, CodingKey, CaseIterable, Sendable {
    case a, b, c, d, e, f = "fé", x, script
}

private enum PlanVerb: String, CaseIterable, Sendable {
    case decode, decodeIfPresent, decodeNil, contains
    /// Asks the decoder for its keyed container again, and goes on with
    /// the new one.
    case reopen
}

/// The decoded types: the container's own methods (`Int`...`Bool`), and
/// generic ones (`Date`, which has a fast path of its own, JSON, an
/// optional, a nested record).
private enum PlanType: String, CaseIterable, Sendable {
    case int = "Int", int8 = "Int8", double = "Double", string = "String", bool = "Bool"
    case date = "Date", json = "[Int]", optionalInt = "Int?", inner = "Inner"

    /// Whether the container decodes it with the method of its type
    /// (which throws `columnNotFound` for a missing key).
    var hasOwnMethod: Bool {
        switch self {
        case .int, .int8, .double, .string, .bool: true
        case .date, .json, .optionalInt, .inner: false
        }
    }
}

/// One operation of a script: `decode Int a`, `decodeIfPresent Date fé!`
/// (`!`: an error escapes `init(from:)`), `decodeNil b`, `contains x`,
/// `reopen`.
private struct PlanOp: Sendable, Hashable, CustomStringConvertible {
    var verb: PlanVerb
    /// For `decode` and `decodeIfPresent`.
    var type: PlanType = .int
    /// For all verbs but `reopen`.
    var key: PlanKey = .a
    /// For `decode` and `decodeIfPresent`: a thrown error is not caught.
    var escapes = false

    init(verb: PlanVerb, type: PlanType = .int, key: PlanKey = .a, escapes: Bool = false) {
        self.verb = verb
        self.type = type
        self.key = key
        self.escapes = escapes
        normalize()
    }

    /// Clears the fields that the verb ignores.
    mutating func normalize() {
        switch verb {
        case .decode, .decodeIfPresent: break
        case .decodeNil, .contains: type = .int; escapes = false
        case .reopen: type = .int; key = .a; escapes = false
        }
    }

    var description: String {
        switch verb {
        case .decode, .decodeIfPresent: "\(verb) \(type.rawValue) \(key.stringValue)\(escapes ? "!" : "")"
        case .decodeNil, .contains: "\(verb) \(key.stringValue)"
        case .reopen: "reopen"
        }
    }

    init?(text: String) {
        let words = text.split(separator: " ").map(String.init)
        guard let first = words.first, let verb = PlanVerb(rawValue: first) else { return nil }
        switch (verb, words.count) {
        case (.decode, 3), (.decodeIfPresent, 3):
            let escapes = words[2].hasSuffix("!")
            guard let type = PlanType(rawValue: words[1]),
                  let key = PlanKey(rawValue: escapes ? String(words[2].dropLast()) : words[2])
            else { return nil }
            self.init(verb: verb, type: type, key: key, escapes: escapes)
        case (.decodeNil, 2), (.contains, 2):
            guard let key = PlanKey(rawValue: words[1]) else { return nil }
            self.init(verb: verb, key: key)
        case (.reopen, 1):
            self.init(verb: .reopen)
        default:
            return nil
        }
    }
}

/// The script of a row, in its `script` column: the operations of the
/// row's record, then those of the nested records it decodes (`decode
/// Inner k`, from the whole row when `k` is missing), which decode no
/// nested record.
private struct PlanScript: Sendable, Hashable {
    var outer: [PlanOp]
    var inner: [PlanOp]

    init(outer: [PlanOp], inner: [PlanOp]) {
        self.outer = outer
        self.inner = inner
    }

    var text: String {
        outer.map(\.description).joined(separator: "; ") + " | " + inner.map(\.description).joined(separator: "; ")
    }

    init?(text: String) {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 2, let outer = Self.ops(parts[0]), let inner = Self.ops(parts[1]) else { return nil }
        self.init(outer: outer, inner: inner)
    }

    private static func ops(_ text: Substring) -> [PlanOp]? {
        var ops: [PlanOp] = []
        for token in text.split(separator: ";") {
            let token = token.trimmingCharacters(in: .whitespaces)
            if token.isEmpty { continue }
            guard let op = PlanOp(text: token) else { return nil }
            ops.append(op)
        }
        return ops
    }
}

// MARK: - Records

/// A record that runs the outer script of its row.
private struct OuterRecord: Decodable, FetchableRecord {
    var outcomes: [String]

    init(from decoder: any Decoder) throws {
        outcomes = try PlanRunner.run(decoder, inner: false)
    }
}

/// A record decoded by `OuterRecord` (`decode Inner k`): runs the inner
/// script of the row.
private struct InnerRecord: Decodable, FetchableRecord {
    var outcomes: [String]

    init(from decoder: any Decoder) throws {
        outcomes = try PlanRunner.run(decoder, inner: true)
    }
}

private struct InvalidScript: Error {
    var text: String
}

private enum PlanRunner {
    /// Reads the script (the first lookup), then runs it: the outcome of
    /// each operation, or the error of an operation that escapes.
    static func run(_ decoder: any Decoder, inner: Bool) throws -> [String] {
        var container = try decoder.container(keyedBy: PlanKey.self)
        let text = try container.decode(String.self, forKey: .script)
        guard let script = PlanScript(text: text) else { throw InvalidScript(text: text) }
        var outcomes: [String] = []
        for op in inner ? script.inner : script.outer {
            if op.verb == .reopen {
                container = try decoder.container(keyedBy: PlanKey.self)
                outcomes.append("reopen")
                continue
            }
            do {
                outcomes.append(try perform(op, container))
            } catch {
                if op.escapes { throw error }
                outcomes.append(PlanFormat.error(error))
            }
        }
        return outcomes
    }

    private static func perform(_ op: PlanOp, _ container: KeyedDecodingContainer<PlanKey>) throws -> String {
        let key = op.key
        switch op.verb {
        case .contains:
            return PlanFormat.contains(container.contains(key))
        case .decodeNil:
            return PlanFormat.isNil(try container.decodeNil(forKey: key))
        case .reopen:
            return "reopen"
        case .decode:
            switch op.type {
            case .int: return PlanFormat.int(try container.decode(Int.self, forKey: key))
            case .int8: return PlanFormat.int8(try container.decode(Int8.self, forKey: key))
            case .double: return PlanFormat.double(try container.decode(Double.self, forKey: key))
            case .string: return PlanFormat.string(try container.decode(String.self, forKey: key))
            case .bool: return PlanFormat.bool(try container.decode(Bool.self, forKey: key))
            case .date: return PlanFormat.date(try container.decode(Date.self, forKey: key))
            case .json: return PlanFormat.json(try container.decode([Int].self, forKey: key))
            case .optionalInt: return PlanFormat.optionalInt(try container.decode(Int?.self, forKey: key))
            case .inner: return PlanFormat.inner(try container.decode(InnerRecord.self, forKey: key).outcomes)
            }
        case .decodeIfPresent:
            let none = PlanFormat.none
            switch op.type {
            case .int: return try container.decodeIfPresent(Int.self, forKey: key).map(PlanFormat.int) ?? none
            case .int8: return try container.decodeIfPresent(Int8.self, forKey: key).map(PlanFormat.int8) ?? none
            case .double:
                return try container.decodeIfPresent(Double.self, forKey: key).map(PlanFormat.double) ?? none
            case .string:
                return try container.decodeIfPresent(String.self, forKey: key).map(PlanFormat.string) ?? none
            case .bool: return try container.decodeIfPresent(Bool.self, forKey: key).map(PlanFormat.bool) ?? none
            case .date: return try container.decodeIfPresent(Date.self, forKey: key).map(PlanFormat.date) ?? none
            case .json: return try container.decodeIfPresent([Int].self, forKey: key).map(PlanFormat.json) ?? none
            case .optionalInt:
                return try container.decodeIfPresent(Int?.self, forKey: key).map(PlanFormat.optionalInt) ?? none
            case .inner:
                return try container.decodeIfPresent(InnerRecord.self, forKey: key)
                    .map { PlanFormat.inner($0.outcomes) } ?? none
            }
        }
    }
}

/// The outcomes of operations, as the records log them and the model
/// predicts them.
private enum PlanFormat {
    static let none = "nil"
    static func contains(_ value: Bool) -> String { "contains(\(value))" }
    static func isNil(_ value: Bool) -> String { "isNil(\(value))" }
    static func int(_ value: Int) -> String { "Int(\(value))" }
    static func int8(_ value: Int8) -> String { "Int8(\(value))" }
    static func double(_ value: Double) -> String { "Double(\(value))" }
    static func string(_ value: String) -> String { "String(\(String(reflecting: value)))" }
    static func bool(_ value: Bool) -> String { "Bool(\(value))" }
    static func date(_ value: Date) -> String { "Date(\(value.timeIntervalSinceReferenceDate))" }
    static func json(_ value: [Int]) -> String { "[Int](\(value))" }
    static func optionalInt(_ value: Int?) -> String { "Int?(\(value.map { "\($0)" } ?? "nil"))" }
    static func inner(_ outcomes: [String]) -> String { "Inner[\(outcomes.joined(separator: ", "))]" }

    static func valueMismatch(column: String, _ value: Stored) -> String { "valueMismatch(\(column), \(value))" }
    static func columnNotFound(_ key: PlanKey) -> String { "columnNotFound(\(key.stringValue))" }
    static func keyNotFound(_ key: PlanKey) -> String { "keyNotFound(\(key.stringValue))" }
    static let typeMismatch = "typeMismatch"

    /// The kind of an error, and what it names.
    static func error(_ error: any Error) -> String {
        if let error = error as? RowDecodingError {
            switch error.kind {
            case .valueMismatch:
                return "valueMismatch(\(error.key), \(error.databaseValue.map { "\(Stored($0))" } ?? "no value"))"
            case .columnNotFound:
                return "columnNotFound(\(error.key))"
            default:
                return "\(error.kind)(\(error.key))"
            }
        }
        if let error = error as? DecodingError {
            switch error {
            case .keyNotFound(let key, _): return "keyNotFound(\(key.stringValue))"
            case .typeMismatch: return typeMismatch
            case .valueNotFound: return "valueNotFound"
            case .dataCorrupted: return "dataCorrupted"
            @unknown default: return "\(error)"
            }
        }
        return "\(type(of: error)): \(error)"
    }
}

// MARK: - Cases

private enum AdapterKind: Sendable, Hashable {
    /// No adapter: the records see all columns.
    case none
    /// `SuffixRowAdapter`: columns on the left are hidden.
    case suffix
    /// `RangeRowAdapter`: columns on both sides are hidden.
    case range
}

/// A query of `rows.count` rows (`SELECT ? AS ... UNION ALL SELECT ...`),
/// whose records see the `visible` columns, and their scripts.
private struct KeyPlanCase: Sendable, CustomStringConvertible {
    /// The columns of the query, as spelled.
    var columns: [String]
    var visible: Range<Int>
    var adapter: AdapterKind
    /// The index of the `script` column, in `visible`.
    var scriptColumn: Int
    /// The values of each row, one per column; the value of the script
    /// column is the script.
    var rows: [[Stored]]
    var scripts: [PlanScript]

    /// The values of a row, with its script.
    func values(ofRow index: Int) -> [Stored] {
        var values = rows[index]
        values[scriptColumn] = .text(scripts[index].text)
        return values
    }

    var sql: String {
        let first = "SELECT " + columns.map { "? AS \($0.quotedDatabaseIdentifier)" }.joined(separator: ", ")
        let next = "SELECT " + columns.map { _ in "?" }.joined(separator: ", ")
        return ([first] + rows.dropFirst().map { _ in next }).joined(separator: " UNION ALL ")
    }

    var arguments: StatementArguments {
        StatementArguments(rows.indices.flatMap { values(ofRow: $0).map(\.databaseValueConvertible) })
    }

    var rowAdapter: (any RowAdapter)? {
        switch adapter {
        case .none: nil
        case .suffix: SuffixRowAdapter(fromIndex: visible.lowerBound)
        case .range: RangeRowAdapter(visible)
        }
    }

    /// The case without a column (not the script column).
    func removingColumn(_ index: Int) -> KeyPlanCase {
        var smaller = self
        smaller.columns.remove(at: index)
        for row in smaller.rows.indices { smaller.rows[row].remove(at: index) }
        if index < scriptColumn { smaller.scriptColumn -= 1 }
        let lower = visible.lowerBound - (index < visible.lowerBound ? 1 : 0)
        let upper = visible.upperBound - (index < visible.upperBound ? 1 : 0)
        smaller.visible = lower..<upper
        return smaller
    }

    /// The query with its values, for reports.
    var literalSQL: String {
        func literal(_ value: Stored) -> String {
            switch value {
            case .null: "NULL"
            case .integer(let v): "\(v)"
            case .real(let v): "\(v)"
            case .text(let v): "'" + v.replacingOccurrences(of: "'", with: "''") + "'"
            case .blob(let v): "X'" + v.map { String(format: "%02X", $0) }.joined() + "'"
            }
        }
        return rows.indices.map { row in
            let values = values(ofRow: row)
            return "SELECT "
                + values.indices.map { column in
                    literal(values[column]) + (row == 0 ? " AS \(columns[column].quotedDatabaseIdentifier)" : "")
                }.joined(separator: ", ")
        }.joined(separator: "\nUNION ALL ")
    }

    var description: String {
        let adapterText =
            switch adapter {
            case .none: "no adapter"
            case .suffix: "SuffixRowAdapter(fromIndex: \(visible.lowerBound))"
            case .range: "RangeRowAdapter(\(visible))"
            }
        return "\n\(literalSQL)\n-- \(adapterText)\n"
            + scripts.enumerated().map { "-- #\($0.offset): \($0.element.text)" }.joined(separator: "\n")
    }
}

private enum KeyPlanGenerators {
    static let valueKeys: [PlanKey] = [.a, .b, .c, .d, .e, .f]

    static var keyPlanCase: Generator<KeyPlanCase, [KeyPlanCase]> {
        generator(run: { r in makeCase(&r) }, shrink: shrink)
    }

    static func makeCase(_ r: inout Rand) -> KeyPlanCase {
        var names = valueKeys.filter { _ in r.chance(0.6) }.map { spelling(&r, $0.stringValue) }
        if r.chance(0.2) { names.append(r.pick(["z", "ab", "scripts", "xx"])) }
        names.shuffle(using: &r)
        // Another column of a key, spelled in its own way: the leftmost
        // one is read.
        if r.chance(0.3), let original = names.filter(isKeyColumn).randomElement(using: &r) {
            let duplicate = spelling(&r, KeyPlanModel.folded(original))
            names.insert(duplicate, at: r.int(0...names.count))
        }
        let scriptIndex = r.int(0...names.count)
        let scriptName = spelling(&r, "script")
        names.insert(scriptName, at: scriptIndex)

        // Hidden columns of every name (`script` too): an adapter that
        // didn't hide them would read them.
        func hidden(_ count: ClosedRange<Int>, _ r: inout Rand) -> [String] {
            (0..<r.int(count)).map { _ in
                let name = r.pick(PlanKey.allCases.map(\.stringValue) + ["z"])
                return spelling(&r, name)
            }
        }
        let adapter = r.weighted([(5, AdapterKind.none), (2, .suffix), (2, .range)])
        var prefix: [String] = []
        var suffix: [String] = []
        switch adapter {
        case .none: break
        case .suffix: prefix = hidden(1...3, &r)
        case .range: prefix = hidden(0...3, &r); suffix = hidden(1...3, &r)
        }
        let columns = prefix + names + suffix
        let scriptColumn = prefix.count + scriptIndex

        let rowCount = r.int(1...12)
        let rows = (0..<rowCount).map { _ in
            columns.indices.map { $0 == scriptColumn ? Stored.null : storedValue(&r) }
        }
        var scripts: [PlanScript] = []
        for _ in 0..<rowCount {
            // Most rows repeat or change a little the script of the
            // previous row: the key plan matches them.
            if let previous = scripts.last, r.chance(0.75) {
                scripts.append(r.chance(0.6) ? previous : mutated(previous, &r))
            } else {
                scripts.append(script(&r))
            }
        }
        return KeyPlanCase(
            columns: columns, visible: prefix.count..<(prefix.count + names.count), adapter: adapter,
            scriptColumn: scriptColumn, rows: rows, scripts: scripts)
    }

    /// Whether a column is named by a value key.
    static func isKeyColumn(_ name: String) -> Bool {
        valueKeys.contains { KeyPlanModel.sameName($0.stringValue, name) }
    }

    /// The name with random case for its ASCII letters.
    static func spelling(_ r: inout Rand, _ name: String) -> String {
        String(name.map { $0.isASCII && $0.isLetter && r.chance(0.5) ? Character($0.uppercased()) : $0 })
    }

    static func storedValue(_ r: inout Rand) -> Stored {
        r.weighted([
            (2, .null),
            (3, .integer(r.pick(KeyPlanModel.integers))),
            (2, .real(r.pick(KeyPlanModel.reals).value)),
            (3, .text(r.pick(KeyPlanModel.texts))),
        ])
    }

    static func script(_ r: inout Rand) -> PlanScript {
        // Some scripts have more lookups than the plan holds (twice the
        // columns, plus 8).
        let count = r.chance(0.15) ? r.int(10...30) : r.int(0...8)
        return PlanScript(
            outer: (0..<count).map { _ in op(&r, nested: true) },
            inner: (0..<r.int(0...5)).map { _ in op(&r, nested: false) })
    }

    static func op(_ r: inout Rand, nested: Bool) -> PlanOp {
        let verb = r.weighted([
            (8, PlanVerb.decode), (6, .decodeIfPresent), (2, .decodeNil), (2, .contains), (1, .reopen),
        ])
        let types = PlanType.allCases.filter { nested || $0 != .inner }
        let key = r.weighted([(6, r.pick(valueKeys)), (1, PlanKey.x), (1, .script)])
        return PlanOp(verb: verb, type: r.pick(types), key: key, escapes: r.chance(0.1))
    }

    static func mutated(_ script: PlanScript, _ r: inout Rand) -> PlanScript {
        var script = script
        var ops = script.outer
        switch r.int(0...4) {
        case 0 where !ops.isEmpty:
            ops.remove(at: r.int(0...(ops.count - 1)))
        case 1 where ops.count >= 2:
            ops.swapAt(r.int(0...(ops.count - 1)), r.int(0...(ops.count - 1)))
        case 2 where !ops.isEmpty:
            let index = r.int(0...(ops.count - 1))
            ops[index].key = r.pick(PlanKey.allCases)
            ops[index].normalize()
        case 3 where !ops.isEmpty:
            let index = r.int(0...(ops.count - 1))
            ops[index].escapes.toggle()
            ops[index].normalize()
        default:
            ops.insert(op(&r, nested: true), at: r.int(0...ops.count))
        }
        script.outer = ops
        return script
    }

    /// Fewer rows, no adapter, fewer columns, shorter scripts.
    static func shrink(_ testCase: KeyPlanCase) -> [KeyPlanCase] {
        var candidates: [KeyPlanCase] = []
        for index in testCase.rows.indices where testCase.rows.count > 1 {
            var smaller = testCase
            smaller.rows.remove(at: index)
            smaller.scripts.remove(at: index)
            candidates.append(smaller)
        }
        if testCase.adapter != .none {
            var smaller = testCase
            for index in testCase.columns.indices.reversed() where !testCase.visible.contains(index) {
                smaller = smaller.removingColumn(index)
            }
            smaller.adapter = .none
            candidates.append(smaller)
        }
        for index in testCase.columns.indices where index != testCase.scriptColumn {
            candidates.append(testCase.removingColumn(index))
        }
        for row in testCase.scripts.indices {
            for index in testCase.scripts[row].outer.indices {
                var smaller = testCase
                smaller.scripts[row].outer.remove(at: index)
                candidates.append(smaller)
            }
            for index in testCase.scripts[row].inner.indices {
                var smaller = testCase
                smaller.scripts[row].inner.remove(at: index)
                candidates.append(smaller)
            }
        }
        return candidates
    }
}

// MARK: - Model

/// What the records read, from the generated rows: GRDB's rules for
/// `Decodable` records, and for values of a statement's column (SQLite
/// converts text to numbers and numbers to text, as in GRDB).
private enum KeyPlanModel {
    /// The result of decoding a row.
    enum RowResult {
        case record([String])
        case threw(String)
    }

    enum Outcome {
        case value(String)
        case error(String)
    }

    static func entry(_ index: Int, _ result: RowResult) -> String {
        switch result {
        case .record(let outcomes): "#\(index): [\(outcomes.joined(separator: ", "))]"
        case .threw(let error): "#\(index): threw \(error)"
        }
    }

    static func results(_ testCase: KeyPlanCase) -> [RowResult] {
        testCase.rows.indices.map { index in
            let values = testCase.values(ofRow: index)
            let row = RowModel(
                names: Array(testCase.columns[testCase.visible]), values: Array(values[testCase.visible]),
                script: testCase.scripts[index])
            return row.run(inner: false)
        }
    }

    // MARK: Values

    static let integers: [Int64] = [0, 1, -1, 42, 127, 128, -128, -129, 255, 1_000_000, .max, .min]

    /// Reals, and their text in SQLite.
    static let reals: [(value: Double, text: String)] = [
        (1.5, "1.5"), (-2.25, "-2.25"), (2.0, "2.0"), (0.0, "0.0"), (-0.5, "-0.5"), (3.9, "3.9"), (-3.9, "-3.9"),
        (123_456.75, "123456.75"), (1e20, "1.0e+20"), (-1e300, "-1.0e+300"),
    ]

    /// Texts: numbers, text that starts with a number, JSON arrays, dates,
    /// non-ASCII.
    static let texts = [
        "", "abc", "42", "-7", "12abc", "3.9", "é日本", "[1,2]", "[]", "2024-01-02 03:04:05.678",
        "1999-12-31 23:59:59.999",
    ]

    /// The name with its ASCII letters in lowercase.
    static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map(fold), as: UTF8.self)
    }

    private static func fold(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Whether two column names are the same for SQLite: ASCII letters
    /// only are case-insensitive.
    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { fold($0) == fold($1) }
    }

    /// SQLite's real of a text: the leading decimal number (the texts
    /// have no exponent), after spaces.
    static func leadingReal(_ text: String) -> Double {
        let bytes = Array(text.utf8.drop { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains($0) })
        var end = 0
        if end < bytes.count, bytes[end] == 0x2D || bytes[end] == 0x2B { end += 1 }
        while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
        if end + 1 < bytes.count, bytes[end] == 0x2E, (0x30...0x39).contains(bytes[end + 1]) {
            end += 1
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
        }
        return Double(String(decoding: bytes[..<end], as: UTF8.self)) ?? 0
    }

    /// An integer column read: truncated reals in range, the leading
    /// integer of text; nil for NULL and reals out of range.
    static func int64(_ stored: Stored) -> Int64? {
        switch stored {
        case .null, .blob: nil
        case .integer(let v): v
        case .real(let v): v >= -0x1p63 && v < 0x1p63 ? Int64(v) : nil
        case .text(let v): RecordModel.leadingInteger(v.utf8)
        }
    }

    static func double(_ stored: Stored) -> Double? {
        switch stored {
        case .null, .blob: nil
        case .integer(let v): Double(v)
        case .real(let v): v
        case .text(let v): leadingReal(v)
        }
    }

    static func string(_ stored: Stored) -> String? {
        switch stored {
        case .null, .blob: nil
        case .integer(let v): "\(v)"
        case .real(let v): reals.first { $0.value.bitPattern == v.bitPattern }?.text
        case .text(let v): v
        }
    }

    static func bool(_ stored: Stored) -> Bool? {
        switch stored {
        case .null, .blob: nil
        case .integer(let v): v != 0
        case .real(let v): v != 0
        case .text(let v): RecordModel.leadingInteger(v.utf8) != 0
        }
    }

    /// Numbers are Unix timestamps; text in the storage format is a date.
    static func date(_ stored: Stored) -> Date? {
        switch stored {
        case .null, .blob: nil
        case .integer(let v): Date(timeIntervalSince1970: Double(v))
        case .real(let v): Date(timeIntervalSince1970: v)
        case .text(let v): RecordModel.date(fromText: v)
        }
    }

    /// JSON is read from text only.
    static func json(_ stored: Stored) -> [Int]? {
        guard case .text(let v) = stored else { return nil }
        return try? JSONDecoder().decode([Int].self, from: Data(v.utf8))
    }

    // MARK: Records

    /// The visible columns of a row, and its script.
    struct RowModel {
        var names: [String]
        var values: [Stored]
        var script: PlanScript

        /// The leftmost column of the key.
        func column(_ key: PlanKey) -> Int? {
            names.firstIndex { KeyPlanModel.sameName($0, key.stringValue) }
        }

        /// A record runs its script (after reading it from the script
        /// column): the outcomes, or the error that escapes.
        func run(inner: Bool) -> RowResult {
            // A container decodes one missing key from the whole row.
            var decodedRootKey = false
            var outcomes: [String] = []
            for op in inner ? script.inner : script.outer {
                if op.verb == .reopen {
                    decodedRootKey = false
                    outcomes.append("reopen")
                    continue
                }
                switch outcome(op, &decodedRootKey) {
                case .value(let text):
                    outcomes.append(text)
                case .error(let text):
                    if op.escapes { return .threw(text) }
                    outcomes.append(text)
                }
            }
            return .record(outcomes)
        }

        private func outcome(_ op: PlanOp, _ decodedRootKey: inout Bool) -> Outcome {
            guard let index = column(op.key) else { return missing(op, &decodedRootKey) }
            let stored = values[index]
            switch op.verb {
            case .contains: return .value(PlanFormat.contains(true))
            case .decodeNil: return .value(PlanFormat.isNil(stored == .null))
            case .reopen: fatalError("not a lookup")
            case .decode: return decoded(op.type, stored, column: names[index])
            case .decodeIfPresent:
                if stored == .null { return .value(PlanFormat.none) }
                return decoded(op.type, stored, column: names[index])
            }
        }

        private func decoded(_ type: PlanType, _ stored: Stored, column: String) -> Outcome {
            let mismatch = Outcome.error(PlanFormat.valueMismatch(column: column, stored))
            let text: String? =
                switch type {
                case .int: KeyPlanModel.int64(stored).map { PlanFormat.int(Int($0)) }
                case .int8: KeyPlanModel.int64(stored).flatMap { Int8(exactly: $0) }.map(PlanFormat.int8)
                case .double: KeyPlanModel.double(stored).map(PlanFormat.double)
                case .string: KeyPlanModel.string(stored).map(PlanFormat.string)
                case .bool: KeyPlanModel.bool(stored).map(PlanFormat.bool)
                case .date: KeyPlanModel.date(stored).map(PlanFormat.date)
                case .json: KeyPlanModel.json(stored).map(PlanFormat.json)
                case .optionalInt:
                    stored == .null
                        ? PlanFormat.optionalInt(nil)
                        : KeyPlanModel.int64(stored).map { PlanFormat.optionalInt(Int($0)) }
                // A nested record in a column is JSON text of an object:
                // none of the values.
                case .inner: nil
                }
            return text.map(Outcome.value) ?? mismatch
        }

        /// A key without column (no scope, no prefetched rows either).
        private func missing(_ op: PlanOp, _ decodedRootKey: inout Bool) -> Outcome {
            switch op.verb {
            case .contains: return .value(PlanFormat.contains(false))
            case .decodeNil: return .value(PlanFormat.isNil(true))
            case .decodeIfPresent: return .value(PlanFormat.none)
            case .reopen: fatalError("not a lookup")
            case .decode:
                if op.type.hasOwnMethod { return .error(PlanFormat.columnNotFound(op.key)) }
                // Other types are decoded from the whole row, once per
                // container.
                if decodedRootKey { return .error(PlanFormat.keyNotFound(op.key)) }
                decodedRootKey = true
                switch op.type {
                case .inner:
                    switch run(inner: true) {
                    case .record(let outcomes): return .value(PlanFormat.inner(outcomes))
                    case .threw(let error): return .error(error)
                    }
                // A single value of the key's column.
                case .date, .optionalInt: return .error(PlanFormat.columnNotFound(op.key))
                // A list.
                default: return .error(PlanFormat.typeMismatch)
                }
            }
        }
    }
}
