/// The record workloads: structs fetched and inserted by each library's
/// record API (GRDB's performance tests FetchRecordStructTests,
/// FetchRecordDecodableTests, InsertRecordStructTests,
/// InsertRecordEncodableTests; SQLKit's `SQLRow` and insert builder). The
/// raw side builds and binds the same struct by hand: the floor of both
/// kinds of record.
extension Workload {
    static let fetchRecords = Workload.fetch(
        "fetch-records", title: "Fetch records, init(row:)",
        allocationRule: .onlyTheResultArray,
        jobs: [
            .raw: RawSide.fetchRecords, .lite: LiteSide.fetchRowRecords, .grdb: GRDBSide.fetchRowRecords,
            .vapor: VaporSide.fetchRowRecords
        ])

    static let fetchDecodable = Workload.fetch(
        "fetch-decodable", title: "Fetch Decodable records",
        allocationRule: .atMostOnePerRecord,
        jobs: [
            .raw: RawSide.fetchRecords, .lite: LiteSide.fetchDecodableRecords, .grdb: GRDBSide.fetchDecodableRecords,
            .vapor: VaporSide.fetchDecodableRecords
        ])

    static let insertRecords = Workload.insert(
        "insert-records", title: "Insert records, encode(to:)",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [
            .raw: RawSide.insertRecords, .lite: LiteSide.insertRecords, .grdb: GRDBSide.insertRecords,
            .vapor: VaporSide.insertRecords
        ])

    static let insertEncodable = Workload.insert(
        "insert-encodable", title: "Insert Encodable records",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [
            .raw: RawSide.insertRecords, .lite: LiteSide.insertEncodableRecords, .grdb: GRDBSide.insertEncodableRecords,
            .vapor: VaporSide.insertEncodableRecords
        ])
}
