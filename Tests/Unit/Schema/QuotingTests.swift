import Testing
import GRDBLite

/// Every identifier in generated SQL is quoted, whatever its characters.
@Suite struct QuotingTests {
    @Test(arguments: ["my table", "with \"quotes\"", "it's", "joueur ⚽️", "Ünïcödé", "select", "a.b", "--x", ""])
    func identifiers(_ name: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let column = "col " + name
            let other = "other " + name
            try db.create(table: name) { t in
                t.primaryKey(column, .text)
                t.column(other, .integer).unique().indexed().collate(.nocase).defaults(to: name)
                t.belongsTo("ref" + name, inTable: name)
                t.uniqueKey([column, other])
                t.check(sql: "1")
            }
            #expect(try db.tableExists(name))
            #expect(
                try db.columns(in: name).map(\.name) == [
                    column, other, "ref" + name + column.uppercasingFirstCharacterForTest
                ])
            #expect(try db.primaryKey(name).columns == [column])
            #expect(try db.foreignKeys(on: name).map(\.destinationTable) == [name])
            #expect(try db.table(name, hasUniqueKey: [other, column]))
            #expect(
                try db.columns(in: name)[1].defaultValueSQL == "'" + name.replacingOccurrences(of: "'", with: "''")
                    + "'")

            try db.create(index: "index " + name, on: name, columns: [other], options: .ifNotExists)
            #expect(try db.indexes(on: name).contains { $0.name == "index " + name })
            try db.alter(table: name) { t in
                t.add(column: "added " + name, .text).indexed()
                t.rename(column: "added " + name, to: "renamed " + name)
            }
            #expect(
                try db.indexes(on: name).contains {
                    $0.name == name + "_on_added " + name && $0.columns == ["renamed " + name]
                })
            try db.drop(index: name + "_on_added " + name)
            try db.alter(table: name) { t in
                t.drop(column: "renamed " + name)
            }
            try db.drop(index: "index " + name)
            try db.rename(table: name, to: "renamed " + name)
            try db.drop(table: "renamed " + name)
            #expect(try !db.tableExists("renamed " + name))
        }
    }
}

extension String {
    fileprivate var uppercasingFirstCharacterForTest: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
