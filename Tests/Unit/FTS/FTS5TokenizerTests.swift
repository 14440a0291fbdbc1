import Foundation
@_spi(GRDBLite) import GRDBLite
import TestSupport
import Testing

/// Drops the tokens of a stop list, and turns "sea" into "sea" + the
/// colocated synonym "ocean".
private final class StopAndSynonymTokenizer: FTS5WrapperTokenizer {
    static let name = "stopAndSynonym"
    let wrappedTokenizer: any FTS5Tokenizer
    let stopWords: Set<String>

    init(db: Database, arguments: [String]) throws {
        // Arguments: stop words, then "--", then the wrapped tokenizer.
        let separator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        stopWords = Set(arguments[..<separator])
        let wrapped = Array(arguments[separator...].dropFirst())
        wrappedTokenizer = try db.makeTokenizer(
            wrapped.isEmpty ? .unicode61() : FTS5TokenizerDescriptor(components: wrapped))
    }

    func accept(
        token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        if stopWords.contains(token) { return }
        try tokenCallback(token, flags)
        if token == "sea" {
            try tokenCallback("ocean", .colocated)
        }
    }
}

/// Refuses to be created with the argument "refuse", and throws while
/// tokenizing a token "boom".
private final class FailingTokenizer: FTS5WrapperTokenizer {
    struct Boom: Error { }
    static let name = "failing"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        if arguments.contains("refuse") {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "refused")
        }
        wrappedTokenizer = try db.makeTokenizer(.ascii())
    }

    func accept(
        token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
        tokenCallback: FTS5WrapperTokenCallback) throws
    {
        if token == "boom" { throw Boom() }
        if token == "dboom" { throw DatabaseError(resultCode: .SQLITE_CONSTRAINT, message: "no") }
        try tokenCallback(token, flags)
    }
}

/// A custom tokenizer written against the raw API: one token per
/// character (spaces aside), uppercased.
private final class CharacterTokenizer: FTS5CustomTokenizer {
    static let name = "characters"
    init(db: Database, arguments: [String]) throws { }

    func tokenize(
        context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization,
        pText: UnsafePointer<CChar>?, nText: CInt, tokenCallback: @escaping FTS5TokenCallback) -> CInt
    {
        guard let pText else { return 0 }
        let text = String(decoding: UnsafeRawBufferPointer(start: pText, count: Int(nText)), as: UTF8.self)
        var offset: CInt = 0
        for character in text {
            let length = CInt(character.utf8.count)
            if character.isWhitespace {
                offset += length
                continue
            }
            var token = Array(character.uppercased().utf8)
            let code = token.withUnsafeMutableBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { buffer in
                    tokenCallback(context, 0, buffer.baseAddress, CInt(buffer.count), offset, offset + length)
                }
            }
            if code != 0 { return code }
            offset += length
        }
        return 0
    }
}

