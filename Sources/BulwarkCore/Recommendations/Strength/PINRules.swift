import Foundation

/// Why a numeric PIN is easy to guess. PINs are judged by these rules, not
/// by zxcvbn: every short PIN has little entropy, so the question is
/// whether it is among the first a thief tries.
public enum PINWeakness: String, Sendable, Equatable {
    case tooShort = "too-short"
    case common
    case repeats
    case sequence
    case date

    public var reason: String {
        switch self {
        case .tooShort: "the PIN has fewer than 4 digits"
        case .common: "it is one of the most common PINs"
        case .repeats: "the PIN repeats a digit or a group of digits"
        case .sequence: "the PIN is a run of digits (like 1234 or 9753)"
        case .date: "the PIN looks like a date or a year"
        }
    }
}

public enum PINRules {
    /// Common PINs not already caught as repeats, runs or dates: the top of
    /// published PIN-frequency studies, and straight lines on a keypad.
    static let common: Set<String> = [
        "1004", "6969", "4200", "1122", "1313", "2580", "0852", "1470", "3690", "1379", "7931",
        "2468", "1357", "5683", "0007", "1999", "1231", "112233", "159753", "123654", "147258", "258369",
        "147852", "789456", "142536", "696969", "102030", "101010", "100200",
    ]

    /// An entry holds a PIN when it is tagged `pin`, or when its password is
    /// 4 to 8 digits and it has no website (a card, a phone, a door).
    public static func isPIN(_ entry: Entry) -> Bool {
        guard let password = entry.password, isDigits(password) else { return false }
        if entry.tags.contains(where: { $0.lowercased() == "pin" }) { return true }
        return entry.firstURL == nil && (4...8).contains(password.count)
    }

    static func isDigits(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }

    /// The first rule a PIN breaks, or nil when it is not an obvious guess.
    public static func weakness(of pin: String) -> PINWeakness? {
        let digits = pin.utf8.map { Int($0) - 0x30 }
        if digits.count < 4 { return .tooShort }
        if isRepeat(digits) { return .repeats }
        if isRun(digits) { return .sequence }
        if common.contains(pin) { return .common }
        if isDate(digits) { return .date }
        return nil
    }

    /// One block repeated: 0000, 1212, 123123.
    static func isRepeat(_ d: [Int]) -> Bool {
        (1...d.count / 2).contains { block in d.count % block == 0 && d.indices.allSatisfy { d[$0] == d[$0 % block] } }
    }

    /// Constant step of 1 or 2 either way: 1234, 4321, 13579, 8642.
    static func isRun(_ d: [Int]) -> Bool {
        let step = d[1] - d[0]
        return [1, 2, -1, -2].contains(step) && zip(d, d.dropFirst()).allSatisfy { $1 - $0 == step }
    }

    /// A year (1900 to 2099), or a day and month in either order, alone or
    /// with a two- or four-digit year.
    static func isDate(_ d: [Int]) -> Bool {
        func number(_ slice: ArraySlice<Int>) -> Int { slice.reduce(0) { $0 * 10 + $1 } }
        func dayMonth(_ a: Int, _ b: Int) -> Bool { (1...31).contains(a) && (1...12).contains(b) }
        func isDayMonth(_ x: ArraySlice<Int>) -> Bool {
            let a = number(x.prefix(2)), b = number(x.suffix(2))
            return dayMonth(a, b) || dayMonth(b, a)
        }
        func isYear(_ x: ArraySlice<Int>) -> Bool { (1900...2099).contains(number(x)) }
        let all = d[...]
        switch d.count {
        case 4: return isYear(all) || isDayMonth(all)
        case 6: return isDayMonth(all.prefix(4)) || isDayMonth(all.suffix(4))
        case 8: return (isDayMonth(all.prefix(4)) && isYear(all.suffix(4))) || (isYear(all.prefix(4)) && isDayMonth(all.suffix(4)))
        default: return false
        }
    }
}
