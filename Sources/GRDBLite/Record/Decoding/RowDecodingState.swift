import CSQLite
import Foundation

/// What a keyed container of a row reads beyond the row's values.
@usableFromInline
final class RowDecodingState {
    /// The row of the containers, without retaining it: the row owns the
    /// cached containers. Nil once the row is gone.
    /// Unchecked exclusivity: read for every decoded value, by the one
    /// thread that uses the row.
    @usableFromInline @exclusivity(unchecked) var unmanagedRow: Unmanaged<Row>?
    let codingPath: [any CodingKey]
    /// Column names by key name, for column decoding strategies other
    /// than `.useDefaultKeys`.
    let columnForKey: [String: String]
    /// The key decoded from the whole row, if any (it can happen once per
    /// record).
    /// Unchecked exclusivity: reset for every record on the hot path, by
    /// the one thread that uses the row.
    @usableFromInline @exclusivity(unchecked) var decodedRootKey: String?

    // The key plan: the statement column of the n-th key looked up in a
    // record, remembered from the previous record, so that the next
    // record, which decodes the same keys in the same order, finds each
    // column with one compare of the key's byte. Only for one-byte keys
    // (the synthesized `CodingKeys`) named as their column, in a row of a
    // statement. A key that differs takes the slow path, which looks the
    // column up by name and remembers it at this position. The first
    // record remembers nothing: a single record (`fetchOne`) allocates no
    // plan.

    /// The row's statement, if the plan is used.
    @usableFromInline let sqliteStatement: SQLiteStatement?
    /// The statement's column names, if the plan is used.
    let statementColumnNames: [String]
    /// The row's first column in its statement.
    let offset: Int
    /// The position of the next key lookup in the current record.
    /// Unchecked exclusivity: only the thread that decodes the row uses it.
    @usableFromInline @exclusivity(unchecked) var planPosition = 0
    /// The number of planned lookups; 0 once the row is gone, so that the
    /// fast path never reads a statement that may be finalized.
    /// Unchecked exclusivity: only the thread that decodes the row uses it.
    @usableFromInline @exclusivity(unchecked) var planCount = 0
    let planCapacity: Int
    /// Whether `startRecord()` was never called: the first record is
    /// being decoded.
    /// Unchecked exclusivity: only the thread that decodes the row uses it.
    @usableFromInline @exclusivity(unchecked) var isFirstRecord = true
    // Owned: allocated by the second record, freed in deinit.
    // Unchecked exclusivity: only the thread that decodes the row uses it.
    @usableFromInline @exclusivity(unchecked) var plan: UnsafeMutablePointer<PlannedColumn>?

    /// A remembered lookup: the key's byte, and its column in the
    /// statement (-1 if missing). Whether the column's dates are read with
    /// `.deferredToDate` is remembered when a date is first read there:
    /// the record's `databaseDateDecodingStrategy(for:)` is asked once per
    /// column and cursor, not for every row.
    @usableFromInline
    struct PlannedColumn {
        @usableFromInline var key: UInt8
        @usableFromInline var readsDefaultDates = false
        @usableFromInline var column: CInt
    }

    /// Traps when a key matched by its byte is not named as the column
    /// that the plan remembered for that byte: a key's `stringValue` must
    /// depend on its stored bytes only (see `ColumnLookup.bits(of:)`).
    /// Debug builds check each planned match.
    @usableFromInline
    func checkPlannedKey(_ name: String, column: CInt) {
        let columnName = statementColumnNames[Int(column)]
        precondition(
            CaseInsensitiveIdentifier(columnName).matches(name),
            "the key plan matched a coding key by its byte to the column \"\(columnName)\", but its stringValue "
                + "is \"\(name)\": a key's stringValue must depend on its stored bytes only")
    }

