import Foundation
import Testing
@testable import GRDBLite

/// What each kind of interpolated value becomes in an SQL literal.
@Suite struct SQLInterpolationTests {
    private struct Player: TableRecord { }

    private struct RestrictedPlayer: TableRecord {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["NAME"])] }
    }

    private func build(_ sql: SQL) throws -> (sql: String, arguments: StatementArguments) {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            return try sql.build(db)
        }
    }

    @Test func expressionsAndValues() throws {
        let a = Column("a")
        let optional: Int? = 2
        let none: Int? = nil
        let existential: any SQLExpressible = Column("b")
        let (sql, arguments) = try build(
            "SELECT \(a + 1), \(optional), \(none), \(a == none), \(existential), \(nil as (any SQLExpressible)?)")
        #expect(sql == #"SELECT "a" + ?, ?, NULL, "a" IS NULL, "b", NULL"#)
        #expect(arguments == [1, 2])
    }

    @Test func sequencesBecomeLists() throws {
        let expressions: [any SQLExpressible] = [Column("a"), Column("b") + 2]
        let (sql, arguments) = try build("\(Set([1])) \(["x", "y"]) \(expressions) \([])")
        #expect(sql == #"(?) (?,?) ("a","b" + ?) (SELECT NULL WHERE NULL)"#)
        #expect(arguments == [1, "x", "y", 2])
    }

    @Test func dataIsOneValue() throws {
        let data = Data([1, 2, 3])
        let (sql, arguments) = try build("SELECT \(data)")
        #expect(sql == "SELECT ?")
        #expect(arguments == [data])
    }

    @Test func selectionsAndOrderings() throws {
        let existential: any SQLSelectable = AllColumns()
        let (sql, arguments) = try build("""
            SELECT \(existential), \(nil as (any SQLSelectable)?), \(1.databaseValue.forKey("one")) \
            ORDER BY \(Column("name").desc), \(Column("id").ascNullsLast)
            """)
        #expect(sql == #"SELECT *, NULL, ? AS "one" ORDER BY "name" DESC, "id" ASC NULLS LAST"#)
        #expect(arguments == [1])
    }

    @Test func codingKeysAreColumns() throws {
        enum CodingKeys: String, CodingKey { case name }
        enum ColumnKeys: String, CodingKey, ColumnExpression { case score }
        let existential: any CodingKey = CodingKeys.name
        let (sql, _) = try build("SELECT \(CodingKeys.name), \(ColumnKeys.score), \(existential)")
        #expect(sql == #"SELECT "name", "score", "name""#)
    }

    @Test func tables() throws {
        let existential: any TableRecord.Type = Player.self
        let (sql, _) = try build("""
            \(Player.self) \(existential) \(Table("team")) \(tableOf: Player()) \(tableOf: Player() as any TableRecord)
            """)
        #expect(sql == #""player" "player" "team" "player" "player""#)
    }

    @Test func columnsOfRecordTypes() throws {
        #expect(try build("SELECT \(columnsOf: Player.self)").sql == #"SELECT "player".*"#)
        #expect(try build("SELECT \(columnsOf: Player.self, tableAlias: "p")").sql == #"SELECT "p".*"#)
        #expect(
            try build("SELECT \(columnsOf: RestrictedPlayer.self)").sql == #"SELECT "player"."id", "player"."score""#)
        #expect(
            try build("SELECT \(columnsOf: RestrictedPlayer.self, tableAlias: "p")").sql
                == #"SELECT "p"."id", "p"."score""#)
    }

    @Test func collations() throws {
        #expect(try build("COLLATE \(.nocase)").sql == "COLLATE NOCASE")
        #expect(try build("COLLATE \(.localizedCompare)").sql == "COLLATE swiftLocalizedCompare")
    }

    @Test func sqlLiteralsAreEmbedded() throws {
        let (sql, arguments) = try build("\("foo") \(SQL("bar \(1)"))")
        #expect(sql == "? bar ?")
        #expect(arguments == ["foo", 1])
    }

    @Test func commonTableExpressions() throws {
        let cte = CommonTableExpression(named: "cte", columns: ["a"], literal: "SELECT \("O'Brien")")
        let (sql, arguments) = try build("WITH \(definitionFor: cte) SELECT * FROM \(cte)")
        #expect(sql == #"WITH "cte"("a") AS (SELECT ?) SELECT * FROM "cte""#)
        #expect(arguments == ["O'Brien"])
    }

    @Test func questionMarks() {
        #expect(databaseQuestionMarks(count: 0) == "")
        #expect(databaseQuestionMarks(count: 3) == "?,?,?")
    }
}

/// `joined(separator:)` on collections and sequences of literals: the
/// separator is raw SQL, the arguments of each literal are kept in order.
@Suite struct SQLJoinedTests {
    @Test func literalsJoinWithARawSeparator() throws {
        let parts: [SQL] = ["SELECT \(1) AS v", "UNION ALL", "SELECT \(2)"]
        let joined = parts.joined(separator: " ")
        let fromSequence = parts.lazy.filter { _ in true }.joined(separator: " ")
        try DatabaseQueue().read { db throws in
            #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: joined)) == [1, 2])
            #expect(try Int.fetchAll(db, SQLRequest<Int>(literal: fromSequence)) == [1, 2])
            let (sql, arguments) = try joined.build(db)
            #expect(sql == "SELECT ? AS v UNION ALL SELECT ?")
            #expect(arguments == [1, 2])
        }
        #expect([SQL]().joined(separator: ", ").isEmpty)
    }
}
