/// The workloads of records declared with `@DatabaseRecord` (the
/// GRDBLiteMacros product): the narrow and wide records of the hand-written
/// workloads, whose code the macro writes instead. Their floor is the same
/// raw C side; the hand-written workloads beside them are the target (the
/// macro's code must cost what hand-written code costs).
extension Workload {
    static let fetchMacroRecords = Workload.fetch(
        "fetch-macro-records", title: "Fetch records, @DatabaseRecord",
        allocationRule: .onlyTheResultArray,
        jobs: [.raw: RawSide.fetchRecords, .lite: LiteSide.fetchMacroRecords])

    static let fetchWideMacroRecords = Workload.fetchWide(
        "fetch-wide-macro-records", title: "Fetch wide text records, @DatabaseRecord",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [.raw: RawSide.fetchWideRecords, .lite: LiteSide.fetchWideMacroRecords])

    static let insertMacroRecords = Workload.insert(
        "insert-macro-records", title: "Insert records, @DatabaseRecord",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [.raw: RawSide.insertRecords, .lite: LiteSide.insertMacroRecords])
}
