import Foundation
import GRDBLite
import Testing

// `encode(to:)` may keep its encoder or its keyed container beyond its
// return. Using them afterwards traps with a message, in every build: they
// wrote into the persistence container of that call only, which is gone,
// and must never write into the container of another record. Keeping them
// without using them changes nothing.

/// Keeps its encoder and keyed container in globals (exit tests run in a
/// child process: the globals are never shared).
private struct KeepingItem: Encodable, PersistableRecord {
    static let databaseTableName = "item"
    nonisolated(unsafe) static var keptContainer: KeyedEncodingContainer<CodingKeys>?
    nonisolated(unsafe) static var keptEncoder: (any Encoder)?
    nonisolated(unsafe) static var keptSuperEncoder: (any Encoder)?
    var id: Int64
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        Self.keptContainer = container
        Self.keptEncoder = encoder
        Self.keptSuperEncoder = container.superEncoder()
    }
}

/// Writes through the keyed container kept from the previous record.
private struct ReusingItem: Encodable, PersistableRecord {
    static let databaseTableName = "item"
    nonisolated(unsafe) static var keptContainer: KeyedEncodingContainer<CodingKeys>?
    var id: Int64
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    func encode(to encoder: any Encoder) throws {
        if var kept = Self.keptContainer {
            try kept.encode("written into another record", forKey: .name)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        Self.keptContainer = container
    }
}

/// Asks the encoder kept from the previous record for a container.
private struct ReusingEncoderItem: Encodable, PersistableRecord {
    static let databaseTableName = "item"
    nonisolated(unsafe) static var keptEncoder: (any Encoder)?
    var id: Int64
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    func encode(to encoder: any Encoder) throws {
        if let kept = Self.keptEncoder {
            var container = kept.container(keyedBy: CodingKeys.self)
            try container.encode("written into another record", forKey: .name)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        Self.keptEncoder = encoder
    }
}

/// Keeps the container that its updates are told (a container without
/// an encoder cache), to replace the container of another record with it.
private struct UpdatedItem: Encodable, PersistableRecord {
    static let databaseTableName = "item"
    nonisolated(unsafe) static var updatedContainer: PersistenceContainer?
    var id: Int64
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    func didUpdate(_ updated: PersistenceSuccess) {
        Self.updatedContainer = updated.persistenceContainer
    }
}

/// A nested record that replaces the persistence container it encodes
/// into.
private struct Replacing: Encodable, EncodableRecord {
    let replacement: PersistenceContainer
    func encode(to encoder: any Encoder) throws { }
    func encode(to container: inout PersistenceContainer) throws { container = replacement }
}

/// Encodes a `Replacing` record as its single value, then writes a value
/// of its own with its keyed container.
private struct ReplacedItem: Encodable, PersistableRecord {
    static let databaseTableName = "item"
    let replacement: PersistenceContainer
    enum CodingKeys: String, CodingKey { case name }

    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(Replacing(replacement: replacement))
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("replaced", forKey: .name)
    }
}

private func makeItemDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { try $0.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
    return dbQueue
}

@Suite struct EncodableRecordLifetimeTests {
    private static func stderr(_ result: ExitTest.Result?) -> String {
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }

