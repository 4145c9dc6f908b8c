import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Sign in with Apple from the app outside an upgrade: signing up (the
/// sheet shows the person's Apple ID and the relay the service would get;
/// continuing creates the account and its entry), and demos' Apple ID events.
extension AppSession {
    public enum SignUpResult: Sendable, Equatable {
        case done(SessionSnapshot, entryID: String, summary: String)
        case refused(String)
    }

    /// The sheet for a service, and the relay address Hide My Email would give it.
    public func signUpSheet(serviceID: String) -> (sheet: SignInWithAppleSheet, relay: String?)? {
        lock.withLock {
            guard let world, let manifest = world.catalog.manifest(id: serviceID) else { return nil }
            let sheet = SignInWithAppleSheet(serviceName: manifest.name, fullName: appleID.fullName, sharedEmail: appleID.email, hideEmail: false,
                                             scopes: manifest.requestedAppleIDScopes)
            return (sheet, try? world.identityProvider.relayAddress(appleID: appleID.email, team: manifest.teamID))
        }
    }

    public func signUpWithApple(serviceID: String, hideEmail: Bool) -> SignUpResult {
        lock.withLock {
            guard let vault, var world, let manifest = world.catalog.manifest(id: serviceID) else { return .refused("the vault is locked") }
            do {
                // The new account lives at the service from now on: its state beside the vault.
                if world.isTemporary { world = try keepWorldBesideVault(vault) }
                let outcome = try SignUpWithApple.run(manifest: manifest, vault: vault, world: world, appleID: appleID, hideEmail: hideEmail)
                refresh([outcome.entry.id])  // the new entry joins the analysis
                return .done(makeSnapshot(), entryID: outcome.entry.id, summary: outcome.summary)
            } catch let refusal as MockBackend.Refusal {
                return .refused("\(manifest.name): \(refusal.reason).")
            } catch {
                return .refused("\(manifest.name): \(error)")
            }
        }
    }

    /// For demos: the person changes their Apple ID settings for an entry's
    /// service; the service gets the signed event (what the vault shows
    /// follows at the next unlock, as it would). Returns a line to show.
    public func sendAppleIDEvent(_ event: String, entryTitle: String) -> String {
        lock.withLock {
            guard let vault, let world, let kind = MockIdentityProvider.Notification(rawValue: event),
                  let entry = try? vault.find(entryTitle) else { return "No such entry or event." }
            do {
                try world.notify(kind, entry: entry)
                return "The Apple ID's settings sent \(event) to \(world.catalog.manifest(forHost: entry.site)?.name ?? entry.title)."
            } catch let unsent as MockIdentityProvider.NotSent {
                return "\(unsent)."
            } catch {
                return "\(error)"
            }
        }
    }

    /// For demos: a service's app moves to another team (as `bulwark
    /// services transfer` does); the accounts migrate at the next unlock.
    public func transferApp(service: String, toTeam team: String) -> String {
        lock.withLock {
            guard let world, let manifest = world.catalog.manifest(id: service) else { return "No such service." }
            do {
                let moved = try world.identityProvider.transfer(manifest, toTeam: team)
                return "\(manifest.name) moved from team \(manifest.teamID) to \(team); \(moved) Sign in with Apple \(moved == 1 ? "user has" : "users have") a transfer identifier."
            } catch {
                return "\(error)"
            }
        }
    }
}
