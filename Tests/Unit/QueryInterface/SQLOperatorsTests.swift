import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

/// A filter: its SQL (the WHERE clause), its arguments, and the ids of the
/// players it selects.
struct FilterCase: Sendable, CustomTestStringConvertible {
    var predicate: SQLExpression
    var sql: String
    var arguments: StatementArguments
    var ids: [Int64]

    init(_ predicate: SQLExpression, _ sql: String, _ arguments: StatementArguments = [], ids: [Int64]) {
        self.predicate = predicate
        self.sql = sql
        self.arguments = arguments
        self.ids = ids
    }

    var testDescription: String { sql }
}

private let score = Player.Columns.score
private let name = Player.Columns.name
private let team = Player.Columns.team

@Suite struct SQLOperatorsTests {
    // Computed, not stored: expressions kept in globals until exit are
    // reported by LeakSanitizer, which can't see the tagged pointers of
    // indirect enums.
    static var comparisons: [FilterCase] { [
        FilterCase(score == 1000, #""score" = ?"#, [1000], ids: [2, 5]),
        FilterCase(1000 == score, #"? = "score""#, [1000], ids: [2, 5]),
        FilterCase(score != 1000, #""score" <> ?"#, [1000], ids: [1, 4]),
        FilterCase(score == nil, #""score" IS NULL"#, ids: [3]),
        FilterCase(nil == score, #""score" IS NULL"#, ids: [3]),
        FilterCase(score != nil, #""score" IS NOT NULL"#, ids: [1, 2, 4, 5]),
        FilterCase(score === 1000, #""score" IS ?"#, [1000], ids: [2, 5]),
        FilterCase(score !== 1000, #""score" IS NOT ?"#, [1000], ids: [1, 3, 4]),
        FilterCase(team === nil, #""team" IS NULL"#, ids: [4]),
        FilterCase(team !== nil, #""team" IS NOT NULL"#, ids: [1, 2, 3, 5]),
        FilterCase(score < 500, #""score" < ?"#, [500], ids: [1]),
        FilterCase(score <= 500, #""score" <= ?"#, [500], ids: [1, 4]),
        FilterCase(score > 500, #""score" > ?"#, [500], ids: [2, 5]),
        FilterCase(score >= 500, #""score" >= ?"#, [500], ids: [2, 4, 5]),
        FilterCase(500 < score, #"? < "score""#, [500], ids: [2, 5]),
        FilterCase(score == Column("id") * 100, #""score" = ("id" * ?)"#, [100], ids: [1]),
    ] }

    static var logical: [FilterCase] { [
        FilterCase(score >= 100 && team == "red", #"("score" >= ?) AND ("team" = ?)"#, [100, "red"], ids: [1]),
            FilterCase(
                team == "red" || team == "blue", #"("team" = ?) OR ("team" = ?)"#, ["red", "blue"], ids: [1, 2, 3, 5]),
        FilterCase(
            score > 0 && team != nil && name != "Élodie",
            #"("score" > ?) AND ("team" IS NOT NULL) AND ("name" <> ?)"#, [0, "Élodie"], ids: [1, 2]),
        FilterCase(
            (score > 500 || score < 200) && team == "blue",
            #"(("score" > ?) OR ("score" < ?)) AND ("team" = ?)"#, [500, 200, "blue"], ids: [2, 5]),
        FilterCase(!(score > 500), #"NOT ("score" > ?)"#, [500], ids: [1, 4]),
        FilterCase(!(team == "red"), #""team" <> ?"#, ["red"], ids: [2, 5]),
        FilterCase(!(score == nil), #""score" IS NOT NULL"#, ids: [1, 2, 4, 5]),
        FilterCase(!(score === 100), #""score" IS NOT ?"#, [100], ids: [2, 3, 4, 5]),
        FilterCase(!(!(score > 500)), #"NOT (NOT ("score" > ?))"#, [500], ids: [2, 5]),
    ] }

    static var arithmetic: [FilterCase] { [
        FilterCase(score + 1 == 101, #"("score" + ?) = ?"#, [1, 101], ids: [1]),
        FilterCase(score - 1 == 99, #"("score" - ?) = ?"#, [1, 99], ids: [1]),
        FilterCase(1000 - score == 0, #"(? - "score") = ?"#, [1000, 0], ids: [2, 5]),
        FilterCase(score * 2 == 200, #"("score" * ?) = ?"#, [2, 200], ids: [1]),
        FilterCase(score / 2 == 250, #"("score" / ?) = ?"#, [2, 250], ids: [4]),
        FilterCase(-score < -600, #"(-"score") < ?"#, [-600], ids: [2, 5]),
        FilterCase(score + Column("id") + 1 == 102, #"(("score" + "id") + ?) = ?"#, [1, 102], ids: [1]),
        FilterCase((score & 4) == 4, #"("score" & ?) = ?"#, [4, 4], ids: [1, 4]),
        FilterCase((score | 1) == 101, #"("score" | ?) = ?"#, [1, 101], ids: [1]),
        FilterCase((score << 1) == 200, #"("score" << ?) = ?"#, [1, 200], ids: [1]),
        FilterCase((score >> 1) == 50, #"("score" >> ?) = ?"#, [1, 50], ids: [1]),
        FilterCase(~score == -101, #"(~"score") = ?"#, [-101], ids: [1]),
    ] }

    static var inclusion: [FilterCase] { [
        FilterCase([100, 500].contains(score), #""score" IN (?, ?)"#, [100, 500], ids: [1, 4]),
        FilterCase([1000].contains(score), #""score" = ?"#, [1000], ids: [2, 5]),
        FilterCase([Int]().contains(score), "?", [false], ids: []),
        FilterCase(!["red", "blue"].contains(team), #""team" NOT IN (?, ?)"#, ["red", "blue"], ids: []),
        FilterCase((100...500).contains(score), #""score" BETWEEN ? AND ?"#, [100, 500], ids: [1, 4]),
        FilterCase(!(100...500).contains(score), #""score" NOT BETWEEN ? AND ?"#, [100, 500], ids: [2, 5]),
        FilterCase((100..<500).contains(score), #"("score" >= ?) AND ("score" < ?)"#, [100, 500], ids: [1]),
        FilterCase(("A"..."C").contains(name), #""name" BETWEEN ? AND ?"#, ["A", "C"], ids: [1, 2]),
    ] }

    static var strings: [FilterCase] { [
        FilterCase(name.like("%a%"), #""name" LIKE ?"#, ["%a%"], ids: [1, 2, 3, 4]),
        FilterCase(!name.like("%a%"), #""name" NOT LIKE ?"#, ["%a%"], ids: [5]),
        FilterCase(name.like("%!%", escape: "!"), #""name" LIKE ? ESCAPE ?"#, ["%!%", "!"], ids: []),
        FilterCase(length(name) == 5, #"LENGTH("name") = ?"#, [5], ids: [3, 4]),
        FilterCase(name.lowercased == "élodie", #"swiftLowercaseString("name") = ?"#, ["élodie"], ids: [5]),
        FilterCase(name.uppercased == "ÉLODIE", #"swiftUppercaseString("name") = ?"#, ["ÉLODIE"], ids: [5]),
        FilterCase(
            name.lowercased.capitalized == "Arthur", #"swiftCapitalizedString(swiftLowercaseString("name")) = ?"#,
            ["Arthur"], ids: [1]),
        FilterCase(name.collating(.nocase) == "ARTHUR", #""name" = ? COLLATE NOCASE"#, ["ARTHUR"], ids: [1]),
        FilterCase(
            ["ARTHUR", "CRAIG"].contains(name.collating(.nocase)), #"("name" COLLATE NOCASE) IN (?, ?)"#,
            ["ARTHUR", "CRAIG"], ids: [1, 3]),
        FilterCase(
            name.collating(.localizedCaseInsensitiveCompare) == "élodie",
            #""name" = ? COLLATE swiftLocalizedCaseInsensitiveCompare"#, ["élodie"], ids: [5]),
    ] }

    static var functions: [FilterCase] { [
        FilterCase((score ?? 0) == 0, #"IFNULL("score", ?) = ?"#, [0, 0], ids: [3]),
        FilterCase(coalesce([score, Column("id")]) == 3, #"COALESCE("score", "id") = ?"#, [3], ids: [3]),
        FilterCase(abs(-score) == 100, #"ABS(-"score") = ?"#, [100], ids: [1]),
        FilterCase(max(score, 600) == 600, #"MAX("score", ?) = ?"#, [600, 600], ids: [1, 4]),
        FilterCase(min(score, Column("id")) == 1, #"MIN("score", "id") = ?"#, [1], ids: [1]),
        FilterCase(score == true, #""score" = ?"#, [true], ids: []),
        FilterCase(team != true, #""team" <> ?"#, [true], ids: [1, 2, 3, 5]),
    ] }

    @Test(arguments: comparisons + logical + arithmetic + inclusion + strings + functions)
    func filter(_ filterCase: FilterCase) throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.filter(filterCase.predicate).order(\.id)
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE "# + filterCase.sql + #" ORDER BY "id""#)
            #expect(arguments == filterCase.arguments)
            #expect(try request.fetchAll(db).map(\.id) == filterCase.ids)
        }
    }

    @Test func sqlLiteralsInExpressions() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.filter(score > SQL("400 + \(100)") && SQL("\(name) <> \("David")")).order(\.id)
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE ("score" > (400 + ?)) AND ("name" <> ?) ORDER BY "id""#)
            #expect(arguments == [100, "David"])
            #expect(try request.fetchAll(db).map(\.id) == [2, 5])
        }
    }

    @Test func joinedOperator() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.filter([score > 0, team == "blue", name.like("B%")].joined(operator: .and))
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE ("score" > ?) AND ("team" = ?) AND ("name" LIKE ?)"#)
            #expect(arguments == [0, "blue", "B%"])
            #expect(try request.fetchAll(db).map(\.id) == [2])

            let empty = Player.filter([SQLExpression]().joined(operator: .or))
            #expect(try sqlAndArguments(db, empty).sql == #"SELECT * FROM "player" WHERE ?"#)
            #expect(try empty.fetchCount(db) == 0)

            let parts: [SQLExpression] = [name.sqlExpression, " (".sqlExpression, team ?? "none", ")".sqlExpression]
            let concat = Player.select(parts.joined(operator: .concat), as: String.self)
                .filter(key: 4)
            #expect(
                try sqlAndArguments(db, concat).sql
                    == #"SELECT "name" || ? || IFNULL("team", ?) || ? FROM "player" WHERE "id" = ?"#)
            #expect(try concat.fetchOne(db) == "David (none)")
        }
    }

    @Test func customFunction() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let double = DatabaseFunction("double", argumentCount: 1, pure: true) { dbValues in
                Int.fromDatabaseValue(dbValues[0]).map { $0 * 2 }
            }
            db.add(function: double)
            let request = Player.select({ double($0.score) }, as: Int.self).filter(key: 1)
            #expect(try sqlAndArguments(db, request).sql == #"SELECT double("score") FROM "player" WHERE "id" = ?"#)
            #expect(try request.fetchOne(db) == 200)

            // A function name that is not a plain identifier is quoted.
            let weird = DatabaseFunction("my fn", argumentCount: 1, pure: true) { dbValues in dbValues[0] }
            db.add(function: weird)
            let weirdRequest = Player.select({ weird($0.name) }, as: String.self).filter(key: 1)
            #expect(
                try sqlAndArguments(db, weirdRequest).sql == #"SELECT "my fn"("name") FROM "player" WHERE "id" = ?"#)
            #expect(try weirdRequest.fetchOne(db) == "Arthur")
        }
    }
}
