import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Days as people read and type them (`YYYY-MM-DD`, a day being midnight
/// UTC) and the backups' time stamps, on the C library's UTC calendar
/// (`gmtime_r`, `timegm`). Foundation's DateFormatter and Calendar would
/// load ICU's data for these alone: some 6 MiB of the app's memory from
/// the first entry shown.
public enum CalendarDay {
    /// `2024-05-06`: the UTC day a date falls on.
    public static func string(_ date: Date) -> String {
        let parts = utc(date)
        return digits(Int(parts.tm_year) + 1900, 4) + "-" + digits(Int(parts.tm_mon) + 1, 2) + "-" + digits(Int(parts.tm_mday), 2)
    }

    /// `07:08:09`: a date's UTC time of day, to the second.
    public static func time(_ date: Date) -> String {
        let parts = utc(date)
        return digits(Int(parts.tm_hour), 2) + ":" + digits(Int(parts.tm_min), 2) + ":" + digits(Int(parts.tm_sec), 2)
    }

    /// `20240506-070809`: a date's UTC day and time, to the second.
    public static func stamp(_ date: Date) -> String {
        let parts = utc(date)
        return digits(Int(parts.tm_year) + 1900, 4) + digits(Int(parts.tm_mon) + 1, 2) + digits(Int(parts.tm_mday), 2) + "-"
            + digits(Int(parts.tm_hour), 2) + digits(Int(parts.tm_min), 2) + digits(Int(parts.tm_sec), 2)
    }

    /// Midnight UTC of a `YYYY-MM-DD` day that exists; nil for anything else
    /// (30 February, month 13, a letter, a missing zero).
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D, let year = number(b, 0, 4), let month = number(b, 5, 2),
              let day = number(b, 8, 2) else { return nil }
        return date(year: year, month: month, day: day)
    }

    /// The date a `stamp` names; nil when it is not one.
    public static func parseStamp(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 15, b[8] == 0x2D, let year = number(b, 0, 4), let month = number(b, 4, 2), let day = number(b, 6, 2),
              let hour = number(b, 9, 2), let minute = number(b, 11, 2), let second = number(b, 13, 2) else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The UTC date of these parts when each is in range and the day is in
    /// its month (timegm would carry 30 February into March).
    static func date(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) -> Date? {
        guard year >= 1, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        let (seconds, normalized) = utcSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard normalized.tm_mday == Int32(day), normalized.tm_mon == Int32(month - 1) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// Seconds since 1970 of these UTC parts (`timegm`), with the parts as
    /// it normalised them (a day past its month's end carried into the next).
    static func utcSeconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> (time_t, tm) {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return (seconds, parts)
    }

    /// The parts, to the second, of the date rounded to the millisecond
    /// (as Foundation's formatters take it: 12.9996 s is 13).
    private static func utc(_ date: Date) -> tm {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        var seconds = time_t((milliseconds / 1000).rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return parts
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// The decimal number in `count` bytes from `from`; nil when one is not a digit or they run past the end.
    static func number(_ b: [UInt8], _ from: Int, _ count: Int) -> Int? {
        guard from >= 0, from + count <= b.count else { return nil }
        var value = 0
        for i in from..<(from + count) {
            guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
            value = value * 10 + Int(b[i] - 0x30)
        }
        return value
    }
}