@Suite struct FTS5TokenizerTests {
    @Test func builtInTokenizers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db: Database) throws -> Void in
            func tokens(_ descriptor: FTS5TokenizerDescriptor, _ text: String) throws -> [String] {
                try db.makeTokenizer(descriptor).tokenize(document: text).map(\.token)
            }
            #expect(try tokens(.ascii(), "SQLite databases, Éden") == ["sqlite", "databases", "Éden"])
            #expect(try tokens(.ascii(separators: ["X"]), "aXb") == ["a", "b"])
            #expect(try tokens(.porter(), "SQLite databases") == ["sqlite", "databas"])
            #expect(try tokens(.porter(wrapping: .ascii()), "Running") == ["run"])
            #expect(try tokens(.unicode61(), "Éden élan") == ["eden", "elan"])
            #expect(try tokens(.unicode61(diacritics: .keep), "Éden") == ["éden"])
            #expect(try tokens(.unicode61(tokenCharacters: ["-"]), "a-b c") == ["a-b", "c"])
            #expect(try tokens(.trigram(), "Abcd") == ["abc", "bcd"])
            #expect(try tokens(.trigram(caseSensitive: true), "Abcd") == ["Abc", "bcd"])
            #expect(try tokens(.ascii(), "") == [])
            #expect(try db.makeTokenizer(.ascii()).tokenize(query: "a b").map(\.token) == ["a", "b"])
        }
    }

    @Test func unknownTokenizerAndBadArguments() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in
            let unknown = #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["nosuchtokenizer"]))
            }
            #expect(unknown?.message == "no such tokenizer: nosuchtokenizer")
            #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "remove_diacritics", "9"]))
            }
            #expect(FTS5.api(db).pointee.iVersion >= 2)
        }
    }

    @Test func wrapperTokenizer() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(tokenizer: StopAndSynonymTokenizer.self)
            let tokenizer = try db.makeTokenizer(
                StopAndSynonymTokenizer.tokenizerDescriptor(arguments: ["the", "--", "ascii"]))
            let tokens = try tokenizer.tokenize(document: "The SEA and the sky")
            #expect(tokens.map(\.token) == ["sea", "ocean", "and", "sky"])
            #expect(tokens.map(\.flags) == [[], .colocated, [], []])

            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = StopAndSynonymTokenizer.tokenizerDescriptor(arguments: ["the"])
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('The sea')")
            #expect(try Table("doc").all().matching(FTS5Pattern(matchingAnyTokenIn: "ocean")).fetchCount(db) == 1)
            // A stop word is not indexed
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH 'the'") == 0)
        }
    }

    @Test func customTokenizer() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(tokenizer: CharacterTokenizer.self)
            let tokenizer = try db.makeTokenizer(CharacterTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(query: "aé").map(\.token) == ["A", "É"])
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = CharacterTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('xyz')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc WHERE doc MATCH '\"y z\"'") == 1)
        }
    }

    @Test func throwingTokenizerGivesADatabaseError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(tokenizer: FailingTokenizer.self)
            // Creation refused: the error code of the thrown DatabaseError
            let refused = #expect(throws: DatabaseError.self) {
                try db.makeTokenizer(FailingTokenizer.tokenizerDescriptor(arguments: ["refuse"]))
            }
            #expect(refused?.resultCode == .SQLITE_MISUSE)
            #expect(throws: DatabaseError.self) {
                try db.create(virtualTable: "refusing", using: FTS5()) { t in
                    t.tokenizer = FailingTokenizer.tokenizerDescriptor(arguments: ["refuse"])
                    t.column("body")
                }
            }
            #expect(try db.tableExists("refusing") == false)

            // Tokenization errors: SQLITE_ERROR, or the code of a DatabaseError
            let tokenizer = try db.makeTokenizer(FailingTokenizer.tokenizerDescriptor())
            #expect(try tokenizer.tokenize(document: "fine").map(\.token) == ["fine"])
            let boom = #expect(throws: DatabaseError.self) { try tokenizer.tokenize(document: "a boom") }
            #expect(boom?.resultCode == .SQLITE_ERROR)
            let dboom = #expect(throws: DatabaseError.self) { try tokenizer.tokenize(document: "dboom") }
            #expect(dboom?.resultCode == .SQLITE_CONSTRAINT)

            // In a table: the insert fails, and nothing is inserted
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = FailingTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('fine')")
            #expect(throws: DatabaseError.self) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO doc (body) VALUES ('boom')")
                    return .commit
                }
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM doc") == 1)
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM doc WHERE doc MATCH 'boom'")
            }
        }
    }

    @Test func tokenizersInEveryConnectionOfAPool() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(tokenizer: StopAndSynonymTokenizer.self)
        }
        let dbPool = try DatabasePool(path: dir.path("db.sqlite"), configuration: configuration)
        try dbPool.write { db in
            try db.create(virtualTable: "doc", using: FTS5()) { t in
                t.tokenizer = StopAndSynonymTokenizer.tokenizerDescriptor()
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO doc (body) VALUES ('sea')")
        }
        try dbPool.read { (db: Database) throws -> Void in
            #expect(try Table("doc").all().matching(FTS5Pattern(matchingAnyTokenIn: "ocean")).fetchCount(db) == 1)
        }
    }
}
