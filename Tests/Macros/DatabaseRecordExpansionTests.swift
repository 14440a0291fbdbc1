import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@DatabaseRecord` writes for each shape it handles.
@Suite struct DatabaseRecordExpansionTests {
    @Test func structWithAutoIncrementedID() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            struct Player {
                var id: Int64?
                var name: String
                var score: Int
            }
            """,
            expandedSource: """
            struct Player {
                var id: Int64?
                var name: String
                var score: Int
            }

            extension Player: FetchableRecord, MutablePersistableRecord {
                enum Columns {
                    static let id = Column("id")
                    static let name = Column("name")
                    static let score = Column("score")
                }

                static let databaseTableName = "player"

                nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name"), Column("score")]

                init(row: Row) {
                    self.id = row[0]
                    self.name = row[1]
                    self.score = row[2]
                }

                func encode(to container: inout PersistenceContainer) {
                    container["id"] = self.id
                    container["name"] = self.name
                    container["score"] = self.score
                }

                mutating func didInsert(_ inserted: InsertionSuccess) {
                    id = Int64(inserted.rowID)
                }
            }
            """)
    }

    @Test func attributesAndIgnoredMembers() {
        assertRecordExpansion(
            """
            @DatabaseRecord(table: "team_players")
            struct TeamPlayer {
                static let maximumScore = 100
                var code: String
                @DatabaseColumn("full_name") var name: String
                @DatabaseTransient var rank = 0
                @DatabaseTransient var cached: String?
                @DatabaseJSON var tags: [String]
                @DatabaseJSON var profile: Profile?
                var x, y: Double
                var `default`: Bool = false
                let createdAt: Date
                var note: String? { didSet { } }
                var label: String { name.uppercased() }
                lazy var buffer: [Int] = []
                func describe() -> String { name }
            }
            """,
            expandedSource: """
            struct TeamPlayer {
                static let maximumScore = 100
                var code: String
                var name: String
                var rank = 0
                var cached: String?
                var tags: [String]
                var profile: Profile?
                var x, y: Double
                var `default`: Bool = false
                let createdAt: Date
                var note: String? { didSet { } }
                var label: String { name.uppercased() }
                lazy var buffer: [Int] = []
                func describe() -> String { name }
            }

            extension TeamPlayer: FetchableRecord, MutablePersistableRecord, PersistableRecord {
                enum Columns {
                    static let code = Column("code")
                    static let name = Column("full_name")
                    static let tags = Column("tags")
                    static let profile = Column("profile")
                    static let x = Column("x")
                    static let y = Column("y")
                    static let `default` = Column("default")
                    static let createdAt = Column("createdAt")
                    static let note = Column("note")
                }

                static let databaseTableName = "team_players"

                nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [Column("code"), Column("full_name"), Column("tags"), Column("profile"), Column("x"), Column("y"), Column("default"), Column("createdAt"), Column("note")]

                init(row: Row) throws {
                    self.code = row[0]
                    self.name = row[1]
                    self.tags = try Self.databaseJSONValue(row, atIndex: 2, column: "tags")
                    self.profile = try Self.databaseJSONValueIfPresent(row, atIndex: 3, column: "profile")
                    self.x = row[4]
                    self.y = row[5]
                    self.`default` = row[6]
                    self.createdAt = row[7]
                    self.note = row[8]
                }

                func encode(to container: inout PersistenceContainer) throws {
                    container["code"] = self.code
                    container["full_name"] = self.name
                    container["tags"] = try Self.databaseJSONText(self.tags, column: "tags")
                    container["profile"] = try Self.databaseJSONTextIfPresent(self.profile, column: "profile")
                    container["x"] = self.x
                    container["y"] = self.y
                    container["default"] = self.`default`
                    container["createdAt"] = self.createdAt
                    container["note"] = self.note
                }
            }
            """)
    }

    @Test func declaredMembersAreKept() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            struct Item: FetchableRecord {
                static let databaseTableName = "items"
                enum Columns {
                    static let id = Column("id")
                }
                var id: Int
                var title: String
                func encode(to container: inout PersistenceContainer) {
                    container["id"] = id
                }
            }
            """,
            expandedSource: """
            struct Item: FetchableRecord {
                static let databaseTableName = "items"
                enum Columns {
                    static let id = Column("id")
                }
                var id: Int
                var title: String
                func encode(to container: inout PersistenceContainer) {
                    container["id"] = id
                }
            }

            extension Item: FetchableRecord, MutablePersistableRecord, PersistableRecord {
                nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("title")]

                init(row: Row) {
                    self.id = row[0]
                    self.title = row[1]
                }
            }
            """)
    }

    @Test func publicStruct() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            public struct HTTPRequest {
                public var id: Int?
                public var url: URL
            }
            """,
            expandedSource: """
            public struct HTTPRequest {
                public var id: Int?
                public var url: URL
            }

            extension HTTPRequest: FetchableRecord, MutablePersistableRecord {
                public enum Columns {
                    public static let id = Column("id")
                    public static let url = Column("url")
                }

                public static let databaseTableName = "httpRequest"

                public nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("url")]

                public init(row: Row) {
                    self.id = row[0]
                    self.url = row[1]
                }

                public func encode(to container: inout PersistenceContainer) {
                    container["id"] = self.id
                    container["url"] = self.url
                }

                public mutating func didInsert(_ inserted: InsertionSuccess) {
                    id = Int(inserted.rowID)
                }
            }
            """)
    }

    @Test func finalClass() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            final class Author {
                var id: Int64?
                var name: String
                init(id: Int64?, name: String) {
                    self.id = id
                    self.name = name
                }
            }
            """,
            expandedSource: """
            final class Author {
                var id: Int64?
                var name: String
                init(id: Int64?, name: String) {
                    self.id = id
                    self.name = name
                }

                init(row: Row) {
                    self.id = row[0]
                    self.name = row[1]
                }
            }

            extension Author: FetchableRecord, MutablePersistableRecord, PersistableRecord {
                enum Columns {
                    static let id = Column("id")
                    static let name = Column("name")
                }

                static let databaseTableName = "author"

                nonisolated(unsafe) static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]

                func encode(to container: inout PersistenceContainer) {
                    container["id"] = self.id
                    container["name"] = self.name
                }

                func didInsert(_ inserted: InsertionSuccess) {
                    id = Int64(inserted.rowID)
                }
            }
            """)
    }

    @Test func genericStruct() {
        assertRecordExpansion(
            """
            @DatabaseRecord
            struct Tagged<Value: DatabaseValueConvertible & Sendable> {
                var id: Int
                var value: Value
            }
            """,
            expandedSource: """
            struct Tagged<Value: DatabaseValueConvertible & Sendable> {
                var id: Int
                var value: Value
            }

            extension Tagged: FetchableRecord, MutablePersistableRecord, PersistableRecord {
                enum Columns {
                    static var id: Column {
                        Column("id")
                    }
                    static var value: Column {
                        Column("value")
                    }
                }

                static var databaseTableName: String {
                    "tagged"
                }

                static var databaseSelection: [any SQLSelectable] {
                    [Column("id"), Column("value")]
                }

                init(row: Row) {
                    self.id = row[0]
                    self.value = row[1]
                }

                func encode(to container: inout PersistenceContainer) {
                    container["id"] = self.id
                    container["value"] = self.value
                }
            }
            """)
    }
}
