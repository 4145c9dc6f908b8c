import BulwarkUpgrades
import Foundation

/// A demo scenario: a small script that drives the real app.
///
///     # title: One-key upgrade with a TOTP step-up
///     # shows: unlock, Security Recommendations, a code filled from the vault
///     caption Unlock the demo vault          a banner, and a snapshot in headless runs
///     type demo                              typed text
///     key Enter                              keys by name (j, Tab, Esc, Ctrl-C, Down…)
///     wait 8 passwords appear                until the screen shows the text
///     repeat j until ! HIGH  Northwind Bank  a key, until the text shows (at most 60 times)
///     pause 1.5                              seconds, scaled by --speed
///     appleid consent-revoked Shiny          the person changes their Apple ID settings
///                                            for an entry's service (a signed notification)
///     transfer shiny NEWTEAM001              a service's app moves to another developer team
public struct Scenario: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        case caption(String)
        case type(String)
        case keys([Key])
        case wait(String)
        case repeatUntil(Key, String)
        case pause(Double)
        /// A notification the identity provider sends the entry's service.
        case appleID(event: String, entry: String)
        /// A service's app moved to another developer team.
        case transfer(service: String, team: String)
        /// `bulwark watch`'s news put on the lock screen (what the daily watch would have found).
        case news(String)
        /// The tour's title card shown over everything (nil: taken down).
        case card(TitleCard?)
    }

    public let name: String
    public let title: String
    public let shows: String
    /// Each step with its line number in the file.
    public let steps: [(line: Int, step: Step)]

    public static func == (a: Scenario, b: Scenario) -> Bool {
        a.name == b.name && a.steps.map(\.line) == b.steps.map(\.line) && a.steps.map(\.step) == b.steps.map(\.step)
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let name: String
        public let line: Int
        public let reason: String
        public var description: String { "scenario \(name), line \(line): \(reason)" }
    }

    public static func parse(_ text: String, name: String) throws -> Scenario {
        var title = name, shows = ""
        var steps: [(Int, Step)] = []
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let line = index + 1
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                let comment = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
                if comment.hasPrefix("title:") { title = comment.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                if comment.hasPrefix("shows:") { shows = comment.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                continue
            }
            let verb = String(trimmed.prefix { $0 != " " })
            let rest = trimmed.dropFirst(verb.count).trimmingCharacters(in: .whitespaces)
            func fail(_ reason: String) -> ParseError { ParseError(name: name, line: line, reason: reason) }
            switch verb {
            case "news":
                guard !rest.isEmpty else { throw fail("expected 'news TEXT'") }
                steps.append((line, .news(rest)))
            case "caption", "type", "wait":
                guard !rest.isEmpty else { throw fail("'\(verb)' needs text") }
                steps.append((line, verb == "caption" ? .caption(rest) : verb == "type" ? .type(rest) : .wait(rest)))
            case "key":
                let names = rest.split(separator: " ").map(String.init)
                guard !names.isEmpty else { throw fail("'key' needs at least one key name") }
                var keys: [Key] = []
                for name in names {
                    guard let key = Key(name: name) else { throw fail("unknown key '\(name)'") }
                    keys.append(key)
                }
                steps.append((line, .keys(keys)))
            case "repeat":
                let parts = rest.components(separatedBy: " until ")
                guard parts.count >= 2, let key = Key(name: parts[0].trimmingCharacters(in: .whitespaces)) else {
                    throw fail("expected 'repeat KEY until TEXT'")
                }
                let text = parts.dropFirst().joined(separator: " until ").trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { throw fail("expected 'repeat KEY until TEXT'") }
                steps.append((line, .repeatUntil(key, text)))
            case "pause":
                guard let seconds = Double(rest), seconds >= 0, seconds <= 60 else { throw fail("'pause' takes seconds from 0 to 60") }
                steps.append((line, .pause(seconds)))
            case "appleid":
                let event = String(rest.prefix { $0 != " " })
                let entry = rest.dropFirst(event.count).trimmingCharacters(in: .whitespaces)
                guard MockIdentityProvider.Notification(rawValue: event) != nil, !entry.isEmpty else {
                    throw fail("expected 'appleid EVENT ENTRY', EVENT one of \(MockIdentityProvider.Notification.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                steps.append((line, .appleID(event: event, entry: entry)))
            case "transfer":
                let parts = rest.split(separator: " ").map(String.init)
                guard parts.count == 2 else { throw fail("expected 'transfer SERVICE TEAMID'") }
                steps.append((line, .transfer(service: parts[0], team: parts[1])))
            default:
                throw fail("unknown command '\(verb)' (caption, type, key, wait, repeat, pause, appleid, transfer, news)")
            }
        }
        guard !steps.isEmpty else { throw ParseError(name: name, line: 0, reason: "the scenario has no steps") }
        return Scenario(name: name, title: title, shows: shows, steps: steps)
    }
}
