import GRDBLite
import PropertyBased
import Testing

/// Random documents and token queries: a full-text table finds exactly
/// the documents that the reference model finds (`FTSModel`), through the
/// pattern initializers and `matching(_:)`.
///
/// - FTS5 with `unicode61` and diacritics removed: ASCII-folded words, in
///   any case, with and without accents; any token, all tokens, phrases
///   and prefixes.
/// - FTS4 with `porter`: families of words that share a stem; any token,
///   all tokens, phrases (prefixes of stemmed words are left out).
@Suite struct FTSMatchingPropertyTests {
    @Test func fts5Unicode61FindsWhatTheModelFinds() async {
        await checkProperty(count: 150, input: FTSGenerators.fts5Case()) { testCase in
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.create(virtualTable: "doc", using: FTS5()) { t in
                    t.tokenizer = .unicode61(diacritics: .remove)
                    t.column("body")
                }
                try insert(testCase.documents, db)
            }
            try dbQueue.read { db in
                for query in testCase.queries {
                    let pattern: FTS5Pattern? = switch query.kind {
                    case .anyToken: FTS5Pattern(matchingAnyTokenIn: query.text)
                    case .allTokens: FTS5Pattern(matchingAllTokensIn: query.text)
                    case .phrase: FTS5Pattern(matchingPhrase: query.text)
                    case .allPrefixes: FTS5Pattern(matchingAllPrefixesIn: query.text)
                    }
                    let found = try Set(Int64.fetchAll(db, Table("doc").select(Column.rowID).matching(pattern)))
                    #expect(found == FTSModel.matches(query, in: testCase.documents), "\(query)")
                }
            }
        }
    }

    @Test func fts4PorterFindsWhatTheModelFinds() async {
        await checkProperty(count: 150, input: FTSGenerators.porterCase()) { testCase in
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.create(virtualTable: "doc", using: FTS4()) { t in
                    t.tokenizer = .porter
                    t.column("body")
                }
                try insert(testCase.documents, db)
            }
            try dbQueue.read { db in
                for query in testCase.queries {
                    let pattern: FTS3Pattern? = switch query.kind {
                    case .anyToken: FTS3Pattern(matchingAnyTokenIn: query.text)
                    case .allTokens: FTS3Pattern(matchingAllTokensIn: query.text)
                    case .phrase: FTS3Pattern(matchingPhrase: query.text)
                    case .allPrefixes: FTS3Pattern(matchingAllPrefixesIn: query.text)
                    }
                    let found = try Set(Int64.fetchAll(db, Table("doc").select(Column.rowID).matching(pattern)))
                    #expect(found == FTSModel.matches(query, in: testCase.documents), "\(query)")
                }
            }
        }
    }

    /// Documents get row ids 1, 2, 3... in order.
    private func insert(_ documents: [[FTSWord]], _ db: Database) throws {
        for (index, document) in documents.enumerated() {
            try db.execute(
                sql: "INSERT INTO doc (rowid, body) VALUES (?, ?)",
                arguments: [index + 1, document.map(\.text).joined(separator: " ")])
        }
    }
}
