import Foundation
import Testing
import GRDBLite

@Suite struct DatabaseCollationTests {
    private static let byLength = DatabaseCollation("byLength") { lhs, rhs in
        lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
    }

    @Test func customCollationSortsAndCompares() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(collation: Self.byLength)
            try db.execute(sql: "CREATE TABLE t (name TEXT COLLATE byLength)")
            try db.execute(sql: "INSERT INTO t VALUES ('ccc'), ('a'), ('bb'), ('éé')")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name, rowid") == ["a", "bb", "éé", "ccc"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t WHERE name = 'xy' ORDER BY rowid") == ["bb", "éé"])
            #expect(
                try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name COLLATE BINARY") == [
                    "a", "bb", "ccc", "éé"
                ])
            #expect(
                try Bool.fetchOne(db, sql: "SELECT 'ab' = 'cd' COLLATE BYLENGTH") == true, "names are case-insensitive")
        }
    }

    @Test func unknownCollationIsAnError() throws {
        let dbQueue = try DatabaseQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in try String.fetchAll(db, sql: "SELECT 'a' ORDER BY 1 COLLATE nope") }
        })
        #expect(error.message == "no such collation sequence: nope")
    }

    @Test func removedCollationIsGone() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            db.add(collation: Self.byLength)
            #expect(try Bool.fetchOne(db, sql: "SELECT 'a' = 'b' COLLATE byLength") == true)
            db.remove(collation: Self.byLength)
            #expect(throws: DatabaseError.self) { try Bool.fetchOne(db, sql: "SELECT 'a' = 'b' COLLATE byLength") }
        }
    }

    @Test func collationsAreIdentifiedByName() {
        let other = DatabaseCollation("BYLENGTH") { _, _ in .orderedSame }
        #expect(other.id == Self.byLength.id)
        #expect(Set([other, Self.byLength, .unicodeCompare].map(\.id)).count == 2)
    }

    /// GRDB registers its collations on every connection, with these names.
    @Test(arguments: [
        (DatabaseCollation.unicodeCompare, "swiftCompare", ["B", "a", "b"]),
        (.caseInsensitiveCompare, "swiftCaseInsensitiveCompare", ["a", "b", "B"]), // b = B: rowid order
        (.localizedCaseInsensitiveCompare, "swiftLocalizedCaseInsensitiveCompare", ["a", "b", "B"]),
        (.localizedCompare, "swiftLocalizedCompare", ["a", "b", "B"]),
        (.localizedStandardCompare, "swiftLocalizedStandardCompare", ["a", "b", "B"]),
    ])
    func builtInCollations(collation: DatabaseCollation, name: String, sorted: [String]) throws {
        #expect(collation.name == name)
        let dbQueue = try DatabaseQueue()
        let names = try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT COLLATE \(name))")
            try db.execute(sql: "INSERT INTO t VALUES ('b'), ('B'), ('a')")
            return try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name, rowid")
        }
        #expect(names == sorted)
    }

    @Test func collationsSeeNonASCIIText() throws {
        let dbQueue = try DatabaseQueue()
        let equal = try dbQueue.read { db throws in
            try Bool.fetchOne(db, sql: "SELECT 'ÉCOLE' = 'école' COLLATE swiftCaseInsensitiveCompare")
        }
        #expect(equal == true)
    }
}
