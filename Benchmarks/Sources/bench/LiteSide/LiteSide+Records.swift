import GRDBLite

// GRDBLite's record workloads: the same source as GRDBSide+Records.swift,
// compiled against GRDBLite instead of GRDB (the record types of GRDB's
// performance tests: FetchRecordStructTests, FetchRecordDecodableTests,
// InsertRecordStructTests, InsertRecordEncodableTests).

extension LiteSide {
    static func fetchRowRecords(_ fixture: Fixture) throws -> SideJob {
        try fetchAll(RowItem.self, fixture)
    }

    static func fetchDecodableRecords(_ fixture: Fixture) throws -> SideJob {
        try fetchAll(DecodableItem.self, fixture)
    }

    static func fetchAll<Item: FetchableRecord & TableRecord & BenchItem>(
        _ type: Item.Type, _ fixture: Fixture) throws -> SideJob
    {
        let dbQueue = try DatabaseQueue(path: fixture.fetchPath)
        var items: [Item] = []
        return SideJob(
            run: {
                items = try dbQueue.inDatabase { db in
                    try Item.fetchAll(db)
                }
            },
            fetched: {
                defer { items = [] }
                return Digest(items: items)
            })
    }

    static func insertRecords(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.insertPath)
        let count = fixture.insertRowCount
        return SideJob(run: {
            try dbQueue.inTransaction { db in
                for i in 0..<count {
                    try RecordItem(i0: i, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i).insert(db)
                }
                return .commit
            }
        })
    }

    static func insertEncodableRecords(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.insertPath)
        let count = fixture.insertRowCount
        return SideJob(run: {
            try dbQueue.inTransaction { db in
                for i in 0..<count {
                    try EncodableItem(i0: i, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i).insert(db)
                }
                return .commit
            }
        })
    }
}

/// A `FetchableRecord` built with `init(row:)`.
private struct RowItem: FetchableRecord, TableRecord, BenchItem {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(row: Row) {
        i0 = row["i0"]
        i1 = row["i1"]
        i2 = row["i2"]
        i3 = row["i3"]
        i4 = row["i4"]
        i5 = row["i5"]
        i6 = row["i6"]
        i7 = row["i7"]
        i8 = row["i8"]
        i9 = row["i9"]
    }
}

/// A `Decodable` record.
private struct DecodableItem: Decodable, FetchableRecord, TableRecord, BenchItem {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// A record that encodes itself in a persistence container.
private struct RecordItem: PersistableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    func encode(to container: inout PersistenceContainer) {
        container["i0"] = i0
        container["i1"] = i1
        container["i2"] = i2
        container["i3"] = i3
        container["i4"] = i4
        container["i5"] = i5
        container["i6"] = i6
        container["i7"] = i7
        container["i8"] = i8
        container["i9"] = i9
    }
}

/// An `Encodable` record.
private struct EncodableItem: Encodable, PersistableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}