    init(row: Row, codingPath: [any CodingKey], columnForKey: [String: String], usesPlan: Bool) {
        // Unretained: the caller keeps the row alive (see `unmanagedRow`).
        self.unmanagedRow = Unmanaged.passUnretained(row)
        self.codingPath = codingPath
        self.columnForKey = columnForKey
        self.sqliteStatement = usesPlan ? row.sqliteStatement : nil
        self.statementColumnNames = sqliteStatement == nil ? [] : row.statement?.columnNames ?? []
        self.offset = row.offset
        // Records may look up more keys than columns (`decodeNil` before
        // `decode`, keys of scopes and missing columns): lookups beyond the
        // capacity are never planned, only slower.
        self.planCapacity = sqliteStatement == nil ? 0 : 2 * row.count + 8
    }

    deinit {
        plan?.deallocate()
    }

    /// Forgets what the previous record of a cached container decoded.
    @inlinable
    func startRecord() {
        planPosition = 0
        isFirstRecord = false
        if _slowPath(decodedRootKey != nil) { decodedRootKey = nil }
    }

    func forgetRow() {
        unmanagedRow = nil
        planCount = 0
    }

    /// The error of a planned column whose value can't convert: the
    /// error that decoding it from the row throws.
    @usableFromInline
    @inline(never)
    func valueMismatch<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, column: CInt
    ) throws -> T {
        guard let unmanagedRow else { Self.rowIsGone() }
        // Unretained: the row is alive while `unmanagedRow` is not nil.
        return try unmanagedRow._withUnsafeGuaranteedRef { row in
            try row.fastDecode(T.self, atUncheckedIndex: Int(column) &- offset)
        }
    }

    /// Whether the column of the last planned lookup reads its dates with
    /// `.deferredToDate` (see `PlannedColumn`).
    @inlinable
    var lastPlannedColumnReadsDefaultDates: Bool {
        // Unsafe: called after a planned lookup, below `planCount`.
        plan.unsafelyUnwrapped[planPosition &- 1].readsDefaultDates
    }

    /// Remembers that the column of a planned lookup reads its dates with
    /// `.deferredToDate`.
    func rememberDefaultDates(at position: Int) {
        guard let plan, position >= 0, position < planCount else { return }
        plan[position].readsDefaultDates = true
    }

    /// Remembers the lookup of the key at the current position, after a
    /// miss of the fast path.
    @usableFromInline
    func remember(key: UInt8, index: Int?) {
        guard sqliteStatement != nil, !isFirstRecord else { return }
        let plan = self.plan ?? {
            let plan = UnsafeMutablePointer<PlannedColumn>.allocate(capacity: planCapacity)
            self.plan = plan
            return plan
        }()
        let position = planPosition
        let entry = PlannedColumn(key: key, column: index.map { CInt(truncatingIfNeeded: offset &+ $0) } ?? -1)
        if position < planCount {
            plan[position] = entry
        } else if position == planCount && position < planCapacity {
            (plan + position).initialize(to: entry)
            planCount += 1
        }
        planPosition = position &+ 1
    }

    /// The state of a kept container whose row is gone, with the box of
    /// the container.
    ///
    /// `@unchecked Sendable`: once registered, the state is never written
    /// again (its row is already nil), and the box is only used for its
    /// reference count, which is atomic.
    private struct KeptState: @unchecked Sendable {
        var box: AnyObject
        let state: RowDecodingState
    }

    /// A state lives until the user releases the container, whose box is
    /// then only referenced here.
    private static let keptStates = Locked<[KeptState]>([])

    static func keep(_ state: RowDecodingState, whileBoxLives box: AnyObject) {
        let kept = KeptState(box: box, state: state)
        keptStates.withLock { keptStates in
            var index = keptStates.startIndex
            while index < keptStates.endIndex {
                if isKnownUniquelyReferenced(&keptStates[index].box) {
                    keptStates.remove(at: index)
                } else {
                    index += 1
                }
            }
            keptStates.append(kept)
        }
    }

    @usableFromInline
    static func rowIsGone() -> Never {
        fatalError("""
            A KeyedDecodingContainer of a record was used after its row was released: \
            a container given to `init(from:)` is valid while the row it decodes lives. \
            Decode values inside `init(from:)` instead of keeping the container.
            """)
    }
}
