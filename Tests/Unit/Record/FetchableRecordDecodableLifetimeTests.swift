import Foundation
import GRDBLite
import Testing

// `init(from:)` may keep its decoder or its containers beyond its return.
// The decoder, single value, unkeyed and nested containers keep their rows:
// they stay usable. The keyed container of a record reads its row without
// retaining it: while the row lives, it reads the row's current values (the
// current row of a cursor, as in GRDB); once the row is gone, using it traps
// with a message, in every build, instead of reading freed memory.

/// Keeps its keyed container in a global (exit tests run in a child
/// process: the globals are never shared).
private struct KeepingPlayer: Decodable, FetchableRecord {
    nonisolated(unsafe) static var keptContainer: KeyedDecodingContainer<CodingKeys>?
    var id: Int64
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        if Self.keptContainer == nil { Self.keptContainer = container }
    }
}

/// Keeps its decoder, a super decoder and a single value container.
private struct KeepingDecoderPlayer: Decodable, FetchableRecord, Equatable {
    nonisolated(unsafe) static var keptDecoder: (any Decoder)?
    nonisolated(unsafe) static var keptSuperDecoder: (any Decoder)?
    var id: Int64
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        Self.keptDecoder = decoder
        Self.keptSuperDecoder = try container.superDecoder()
    }
}

/// A name decoded from a single value container, which it keeps.
private struct KeepingName: Decodable, FetchableRecord {
    nonisolated(unsafe) static var keptContainer: (any SingleValueDecodingContainer)?
    var name: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        name = try container.decode(String.self)
        Self.keptContainer = container
    }
}

/// A book and its author, whose nested keyed container it keeps.
private struct KeepingBookInfo: Decodable, FetchableRecord {
    nonisolated(unsafe) static var keptAuthorContainer: KeyedDecodingContainer<AuthorKeys>?
    var title: String
    var authorName: String

    enum CodingKeys: String, CodingKey { case title, author }
    enum AuthorKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        let author = try container.nestedContainer(keyedBy: AuthorKeys.self, forKey: .author)
        authorName = try author.decode(String.self, forKey: .name)
        Self.keptAuthorContainer = author
    }
}

/// An author and their books, whose unkeyed container it keeps.
private struct KeepingAuthorInfo: Decodable, FetchableRecord {
    nonisolated(unsafe) static var keptBooksContainer: (any UnkeyedDecodingContainer)?
    var name: String

    enum CodingKeys: String, CodingKey { case name, books }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        Self.keptBooksContainer = try container.nestedUnkeyedContainer(forKey: .books)
    }
}

private struct BookTitle: Decodable {
    var title: String
}

private func makeKeepingPlayerDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.execute(sql: """
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig');
            """)
    }
    return dbQueue
}

@Suite struct FetchableRecordDecodableLifetimeTests {
    private static func stderr(_ result: ExitTest.Result?) -> String {
        result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
    }

    @Test func keptKeyedContainerTrapsOnceItsCursorRowIsGone() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try makeKeepingPlayerDatabase()
            _ = try dbQueue.read { try KeepingPlayer.fetchAll($0, sql: "SELECT * FROM player") }
            let kept = try #require(KeepingPlayer.keptContainer)
            _ = try kept.decode(Int64.self, forKey: .id)
        }
        #expect(
            Self.stderr(result).contains("A KeyedDecodingContainer of a record was used after its row was released"))
    }

    @Test func keptKeyedContainerTrapsOnceItsRowIsGone() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            do {
                let row: Row = ["id": 1, "name": "Arthur"]
                _ = try KeepingPlayer(row: row)
            }
            let kept = try #require(KeepingPlayer.keptContainer)
            _ = try kept.decode(String.self, forKey: .name)
        }
        #expect(
            Self.stderr(result).contains("A KeyedDecodingContainer of a record was used after its row was released"))
    }

    @Test func keptKeyedContainerReadsTheCurrentRowOfItsCursor() throws {
        KeepingPlayer.keptContainer = nil
        defer { KeepingPlayer.keptContainer = nil }
        let dbQueue = try makeKeepingPlayerDatabase()
        let ids = try dbQueue.read { db in
            let cursor = try KeepingPlayer.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
            var ids: [Int64] = []
            while try cursor.next() != nil {
                ids.append(try #require(KeepingPlayer.keptContainer).decode(Int64.self, forKey: .id))
            }
            return ids
        }
        #expect(ids == [1, 2, 3])
    }

    @Test func keptDecoderKeepsItsRow() throws {
        let player: KeepingDecoderPlayer
        do {
            let row: Row = ["id": 1, "name": "Arthur"]
            player = try KeepingDecoderPlayer(row: row)
        }
        let decoder = try #require(KeepingDecoderPlayer.keptDecoder)
        let superDecoder = try #require(KeepingDecoderPlayer.keptSuperDecoder)
        KeepingDecoderPlayer.keptDecoder = nil
        KeepingDecoderPlayer.keptSuperDecoder = nil
        #expect(try KeepingDecoderPlayer(from: decoder) == player)
        #expect(try KeepingDecoderPlayer(from: superDecoder) == player)
    }

    @Test func keptSingleValueContainerKeepsItsRow() throws {
        do {
            let row: Row = ["name": "Arthur"]
            _ = try KeepingName(row: row)
        }
        let kept = try #require(KeepingName.keptContainer)
        KeepingName.keptContainer = nil
        #expect(try kept.decode(String.self) == "Arthur")
    }

    @Test func keptNestedContainerKeepsItsRow() throws {
        let dbQueue = try Library.makeDatabase()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, Library.Book.including(required: Library.Book.author).order(Library.Book.Columns.id))
        }
        let info = try KeepingBookInfo(row: rows[0])
        let expectedAuthor = try dbQueue.read { db in
            try String.fetchOne(
                db, sql: "SELECT author.name FROM book JOIN author ON author.id = book.authorId ORDER BY book.id")
        }
        #expect(info.authorName == expectedAuthor)
        let kept = try #require(KeepingBookInfo.keptAuthorContainer)
        KeepingBookInfo.keptAuthorContainer = nil
        _ = consume rows
        #expect(try kept.decode(String.self, forKey: .name) == expectedAuthor)
    }

    @Test func keptUnkeyedContainerKeepsItsRows() throws {
        let dbQueue = try Library.makeDatabase()
        let (rows, expectedTitles) = try dbQueue.read { db in
            let rows = try Row.fetchAll(
                db, Library.Author.including(all: Library.Author.books).order(Library.Author.Columns.id))
            let authorId: Int64 = rows[0]["id"]
            let titles = try String.fetchAll(
                db, sql: "SELECT title FROM book WHERE authorId = ? ORDER BY id", arguments: [authorId])
            return (rows, titles)
        }
        _ = try KeepingAuthorInfo(row: rows[0])
        var kept = try #require(KeepingAuthorInfo.keptBooksContainer)
        KeepingAuthorInfo.keptBooksContainer = nil
        _ = consume rows
        var titles: [String] = []
        while !kept.isAtEnd {
            titles.append(try kept.decode(BookTitle.self).title)
        }
        #expect(!titles.isEmpty)
        #expect(titles.sorted() == expectedTitles.sorted())
    }
}
