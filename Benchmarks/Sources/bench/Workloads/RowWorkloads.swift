/// The workloads of rows and statements, after GRDB's own performance
/// suite (Tests/Performance/GRDBPerformance in GRDB 7.10): a table
/// `item(i0 … i9 INTEGER)` whose row number `n` holds `n` in every column.
extension Workload {
    static let fetchByIndex = Workload.fetch(
        "fetch-by-index", title: "Fetch, values by column index",
        allocationRule: .noAllocationPerRow,
        jobs: [
            .raw: RawSide.fetchByIndex, .lite: LiteSide.fetchByIndex, .grdb: GRDBSide.fetchByIndex,
            .vapor: VaporSide.fetchByIndex
        ])

    static let fetchByName = Workload.fetch(
        "fetch-by-name", title: "Fetch, values by column name",
        allocationRule: .noAllocationPerRow,
        jobs: [
            .raw: RawSide.fetchByName, .lite: LiteSide.fetchByName, .grdb: GRDBSide.fetchByName,
            .vapor: VaporSide.fetchByName
        ])

    static let insertByIndex = Workload.insert(
        "insert-by-index", title: "Insert, positional arguments",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [
            .raw: RawSide.insertByIndex, .lite: LiteSide.insertByIndex, .grdb: GRDBSide.insertByIndex,
            .vapor: VaporSide.insertByIndex
        ])

    /// No Vapor side: SQLiteNIO binds positional parameters only.
    static let insertByName = Workload.insert(
        "insert-by-name", title: "Insert, named arguments",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [.raw: RawSide.insertByName, .lite: LiteSide.insertByName, .grdb: GRDBSide.insertByName])
}
