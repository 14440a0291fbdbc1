import GRDBLite

// GRDBLite's record workloads: fetch `FetchableRecord` structs built with
// `init(row:)`, fetch `Decodable` records, insert records that
// `encode(to:)`, insert `Encodable` records.
//
// GRDBLite's Record layer (FetchableRecord, Decodable records,
// EncodableRecord, PersistableRecord) is not written yet: this side doesn't
// run them, and the report shows them as n/a. When it lands, this file
// declares the record types, written as GRDB's performance tests write them
// (see GRDBSide+Records.swift for GRDB's side), and returns their jobs.

extension LiteSide {
    static func recordJob(for workload: Workload, fixture: Fixture) throws -> SideJob? {
        nil
    }
}
