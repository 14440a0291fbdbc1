import Foundation
import GRDBLite
import Testing

@Suite struct SQLDateFunctionsTests {
    @Test func dateTimeAppliesModifiersInOrder() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            func dateTime(_ expression: SQLExpression) throws -> String? {
                try SQLRequest<String>("SELECT \(expression)").fetchOne(db)
            }
            let date = "2013-01-01 00:29:59".databaseValue
            #expect(try dateTime(GRDBLite.dateTime(date)) == "2013-01-01 00:29:59")
            #expect(try dateTime(GRDBLite.dateTime(date, .day(1))) == "2013-01-02 00:29:59")
            #expect(try dateTime(GRDBLite.dateTime(date, .hour(-1))) == "2012-12-31 23:29:59")
            #expect(try dateTime(GRDBLite.dateTime(date, .second(1.5))) == "2013-01-01 00:30:00")
            #expect(try dateTime(GRDBLite.dateTime(date, .month(1), .year(-1))) == "2012-02-01 00:29:59")
            #expect(try dateTime(GRDBLite.dateTime(date, .startOfMonth, .month(1), .day(-1))) == "2013-01-31 00:00:00")
            // 2013-01-01 is a Tuesday: the next Sunday is the 6th.
            #expect(try dateTime(GRDBLite.dateTime(date, .startOfDay, .weekday(0))) == "2013-01-06 00:00:00")
            #expect(try dateTime(GRDBLite.dateTime(86400.databaseValue, .unixEpoch)) == "1970-01-02 00:00:00")
        }
    }

    @Test func julianDayIsAReal() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let day = try SQLRequest<Double>("SELECT \(julianDay("2013-01-01 12:00:00".databaseValue, .day(1)))")
                .fetchOne(db)
            #expect(day == 2_456_295.0)
            let fromDate = try Double.fetchOne(db, julianDay(Column("d")), from: "2000-01-01 12:00:00")
            #expect(fromDate == 2_451_545.0)
        }
    }

    @Test func modifiersAreStringArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TEMP TABLE event(date TEXT)")
            let request = Table("event").select(dateTime(Column("date"), .startOfYear, .minute(-5)))
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT DATETIME("date", ?, ?) FROM "event""#)
            #expect(statement.arguments == ["start of year", "-5 minutes"])
        }
    }
}

extension Double {
    /// The value of `expression` where `d` is `date`.
    fileprivate static func fetchOne(_ db: Database, _ expression: SQLExpression, from date: String) throws -> Double? {
        try SQLRequest<Double>("SELECT \(expression) FROM (SELECT \(date) AS d)").fetchOne(db)
    }
}
