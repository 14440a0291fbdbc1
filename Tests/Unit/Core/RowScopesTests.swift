@_spi(GRDBLite) @testable import GRDBLite
import Testing

// Rows with scopes, as the query interface builds them for joined
// associations: the row sees its base columns, scopes see the others.

@Suite struct RowScopesTests {
    /// `[id:1 title:"Moby-Dick"]` with the scope `author` `[id:2 name:"Melville"]`.
    private static let sql = "SELECT 1 AS id, 'Moby-Dick' AS title, 2 AS id, 'Melville' AS name"
    private static let layouts = ["author": Row.ScopeLayout(offset: 2, count: 2)]

    @Test func cursorRowWithScopes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: Self.sql)
            let row = Row(statement: statement, count: 2, scopeLayouts: Self.layouts)
            let cursor = try RowCursor(statement: statement, arguments: nil, row: row)
            let fetched = try #require(try cursor.next())
            #expect(fetched.count == 2)
            #expect(fetched["id"] as Int == 1)
            #expect(fetched["name"] as String? == nil)
            let author = try #require(fetched.scopes["author"])
            #expect(author["id"] as Int == 2)
            #expect(author["name"] as String == "Melville")
            #expect(fetched.unscoped.scopes.isEmpty)
            #expect(try cursor.next() == nil)
        }
    }

    @Test func copyKeepsTheColumnsOfScopes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: Self.sql)
            let cursor = try RowCursor(
                statement: statement, arguments: nil,
                row: Row(statement: statement, count: 2, scopeLayouts: Self.layouts))
            let copy = try #require(try cursor.next()).copy()
            #expect(copy.description == #"[id:1 title:"Moby-Dick"]"#)
            #expect(copy.scopes["author"]?.description == #"[id:2 name:"Melville"]"#)
            #expect(copy.scopes.names == ["author"])
        }
    }

    /// As GRDB: a row is not empty if a scope holds a value, so that an
    /// optional nested record made of scopes only decodes.
    @Test func containsNonNullValueLooksIntoScopes() throws {
        struct Pair: Decodable {
            struct Item: Decodable { var id: Int }
            var left: Item?
            var right: Item?
        }
        struct Model: Decodable, FetchableRecord {
            var pair: Pair?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let adapter = ScopeAdapter([
                "pair": ScopeAdapter(base: EmptyRowAdapter(), scopes: [
                    "left": RangeRowAdapter(0..<1),
                    "right": RangeRowAdapter(1..<2)])])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS id, 2 AS id", adapter: adapter))
            let pair = try #require(row.scopes["pair"])
            #expect(pair.count == 0)
            #expect(pair.containsNonNullValue)
            let model = try #require(try Model.fetchOne(db, sql: "SELECT NULL AS id, 2 AS id", adapter: adapter))
            #expect(model.pair?.left == nil)
            #expect(model.pair?.right?.id == 2)
            let empty = try #require(try Model.fetchOne(db, sql: "SELECT NULL AS id, NULL AS id", adapter: adapter))
            #expect(empty.pair == nil)
        }
    }

    @Test func equalityComparesScopes() {
        let names = ["id", "title", "id", "name"]
        let melville = Row(values: values(1, "Moby-Dick", 2, "Melville"), names: names,
                           count: 2, scopeLayouts: Self.layouts)
        let melvilleAgain = Row(values: values(1, "Moby-Dick", 2, "Melville"), names: names,
                                count: 2, scopeLayouts: Self.layouts)
        let hugo = Row(values: values(1, "Moby-Dick", 3, "Hugo"), names: names,
                       count: 2, scopeLayouts: Self.layouts)
        let unscoped = Row(values: values(1, "Moby-Dick"), names: ["id", "title"])
        #expect(melville == melvilleAgain)
        #expect(melville.hashValue == melvilleAgain.hashValue)
        #expect(melville != hugo)
        #expect(melville != unscoped)
        #expect(melville.unscoped == unscoped)
    }

    @Test func scopeErrorsNameTheScopes() {
        let row = Row(values: values(1, "Moby-Dick", nil, nil),
                      names: ["id", "title", "id", "name"], count: 2, scopeLayouts: Self.layouts)

        let missing = RowDecodingError.scopeNotFound("country", type: Int.self, row: row)
        #expect(missing.kind == .scopeNotFound)
        #expect(missing.key == "country")
        #expect(missing.description.hasPrefix(
            #"could not decode Int: scope not found: "country" - available scopes: ["author"], row: [id:1"#))

        let null = RowDecodingError.nullScope("author", type: Int.self, row: row)
        #expect(null.kind == .valueMismatch)
        #expect(null.description.hasPrefix(
                #"could not decode Int from database value NULL - scope: "author" (scope "author" only contains null values)"#
            ))

        let noRows = RowDecodingError.prefetchKeyNotFound("books", type: [Int].self, row: row)
        #expect(noRows.kind == .prefetchKeyNotFound)
        #expect(noRows.description.hasPrefix(
            #"could not decode Array<Int>: key for prefetched rows not found: "books" - available keys: []"#))
    }
}

private func values(_ values: (any DatabaseValueConvertible)?...) -> [DatabaseValue] {
    values.map { $0?.databaseValue ?? .null }
}
