import Foundation
import GRDBLite

// Fuzz target: the FTS pattern builders (`FTS3Pattern` and `FTS5Pattern`:
// `matchingAnyTokenIn`, `matchingAllTokensIn`, `matchingAllPrefixesIn`,
// `matchingPhrase`, and FTS5's `matchingPrefixPhrase`) against SQLite's
// MATCH. The input's first byte picks the builder (each builder opens
// private databases: one per run keeps runs fast), the rest is the text,
// decoded as UTF-8 (invalid bytes repaired).
//
// The agreement checked:
// 1. A non-nil pattern never makes MATCH fail, on tables of FTS3, FTS4
//    and FTS5, with one column or two, the tokenizers the builders use
//    (`simple`, `ascii`) and `unicode61`, which hold rows.
// 2. The builders read tokens as the `simple` (FTS3, FTS4) and `ascii`
//    (FTS5) tokenizers do: a pattern built from a text matches a row that
//    holds that text, on a table with that tokenizer.
//
// Deliberate gaps:
// - A text with a NUL character is not checked by (2) (SQLite reads the
//   text of a row up to it).
// - `FTS3Pattern(matchingAnyTokenIn:)` on an FTS3/FTS4 table of the
//   `unicode61` tokenizer: the builders read tokens as `simple` does, for
//   which any non-ASCII character is part of a token, and GRDB writes the
//   same raw pattern (`years OR months`, its tests fix it). When
//   `unicode61` sees a token as separators only (a symbol, U+FFFD), the OR
//   has an empty side, which FTS3's parser refuses (`a OR ☃`: malformed
//   MATCH expression). FTS5 accepts it, and AND and phrases are fine.

/// The database of the checks: its tables, and their kinds.
private let dbQueue: DatabaseQueue = {
    do {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE fts3 USING fts3(body);
                CREATE VIRTUAL TABLE fts4 USING fts4(title, body);
                CREATE VIRTUAL TABLE fts4u USING fts4(body, tokenize=unicode61);
                CREATE VIRTUAL TABLE fts5 USING fts5(body, tokenize='ascii');
                CREATE VIRTUAL TABLE fts5u USING fts5(title, body);
                """)
        }
        return dbQueue
    } catch {
        fatalError("setup: \(error)")
    }
}()

/// The tables that FTS3 patterns match, the one of the `simple` tokenizer first.
private let fts3Tables = ["fts3", "fts4", "fts4u"]
/// The tables that FTS5 patterns match, the one of the `ascii` tokenizer first.
private let fts5Tables = ["fts5", "fts5u"]

/// Traps with the input and the disagreement.
private func disagreement(_ text: String, _ message: String) -> Never {
    fatalError("\(message): \(text.debugDescription)")
}

/// The number of rows of `table` that `pattern` matches; traps if MATCH fails.
private func matchCount(_ db: Database, _ table: String, _ pattern: some DatabaseValueConvertible,
                        text: String) -> Int {
    do {
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(table) MATCH ?",
                                arguments: [pattern])!
    } catch {
        disagreement(text, "MATCH fails on \(table) with \(pattern.databaseValue): \(error)")
    }
}

/// The builders, by the input's first byte (modulo their count): FTS3
/// patterns, then FTS5 patterns.
private let builders: [@Sendable (String) -> (fts3: FTS3Pattern?, fts5: FTS5Pattern?)] = [
    { (FTS3Pattern(matchingAnyTokenIn: $0), nil) },
    { (FTS3Pattern(matchingAllTokensIn: $0), nil) },
    { (FTS3Pattern(matchingAllPrefixesIn: $0), nil) },
    { (FTS3Pattern(matchingPhrase: $0), nil) },
    { (nil, FTS5Pattern(matchingAnyTokenIn: $0)) },
    { (nil, FTS5Pattern(matchingAllTokensIn: $0)) },
    { (nil, FTS5Pattern(matchingAllPrefixesIn: $0)) },
    { (nil, FTS5Pattern(matchingPhrase: $0)) },
    { (nil, FTS5Pattern(matchingPrefixPhrase: $0)) },
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let builder = Int(data[0]) % builders.count
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let (fts3Pattern, fts5Pattern) = builders[builder](text)
    guard fts3Pattern != nil || fts5Pattern != nil else { return 0 }
    let checksText = !text.utf8.contains(0)
    do {
        try dbQueue.write { db in
            for table in fts3Pattern != nil ? fts3Tables : fts5Tables {
                try db.execute(sql: "DELETE FROM \(table)")
                let columns = table == "fts4" || table == "fts5u" ? "title, body" : "body"
                let values = table == "fts4" || table == "fts5u" ? "'', ?" : "?"
                try db.execute(sql: "INSERT INTO \(table) (\(columns)) VALUES (\(values))", arguments: [text])
                try db.execute(sql: "INSERT INTO \(table) (body) VALUES ('sqlite database engine')")
            }
            if let pattern = fts3Pattern {
                // matchingAnyTokenIn on unicode61: see the gaps.
                for table in fts3Tables where !(builder == 0 && table == "fts4u") {
                    let count = matchCount(db, table, pattern, text: text)
                    if checksText, table == fts3Tables[0], count == 0 {
                        disagreement(text, "\(pattern.rawPattern.debugDescription) doesn't match its text")
                    }
                }
            }
            if let pattern = fts5Pattern {
                for table in fts5Tables {
                    let count = matchCount(db, table, pattern, text: text)
                    if checksText, table == fts5Tables[0], count == 0 {
                        disagreement(text, "\(pattern.rawPattern.debugDescription) doesn't match its text")
                    }
                }
            }
        }
    } catch {
        disagreement(text, "\(error)")
    }
    return 0
}
