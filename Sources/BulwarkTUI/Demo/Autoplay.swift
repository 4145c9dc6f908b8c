import Foundation

/// Plays a scenario against the real app at a human pace, in a terminal:
/// one action per call when its time has come, captions in a banner, and
/// the presenter's keys (Space pauses and resumes, n steps one action while
/// paused, R restarts, q stops), shown in the footer while it plays.
public final class Autoplay {
    public let scenario: Scenario
    public let speed: Double
    private var index = 0
    private var nextAt: Date
    private var typed = 0
    private var keyed = 0
    private var repeats = 0
    private var waitingSince: Date?
    public private(set) var paused = false
    private var stepOnce = false
    public private(set) var failure: String?
    public private(set) var restartRequested = false
    public private(set) var stopRequested = false
    /// In the tour: the presenter asked for the next chapter (+1) or the previous (-1).
    public private(set) var chapterRequested: Int?
    /// Whether it plays a chapter of the tour (← and → move between chapters).
    public let inTour: Bool

    /// Seconds per action at speed 1.
    static let keyGap = 0.45, typeGap = 0.09, captionHold = 1.8, waitLimit = 20.0, maxRepeats = 60

    public init(scenario: Scenario, speed: Double, start: Date = Date(), inTour: Bool = false) {
        self.scenario = scenario
        self.inTour = inTour
        self.speed = max(0.1, speed)
        nextAt = start.addingTimeInterval(0.6 / max(0.1, speed))
    }

    /// Whether `text` is on screen, or in the message the status row shows
    /// (whole: a narrow window cuts it to "… M for more").
    static func shows(_ text: String, screen: String, state: AppState) -> Bool {
        screen.contains(text) || state.banner?.text.contains(text) == true || state.status?.contains(text) == true
    }

    public var finished: Bool { index >= scenario.steps.count || failure != nil || stopRequested }

    /// What the footer shows while it plays: the presenter's keys, not the app's.
    public var presenter: Presenter { Presenter(paused: paused, tour: inTour) }

    /// The presenter's keys; true when the key was theirs.
    public func presenterKey(_ key: Key) -> Bool {
        switch key {
        case .char(" "): paused.toggle(); return true
        case .char("n") where paused: stepOnce = true; return true
        case .char("R"): restartRequested = true; return true
        case .char("q"), .escape: stopRequested = true; return true
        case .right where inTour, .char("]") where inTour: chapterRequested = 1; return true
        case .left where inTour, .char("[") where inTour: chapterRequested = -1; return true
        default: return false
        }
    }

    /// Does what is due; `screen` is the text now on screen. True when something changed.
    public func advance(store: Store, now: Date, screen: () -> String) -> Bool {
        guard !finished, now >= nextAt else { return false }
        if paused && !stepOnce { return false }
        stepOnce = false
        let (line, step) = scenario.steps[index]
        func shows(_ text: String) -> Bool { Autoplay.shows(text, screen: screen(), state: store.state) }
        func done(after seconds: Double) {
            index += 1
            typed = 0
            keyed = 0
            repeats = 0
            waitingSince = nil
            nextAt = now.addingTimeInterval(seconds / speed)
        }
        switch step {
        case .caption(let text):
            store.send(.setCaption(text))
            done(after: Self.captionHold)
        case .type(let text):
            let characters = Array(text)
            store.send(.key(.char(characters[typed])))
            typed += 1
            if typed == characters.count { done(after: Self.keyGap) } else { nextAt = now.addingTimeInterval(Self.typeGap / speed) }
        case .keys(let keys):
            store.send(.key(keys[keyed]))
            keyed += 1
            if keyed == keys.count { done(after: Self.keyGap) } else { nextAt = now.addingTimeInterval(Self.keyGap / speed) }
        case .wait(let text):
            if shows(text) { done(after: 0.3) } else {
                let since = waitingSince ?? now
                waitingSince = since
                if now.timeIntervalSince(since) > Self.waitLimit {
                    failure = "scenario \(scenario.name), line \(line): the screen never showed “\(text)”"
                }
                return false
            }
        case .repeatUntil(let key, let text):
            if shows(text) { done(after: Self.keyGap) } else {
                repeats += 1
                if repeats > Self.maxRepeats {
                    failure = "scenario \(scenario.name), line \(line): “\(text)” never showed after \(Self.maxRepeats) presses"
                    return false
                }
                store.send(.key(key))
                nextAt = now.addingTimeInterval(0.15 / speed)
            }
        case .pause(let seconds):
            done(after: seconds)
        case .appleID(let event, let entry):
            store.send(.appleID(.event(event: event, entryTitle: entry)))
            done(after: Self.keyGap)
        case .transfer(let service, let team):
            store.send(.appleID(.transferApp(service: service, team: team)))
            done(after: Self.keyGap)
        case .news(let text):
            store.send(.unlock(.watchNews(text)))
            done(after: 0)
        case .card(let card):
            store.send(.setTitleCard(card))
            done(after: 0)
        }
        return true
    }
}

