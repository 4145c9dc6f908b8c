import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// RFC 3339 times in UTC, read and written on bytes: Foundation's
/// ISO8601DateFormatter costs tens of microseconds a call (and one was made
/// per call), which was most of an export of 100,000 entries.
public enum ISODate {
    /// `2024-05-06T07:08:09Z`, or with `.123` milliseconds.
    public static func string(_ date: Date, milliseconds: Bool = false) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        var millis = Int(((interval - Double(seconds)) * 1000).rounded())
        if millis == 1000 { seconds += 1; millis = 0 }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        if milliseconds { text += "." + String(repeating: "0", count: millis < 10 ? 2 : millis < 100 ? 1 : 0) + "\(millis)" }
        return text + "Z"
    }

    /// `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`; nil
    /// for anything else.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? { CalendarDay.number(b, from, count) }
        guard b.count >= 20, let year = number(0, 4), b[4] == 0x2D, let month = number(5, 2), b[7] == 0x2D, let day = number(8, 2),
              b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, let hour = number(11, 2), b[13] == 0x3A, let minute = number(14, 2), b[16] == 0x3A,
              let second = number(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var at = 19
        var fraction = 0.0
        if at < b.count, b[at] == 0x2E {
            at += 1
            var scale = 0.1
            let start = at
            while at < b.count, b[at] >= 0x30 && b[at] <= 0x39 {
                fraction += Double(b[at] - 0x30) * scale
                scale /= 10
                at += 1
            }
            guard at > start else { return nil }
        }
        var offset = 0
        guard at < b.count else { return nil }
        if b[at] == 0x5A || b[at] == 0x7A {
            at += 1
        } else if b[at] == 0x2B || b[at] == 0x2D, let h = number(at + 1, 2), at + 3 < b.count, b[at + 3] == 0x3A, let m = number(at + 4, 2) {
            offset = (h * 3600 + m * 60) * (b[at] == 0x2D ? -1 : 1)
            at += 6
        } else {
            return nil
        }
        guard at == b.count else { return nil }
        let (seconds, _) = CalendarDay.utcSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }
}
