import BulwarkCore
import Foundation
import Testing

/// Days and backup stamps on the C library's UTC calendar read and write
/// exactly what Foundation's formatters and Gregorian calendar do (which
/// the app no longer loads, for ICU's memory), over dates from 1970 to
/// 2200 and over days that do not exist.
@Suite struct CalendarDayTests {
    static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    @Test func daysAndStampsAreFoundationsOwn() {
        let day = Self.formatter("yyyy-MM-dd"), stamp = Self.formatter("yyyyMMdd-HHmmss")
        var generator = SystemRandomNumberGenerator()
        var dates = [0, 951_782_400 - 1, 951_782_400, 951_782_399.9996, 951_782_399.9994, 4_102_444_800, 7_258_118_399.5].map { Date(timeIntervalSince1970: $0) }
        for _ in 0..<3_000 { dates.append(Date(timeIntervalSince1970: Double.random(in: 0..<7_258_118_400, using: &generator))) }
        for date in dates {
            #expect(CalendarDay.string(date) == day.string(from: date))
            #expect(CalendarDay.stamp(date) == stamp.string(from: date))
            #expect(CalendarDay.parseStamp(CalendarDay.stamp(date)) == stamp.date(from: stamp.string(from: date)))
            #expect(CalendarDay.parse(CalendarDay.string(date)) == day.date(from: day.string(from: date)))
        }
    }

    @Test func onlyDaysThatExistAreRead() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for year in [1999, 2000, 2023, 2024, 2100] {
            for month in 0...13 {
                for day in 0...32 {
                    let text = String(format: "%04d-%02d-%02d", year, month, day)
                    let components = DateComponents(year: year, month: month, day: day)
                    let expected = components.isValidDate(in: calendar) ? calendar.date(from: components) : nil
                    #expect(CalendarDay.parse(text) == expected, "\(text)")
                }
            }
        }
        for text in ["", "2024-1-01", "2024-01-1", "2024/01/01", "2024-01-01 ", "+024-01-01", "２０２４-01-01", "2024-01-0a", "20240101"] {
            #expect(CalendarDay.parse(text) == nil, "\(text)")
        }
        #expect(CalendarDay.parseStamp("20240230-000000") == nil && CalendarDay.parseStamp("20240101-240000") == nil)
        #expect(CalendarDay.parseStamp("20240101-235959") == Date(timeIntervalSince1970: 1_704_153_599))
    }
}