/// Plays a scenario with no terminal at all: each action, then its effects
/// awaited; a snapshot of the screen at every caption and at the end.
public enum HeadlessPlayer {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func run(_ scenario: Scenario, store: Store, colors: Bool = true,
                           snapshot: (_ label: String, _ buffer: Buffer, _ bare: Buffer) throws -> Void) async throws {
        // `bare`: the same screen without the caption bar, for pictures that set the caption under it.
        func bare() -> Buffer {
            var state = store.state
            state.caption = nil
            return AppView.render(state, colors: colors)
        }
        func screen() -> String { store.frame().textDump() }
        func shows(_ text: String) -> Bool { Autoplay.shows(text, screen: screen(), state: store.state) }
        func press(_ key: Key) async {
            store.send(.key(key))
            await store.settle()
        }
        for (line, step) in scenario.steps {
            switch step {
            case .caption(let text):
                store.send(.setCaption(text))
                try snapshot(text, store.frame(colors: colors), bare())
            case .type(let text):
                for character in text { await press(.char(character)) }
            case .keys(let keys):
                for key in keys { await press(key) }
            case .wait(let text):
                await store.settle()
                guard shows(text) else {
                    throw Failure(description: "scenario \(scenario.name), line \(line): the screen never showed “\(text)”; it was:\n\(screen())")
                }
            case .repeatUntil(let key, let text):
                var presses = 0
                while !shows(text) {
                    presses += 1
                    guard presses <= Autoplay.maxRepeats else {
                        throw Failure(description: "scenario \(scenario.name), line \(line): “\(text)” never showed after \(Autoplay.maxRepeats) presses")
                    }
                    await press(key)
                }
            case .pause:
                break
            case .appleID(let event, let entry):
                store.send(.appleID(.event(event: event, entryTitle: entry)))
                await store.settle()
            case .transfer(let service, let team):
                store.send(.appleID(.transferApp(service: service, team: team)))
                await store.settle()
            case .news(let text):
                store.send(.unlock(.watchNews(text)))
            case .card(let card):
                store.send(.setTitleCard(card))
            }
        }
        store.send(.setCaption(nil))
        try snapshot("end", store.frame(colors: colors), bare())
    }
}

/// The presenter's state, for the screen: the footer's keys and the Paused badge.
public struct Presenter: Sendable, Equatable {
    public var paused: Bool
    /// Playing the tour: ← and → move between its chapters.
    public var tour = false

    public init(paused: Bool, tour: Bool = false) {
        self.paused = paused
        self.tour = tour
    }

    public var hints: [(key: String, label: String)] {
        [("Space", paused ? "resume" : "pause")] + (paused ? [("n", "one step")] : [])
            + (tour ? [("← →", "chapter")] : []) + [("R", "restart"), ("q", "stop")]
    }
}
