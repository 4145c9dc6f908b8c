import BulwarkTUI
import Foundation
import Testing

@Suite struct TickClockTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    /// Whether a tick is due `seconds` after the start.
    func tick(_ clock: inout TickClock, at seconds: Double, busy: Bool = false) -> Bool {
        clock.takeTick(now: start.addingTimeInterval(seconds), busy: busy)
    }

    @Test func aWakeBeforeTheSecondIsNotATick() {
        var clock = TickClock(start: start)
        // A finished effect wakes the loop 300 ms in: no tick, and the wait left is the rest of the second.
        let early = tick(&clock, at: 0.3)
        #expect(!early)
        #expect(clock.waitMilliseconds(now: start.addingTimeInterval(0.3), busy: false) == 700)
        let due = tick(&clock, at: 1.0)
        #expect(due)
        // Counted again from the tick.
        let again = tick(&clock, at: 1.5)
        #expect(!again)
        #expect(clock.waitMilliseconds(now: start.addingTimeInterval(1.5), busy: false) == 500)
    }

    @Test func whileSomethingWorksATickEvery40Milliseconds() {
        var clock = TickClock(start: start)
        #expect(clock.waitMilliseconds(now: start.addingTimeInterval(0.01), busy: true) == 30)
        let early = tick(&clock, at: 0.03, busy: true)
        #expect(!early)
        let due = tick(&clock, at: 0.04, busy: true)
        #expect(due)
        // Overdue: no wait at all.
        #expect(clock.waitMilliseconds(now: start.addingTimeInterval(0.2), busy: true) == 0)
    }

    /// A wake each 10 ms (effects finishing one after another) makes one tick a second, not one each.
    @Test func aHundredWakesInASecondMakeOneTick() {
        var clock = TickClock(start: start)
        let ticks = (1...100).filter { tick(&clock, at: Double($0) * 0.01) }
        #expect(ticks == [100])
    }
}
