import BulwarkCore
import Foundation

extension ServiceWorld {
    /// A change in the person's Apple ID settings for the entry's service:
    /// the identity provider records it and posts the signed event to the
    /// service's backend (`bulwark services notify`, demos and tests).
    @discardableResult
    public func notify(_ kind: MockIdentityProvider.Notification, entry: Entry) throws -> MockIdentityProvider.Event {
        guard let link = entry.signInWithApple else { throw MockBackend.Refusal(reason: "\(entry.title) does not sign in with Apple") }
        guard let manifest = catalog.manifest(forHost: entry.site) else {
            throw MockBackend.Refusal(reason: "bulwark has no service for \(entry.site.isEmpty ? entry.title : entry.site)")
        }
        try identityProvider.notify(kind, user: link.user, team: manifest.teamID)
        return try backend(for: manifest).receive(notification: identityProvider.signEvent(kind, user: link.user, audience: manifest.appID))
    }
}
