import BulwarkCore
import BulwarkUpgrades
import Foundation

/// What an upgrade did, for the panel that stays until it is dismissed:
/// the account's findings before and after, what the service did, and what
/// changed in the vault (or that nothing did). A class: it is rarely shown,
/// and every copy of `AppState` would otherwise carry its arrays inline.
public final class UpgradeResult: Sendable, Equatable {
    public enum Ending: Sendable, Equatable { case upgraded, failed, cancelled }

    public let ending: Ending
    public let entryID: String
    public let heading: String
    public let before: [String]
    /// The findings' severity before, coloured as the list and the detail colour it.
    public let beforeSeverity: Severity?
    public let after: [String]
    public let service: String
    public let vault: [String]

    init(ending: Ending, entryID: String, heading: String, before: [String], beforeSeverity: Severity? = nil, after: [String],
         service: String, vault: [String]) {
        self.ending = ending
        self.entryID = entryID
        self.heading = heading
        self.before = before
        self.beforeSeverity = beforeSeverity
        self.after = after
        self.service = service
        self.vault = vault
    }

    public static func == (a: UpgradeResult, b: UpgradeResult) -> Bool {
        a.ending == b.ending && a.entryID == b.entryID && a.heading == b.heading && a.before == b.before && a.beforeSeverity == b.beforeSeverity
            && a.after == b.after && a.service == b.service && a.vault == b.vault
    }

    /// A finished upgrade. `entry` is the upgraded entry as the vault now holds it.
    static func completed(_ outcome: UpgradeOutcome, title: String, before: Recommendation?, after: Recommendation?, entry: Entry?,
                          generatorBits: Double?, cancelledTooLate: Bool) -> UpgradeResult {
        var now = after == nil ? ["No findings remain"] : findings(after)
        switch outcome.kind {
        case .strongPassword:
            // What the generator guarantees for the site's rules (the same
            // every time); a password the service chose is estimated instead.
            if !outcome.substituted, let generatorBits {
                now.insert("Strong: about \(Int(generatorBits.rounded())) bits, made for \(outcome.serviceName)'s password rules", at: 0)
            } else if let password = entry?.password {
                now.insert("About \(Int(StrengthMeter.measure(password).bits.rounded())) bits by estimate, chosen by \(outcome.serviceName)", at: 0)
            }
        case .signInWithApple:
            now.insert("No password to steal: the account signs in with Apple", at: 0)
        case .passkey:
            now.insert("Nothing to phish or reuse: the account signs in with a passkey", at: 0)
        }
        var vault: [String]
        switch outcome.kind {
        case .strongPassword:
            vault = ["The new password is saved; the old one is kept in the entry's history (h shows it)."]
        case .signInWithApple:
            vault = ["The password and its history were removed; the entry records the sign-in with Apple"
                     + (outcome.email.map { " (\($0)\(outcome.isPrivateRelay ? ", hidden" : ""))" } ?? "") + "."]
        case .passkey:
            vault = ["The passkey is saved in the entry; the password it replaced is kept in history (h shows it)."]
        }
        if let also = outcome.alsoUpdatedLine { vault.append(also) }
        if cancelledTooLate { vault.insert("Esc came after \(outcome.serviceName) had made the change, so it stands.", at: 0) }
        return UpgradeResult(ending: .upgraded, entryID: outcome.entryID,
                             heading: "\(title): \(headings[outcome.kind] ?? "")",
                             before: findings(before), beforeSeverity: before?.severity, after: now, service: outcome.headline, vault: vault)
    }

    static let headings: [UpgradeKind: String] = [
        .strongPassword: "upgraded to a strong password", .signInWithApple: "converted to Sign in with Apple", .passkey: "upgraded to a passkey",
    ]

    /// An upgrade the service refused or could not finish. `kept`: the rare
    /// case where a change the service made is kept staged to settle later.
    static func failed(reason: String, kept: Bool, title: String, entryID: String, before: Recommendation?) -> UpgradeResult {
        let lines = findings(before)
        return UpgradeResult(ending: .failed, entryID: entryID, heading: "\(title): the upgrade did not finish",
                             before: lines, beforeSeverity: before?.severity, after: lines, service: reason,
                             vault: [kept ? "The change is kept staged and will be settled on the next start." : "Nothing was changed."])
    }

    static func cancelled(title: String, entryID: String, service: String, before: Recommendation?) -> UpgradeResult {
        let lines = findings(before)
        return UpgradeResult(ending: .cancelled, entryID: entryID, heading: "\(title): cancelled", before: lines,
                             beforeSeverity: before?.severity, after: lines,
                             service: "\(service.isEmpty ? "The service" : service) was told to stop before it changed anything.",
                             vault: ["Nothing was changed."])
    }

    /// One short line per finding, worst first.
    static func findings(_ recommendation: Recommendation?) -> [String] {
        guard let recommendation else { return ["No findings"] }
        return [recommendation.severity.label.prefix(1).uppercased() + recommendation.severity.label.dropFirst()]
            + recommendation.warnings.map(line)
    }

    static func line(_ warning: Warning) -> String {
        switch warning {
        case .breached(let count, _) where count == 0: "On a list of the most common passwords"
        case .breached(let count, _): "Seen in data breaches \(Count.grouped(count)) \(count == 1 ? "time" : "times")"
        case .reused(let group): "Also used on \(group.otherCount == 1 ? "1 other account" : "\(Count.grouped(group.otherCount)) other accounts")"
        case .weak(let bits, _, let why): bits.map { "Weak, about \(Int($0.rounded())) bits: \(why)" } ?? "Weak: \(why)"
        case .insecureURL: "The sign-in page is not encrypted (http)"
        case .old(_, let days): "Not changed in over \(days / 365 <= 1 ? "a year" : "\(days / 365) years")"
        case .noTwoFactor(let method): "No verification code set up (\(method))"
        case .passkeyAvailable: "Could sign in with a passkey instead"
        case .identityProvider(let accounts): "\(accounts.count == 1 ? "1 account signs" : "\(Count.grouped(accounts.count)) accounts sign") in with it"
        }
    }
}

/// An entry's old passwords, browsed one at a time: each stays masked
/// until asked for, and moving hides it again.
public struct HistoryBrowser: Sendable, Equatable {
    public let entryID: String
    public var list = ListScroll()
    /// The one old password shown, by its position in the history, and
    /// since when (it hides again after the reveal time, like the password).
    public var revealed: Int?
    public var revealedSince: Date?

    public init(entryID: String) { self.entryID = entryID }
}
