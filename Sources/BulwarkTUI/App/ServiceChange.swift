import BulwarkCore
import BulwarkUpgrades

/// What `u` is about to change at a service, asked before the service is
/// told (`confirm-service-changes`, on unless the config turns it off).
/// Sign in with Apple and passkeys ask on their own sheets, which come
/// before the service changes anything (Continue or Save there).
public struct ServiceChange: Sendable, Equatable {
    public let request: UpgradeRequest
    /// The entry's title, as the upgrade's screens name it.
    public let title: String
    public let question: String
    public let detail: String

    init(_ request: UpgradeRequest, entry: Entry, catalog: ServiceCatalog) {
        self.request = request
        title = entry.title
        let service = catalog.manifest(forHost: entry.site)?.name ?? entry.title
        let account = entry.username.isEmpty ? "this account" : entry.username
        question = "Change the password at \(service)?"
        detail = "bulwark makes a strong password and tells \(service) to use it for \(account)"
            + (request.origin == .inApp ? ", through \(service)'s app. " : ". ")
            + "The vault keeps the old one in the entry's history; \(service) may ask for a code first."
    }

    /// Said when the question is answered no.
    var cancelled: String { "\(title): nothing was sent to the service." }
}