    @Test func keptContainerTrapsAfterEncode() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeItemDatabase()
            try dbQueue.write { try KeepingItem(id: 1, name: "a").insert($0) }
            var kept = try #require(KeepingItem.keptContainer)
            try kept.encode("b", forKey: .name)
        }
        #expect(
            Self.stderr(result).contains(
                "A KeyedEncodingContainer of a record was used after its `encode(to:)` returned"))
    }

    @Test func keptContainerOfAOneOffEncodingTrapsAfterEncode() async {
        // `update` encodes into a container of its own, whose encoder
        // cache is released when the update ends.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeItemDatabase()
            try dbQueue.write { db in
                try KeepingItem(id: 1, name: "a").insert(db)
                KeepingItem.keptContainer = nil
                try KeepingItem(id: 1, name: "b").update(db)
            }
            var kept = try #require(KeepingItem.keptContainer)
            try kept.encode("c", forKey: .name)
        }
        #expect(
            Self.stderr(result).contains(
                "A KeyedEncodingContainer of a record was used after its `encode(to:)` returned"))
    }

    @Test func keptContainerTrapsDuringTheEncodingOfAnotherRecord() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeItemDatabase()
            try dbQueue.write { db in
                try ReusingItem(id: 1, name: "a").insert(db)
                try ReusingItem(id: 2, name: "b").insert(db)
            }
        }
        #expect(
            Self.stderr(result).contains(
                "A KeyedEncodingContainer of a record was used after its `encode(to:)` returned"))
    }

    @Test func keptEncoderTrapsAfterEncode() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeItemDatabase()
            try dbQueue.write { try KeepingItem(id: 1, name: "a").insert($0) }
            let kept = try #require(KeepingItem.keptEncoder)
            _ = kept.container(keyedBy: KeepingItem.CodingKeys.self)
        }
        #expect(Self.stderr(result).contains("The Encoder of a record was used after its `encode(to:)` returned"))
    }

    /// The encoder reads its record type from a cache that another call
    /// may use: it traps too.
    @Test func keptEncoderUserInfoTrapsAfterEncode() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeItemDatabase()
            try dbQueue.write { try KeepingItem(id: 1, name: "a").insert($0) }
            let kept = try #require(KeepingItem.keptEncoder)
            _ = kept.userInfo
        }
        #expect(Self.stderr(result).contains("The Encoder of a record was used after its `encode(to:)` returned"))
    }

    @Test func keptSuperEncoderTrapsAfterEncode() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeItemDatabase()
            try dbQueue.write { try KeepingItem(id: 1, name: "a").insert($0) }
            let kept = try #require(KeepingItem.keptSuperEncoder)
            _ = kept.container(keyedBy: KeepingItem.CodingKeys.self)
        }
        #expect(Self.stderr(result).contains("The Encoder of a record was used after its `encode(to:)` returned"))
    }

    @Test func keptEncoderTrapsDuringTheEncodingOfAnotherRecord() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeItemDatabase()
            try dbQueue.write { db in
                try ReusingEncoderItem(id: 1, name: "a").insert(db)
                try ReusingEncoderItem(id: 2, name: "b").insert(db)
            }
        }
        #expect(Self.stderr(result).contains("The Encoder of a record was used after its `encode(to:)` returned"))
    }

    @Test func keepingContainersChangesNothing() throws {
        let dbQueue = try makeItemDatabase()
        try dbQueue.write { db in
            for id in 1...20 {
                try KeepingItem(id: Int64(id), name: "item \(id)").insert(db)
                if id == 10 { try KeepingItem(id: 10, name: "updated").update(db) }
            }
        }
        KeepingItem.keptContainer = nil
        KeepingItem.keptEncoder = nil
        KeepingItem.keptSuperEncoder = nil
        let names = try dbQueue.read { try String.fetchAll($0, sql: "SELECT name FROM item ORDER BY id") }
        #expect(names == (1...20).map { $0 == 10 ? "updated" : "item \($0)" })
    }

    @Test func containersOfAnInsertionSuccessEncodeOnSeveralThreads() async throws {
        // The container that `didInsert` receives shares the encoder cache
        // of the connection with its copies: a persistence container is
        // Sendable, and encoding into copies on several threads at once
        // must give each its own values.
        struct Item: Codable, MutablePersistableRecord {
            static let databaseTableName = "wide"
            nonisolated(unsafe) static var inserted: InsertionSuccess?
            var id: Int64
            var c0, c1, c2, c3, c4, c5, c6, c7, c8, c9: String
            init(id: Int64, name: String) {
                self.id = id
                (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9) = (name, name, name, name, name, name, name, name, name, name)
            }
            mutating func didInsert(_ inserted: InsertionSuccess) { Self.inserted = inserted }
        }
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE wide (id INTEGER PRIMARY KEY, c0, c1, c2, c3, c4, c5, c6, c7, c8, c9)")
            var item = Item(id: 1, name: "a")
            try item.insert(db)
        }
        let container = try #require(Item.inserted).persistenceContainer
        try await withThrowingTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    for index in 0..<5000 {
                        var copy = container
                        let name = "\(thread)-\(index)"
                        try Item(id: Int64(index), name: name).encode(to: &copy)
                        let id: Int64? = copy["id"]
                        let values = ["c0", "c5", "c9"].map { copy[$0] as String? }
                        if id != Int64(index) || values != [name, name, name] {
                            Issue.record("thread \(thread), record \(index): \(String(describing: id)), \(values)")
                            return
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The encoder's cache stays alive when a nested record replaces the
    /// container that held it (run it under Address Sanitizer).
    @Test func aNestedRecordMayReplaceTheContainer() throws {
        try makeItemDatabase().write { (db: Database) throws in
            try UpdatedItem(id: 1, name: "Arthur").insert(db)
            try UpdatedItem(id: 1, name: "Barbara").update(db)
            let replacement = try #require(UpdatedItem.updatedContainer)
            try UpdatedItem(id: 2, name: "Craig").insert(db)
            try ReplacedItem(replacement: replacement).insert(db, onConflict: .replace)
            try UpdatedItem(id: 3, name: "David").insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM item ORDER BY id") == ["replaced", "Craig", "David"])
        }
    }
}
