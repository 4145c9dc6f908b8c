import Foundation

/// A chapter's title card in `bulwark demo --tour`: what the flow is and
/// why it matters to the account's owner, shown before the flow plays.
public struct TitleCard: Sendable, Equatable {
    public let chapter: Int
    public let of: Int
    public let title: String
    public let what: String
    public let why: String
}

/// `bulwark demo --tour`: the upgrade flows for stakeholders, in an order
/// that tells a story (find the worst, fix it in one key, the harder
/// services, the ways away from passwords, what happens when things fail),
/// each after its title card, in at most five minutes at speed 1.
public enum Tour {
    public struct Chapter: Sendable {
        public let scenario: String
        public let what: String
        public let why: String
    }

    public static let chapters: [Chapter] = [
        Chapter(scenario: "worst-first",
                what: "Security Recommendations put the most dangerous account first, and one key fixes it.",
                why: "People fix what they are shown first: a password on every attacker's list outranks an old one."),
        Chapter(scenario: "strong-password-totp",
                what: "A bank asks for a second factor before the password changes; the code comes from the vault.",
                why: "A real service checks it is you. The upgrade goes through its own 2FA, not around it."),
        Chapter(scenario: "sms-step-up",
                what: "A service texts a code bound to its domain; bulwark reads it from Messages.",
                why: "The code is only offered for the site it was sent for, so a phishing page cannot use it."),
        Chapter(scenario: "sign-in-with-apple-hidden",
                what: "An account converted to Sign in with Apple, with a private relay address.",
                why: "No password left to leak or reuse, and the service never learns the real email address."),
        Chapter(scenario: "upgrade-to-passkey",
                what: "A weak, reused password replaced with a passkey the vault keeps.",
                why: "A passkey cannot be phished, reused or leaked from the service: the strongest fix there is."),
        Chapter(scenario: "oauth-sign-in",
                what: "Signing in through an identity provider, its login filled from the vault.",
                why: "One strong account guards many: bulwark ranks the provider's password by what depends on it."),
        Chapter(scenario: "failure-with-reason",
                what: "A service refuses the new password and says why; nothing in the vault changes.",
                why: "Nothing is lost when a service says no: the old password still signs in, and the reason is shown."),
    ]

    /// Seconds the title card stays up before the flow starts (at speed 1).
    public static let cardSeconds = 6.0

    /// A chapter's scenario: its title card, then the flow itself.
    public static func scenario(_ number: Int, from flow: Scenario) -> Scenario {
        let chapter = chapters[number]
        let card = TitleCard(chapter: number + 1, of: chapters.count, title: flow.title, what: chapter.what, why: chapter.why)
        return Scenario(name: flow.name, title: flow.title, shows: flow.shows,
                        steps: [(0, .card(card)), (0, .pause(cardSeconds)), (0, .card(nil))] + flow.steps)
    }

    /// How long a scenario takes at speed 1, its waits counted as a second
    /// each (the demo's services answer in well under that).
    public static func estimatedSeconds(_ scenario: Scenario) -> Double {
        var seconds = 0.6
        for (_, step) in scenario.steps {
            switch step {
            case .caption: seconds += Autoplay.captionHold
            case .type(let text): seconds += Double(max(0, text.count - 1)) * Autoplay.typeGap + Autoplay.keyGap
            case .keys(let keys): seconds += Double(keys.count) * Autoplay.keyGap
            case .wait: seconds += 1
            case .repeatUntil: seconds += 3
            case .pause(let pause): seconds += pause
            case .appleID, .transfer: seconds += Autoplay.keyGap
            case .news: break
            case .card: break
            }
        }
        return seconds
    }
}
