import BulwarkCore
import Foundation

/// Sign in with Apple's server-to-server notifications: when a person
/// changes something in their Apple ID settings, the identity provider
/// posts a signed event to the service's backend (a JWT whose `events`
/// claim holds the event as JSON, as Apple's do), and the backend acts on
/// it. The vault learns of it from the backend, as an app would from its
/// own server.
extension MockIdentityProvider {
    public struct Event: Sendable, Equatable {
        public let kind: Notification
        public let subject: String
        public let time: Date
    }

    /// The signed event for one app's backend.
    public func signEvent(_ kind: Notification, user: String, audience: String) -> String {
        let now = clock()
        let event: [String: Any] = ["type": kind.rawValue, "sub": user, "event_time": Int64(now.timeIntervalSince1970 * 1000)]
        let eventJSON = String(decoding: (try? JSONSerialization.data(withJSONObject: event, options: .sortedKeys)) ?? Data(), as: UTF8.self)
        let payload: [String: Any] = ["iss": Self.issuer, "aud": audience, "iat": Int64(now.timeIntervalSince1970),
                                      "jti": SecureRandom.bytes(16).hex, "events": eventJSON]
        return signJWT(payload)
    }

    /// Checks an event's signature, issuer, audience and age (a day at most).
    public func verifyEvent(_ token: String, audience: String) throws(Refusal) -> Event {
        guard let object = verifiedPayload(token), object["iss"] as? String == Self.issuer,
              let iat = (object["iat"] as? NSNumber)?.doubleValue, let eventText = object["events"] as? String,
              let event = try? JSONSerialization.jsonObject(with: Data(eventText.utf8)) as? [String: Any],
              let type = (event["type"] as? String).flatMap(Notification.init(rawValue:)), let subject = event["sub"] as? String else {
            throw .badSignature
        }
        guard object["aud"] as? String == audience else { throw .wrongAudience }
        let issued = Date(timeIntervalSince1970: iat)
        guard issued <= clock().addingTimeInterval(60), issued > clock().addingTimeInterval(-86_400) else { throw .expired }
        return Event(kind: type, subject: subject, time: issued)
    }
}

extension MockBackend {
    /// A notification posted to this backend: verified, accepted once, acted
    /// on (consent-revoked signs the person out; account-delete deletes the
    /// account, as Apple asks of apps; the e-mail events record whether the
    /// relay forwards), and kept for the vault to take.
    public func receive(notification token: String) throws -> MockIdentityProvider.Event {
        let event: MockIdentityProvider.Event
        do { event = try identityProvider.verifyEvent(token, audience: manifest.appID) } catch {
            throw Refusal(reason: "the notification was refused: \(error.reason)")
        }
        // An e-mail event is about the relay's forwarding: for an account that shared its real address it is wrong, whoever sent it.
        if event.kind == .emailDisabled || event.kind == .emailEnabled {
            let relayed = try db.query("SELECT apple_relay FROM accounts WHERE apple_user = ?", [.text(event.subject)]).first?[0].integer == 1
            guard relayed else {
                throw Refusal(reason: "the notification was refused: \(event.kind.rawValue) is only for an account that uses the private relay, and this one shares its real address")
            }
        }
        guard try spend(token) else { throw Refusal(reason: "the notification was already delivered") }
        try signOut(appleUser: event.subject, because: event.kind)
        return event
    }

    /// Acts on an event (or on a refresh token that stopped validating) and
    /// keeps it for the vault to take.
    func signOut(appleUser: String, because kind: MockIdentityProvider.Notification) throws {
        let subject = SQLiteDatabase.Value.text(appleUser)
        switch kind {
        case .consentRevoked:
            try db.query("DELETE FROM sessions WHERE user IN (SELECT user FROM accounts WHERE apple_user = ?)", [subject])
            try db.query("INSERT OR REPLACE INTO apple_state(apple_user, revoked) VALUES (?, 1)", [subject])
        case .accountDelete:
            try db.query("DELETE FROM sessions WHERE user IN (SELECT user FROM accounts WHERE apple_user = ?)", [subject])
            try db.query("DELETE FROM accounts WHERE apple_user = ?", [subject])
        case .emailDisabled, .emailEnabled:
            break
        }
        try db.query("INSERT INTO apple_events(apple_user, kind) VALUES (?, ?)", [subject, .text(kind.rawValue)])
    }

    /// Events received for an Apple user, oldest first; taking them clears them.
    public func takeEvents(appleUser: String) throws -> [MockIdentityProvider.Notification] {
        let rows = try db.query("SELECT kind FROM apple_events WHERE apple_user = ? ORDER BY id", [.text(appleUser)])
        try db.query("DELETE FROM apple_events WHERE apple_user = ?", [.text(appleUser)])
        return rows.compactMap { $0[0].text.flatMap(MockIdentityProvider.Notification.init(rawValue:)) }
    }

    /// Whether the person revoked this app's Sign in with Apple and has not signed in with Apple since.
    public func isRevoked(appleUser: String) throws -> Bool {
        try db.query("SELECT revoked FROM apple_state WHERE apple_user = ?", [.text(appleUser)]).first?[0].integer == 1
    }

    public func clearRevoked(appleUser: String) throws {
        try db.query("DELETE FROM apple_state WHERE apple_user = ?", [.text(appleUser)])
    }
}
