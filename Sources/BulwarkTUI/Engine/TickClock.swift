import Foundation

/// When the run loop's next tick is due. A tick is time passing (the
/// code's countdown, the idle lock, the look for other writers), once a
/// second, or every 40 ms while something works (the spinner). The loop
/// also wakes when an effect finishes; that wake is not a tick: a tick
/// starts the look for other writers, whose end wakes the loop, so counting
/// each wake as a tick kept an idle app looking, again and again, on a core.
public struct TickClock {
    public static let idleInterval = 1.0
    public static let busyInterval = 0.04
    private var last: Date

    public init(start: Date) { last = start }

    /// How long to wait for a key before the next tick is due.
    public func waitMilliseconds(now: Date, busy: Bool) -> Int {
        let remaining = interval(busy) - now.timeIntervalSince(last)
        return max(0, Int((remaining * 1000).rounded()))
    }

    /// Whether a tick is due now; when it is, the next one is counted from now.
    public mutating func takeTick(now: Date, busy: Bool) -> Bool {
        // Within a millisecond counts: a wait rounded to whole milliseconds may end a little early.
        guard now.timeIntervalSince(last) >= interval(busy) - 0.001 else { return false }
        last = now
        return true
    }

    private func interval(_ busy: Bool) -> Double { busy ? Self.busyInterval : Self.idleInterval }
}
