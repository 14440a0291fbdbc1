import Testing
@testable import GRDBLite

@Suite struct CivilCalendarTests {
    @Test func daysAreTheInverseOfDates() {
        // 0000-01-01 and 9999-12-31, the range of the text formats.
        let first = CivilCalendar.days(year: 0, month: 1, day: 1)
        let last = CivilCalendar.days(year: 9999, month: 12, day: 31)
        #expect(first == -719_528)
        #expect(last == 2_932_896)
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        // Every day between: the date the writer gives it reads back as it.
        var mismatches: [Int] = []
        for days in first...last {
            let (year, month, day) = CivilCalendar.date(days: days)
            if CivilCalendar.days(year: year, month: month, day: day) != days { mismatches.append(days) }
        }
        #expect(mismatches.prefix(10) == [])
    }
}
