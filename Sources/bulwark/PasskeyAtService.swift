import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Passkeys at the mock services that accept them (`supportsPasskeys` in a
/// manifest): `services enroll ENTRY --passkey` registers one for the
/// entry's account through the service's relying party, and `signin ENTRY
/// --with passkey` signs in with it, both through the WebAuthn ceremonies
/// a browser would run at the service's own origin.
enum PasskeyAtService {
    static func enroll(_ parsed: ParsedCommandLine, name: String) -> Int32 {
        ServiceWiring.withMockServices(parsed) { vault, world, _ in
            let entry = try vault.find(name)
            guard let (manifest, rp) = try relyingParty(for: entry, world: world) else { return 1 }
            // The account's handle: the one its passkeys there already use, else a new random one.
            let handle = entry.passkeys.first { $0.rpID == rp.rpID }?.userHandle ?? SecureRandom.bytes(16)
            let options = try CreationOptions.parse(try rp.registrationOptions(user: entry.username, userHandle: handle))
            let created: PasskeyAuthenticator.Created
            do {
                created = try PasskeyAuthenticator.create(options, origin: "https://\(rp.rpID)", existing: entry.passkeys, now: Date())
                try rp.finishRegistration(created.response)
            } catch {
                Output.error("\(manifest.name) did not take the passkey: \(error). Nothing was changed.")
                return 1
            }
            _ = try vault.update(entry.id) { $0.passkeys.append(created.passkey) }
            print("Registered a passkey for \(entry.username) at \(manifest.name) (mock); it is kept in \(entry.title).")
            return 0
        }
    }

    /// `services enroll ENTRY --security-key`: the USB key plugged in gets a
    /// credential for the account at its service (the key keeps it; the vault keeps nothing).
    static func enrollSecurityKey(_ parsed: ParsedCommandLine, name: String, keys: SecurityKeyProvider) -> Int32 {
        ServiceWiring.withMockServices(parsed) { vault, world, _ in
            let entry = try vault.find(name)
            guard let (manifest, rp) = try relyingParty(for: entry, world: world) else { return 1 }
            guard let key = keys.devices().first else {
                Output.error("no USB security key is plugged in (libfido2 found none). Nothing was changed.")
                return 1
            }
            Output.stderr("bulwark: touch \(key.name) when it blinks.\n")
            let options = try CreationOptions.parse(try rp.registrationOptions(user: entry.username, userHandle: rp.userHandle(of: entry.username),
                                                                                 secondFactor: true))
            do {
                try rp.finishRegistration(try key.register(options, origin: "https://\(rp.rpID)"))
            } catch {
                Output.error("\(manifest.name) did not take the key: \(error). Nothing was changed.")
                return 1
            }
            print("Registered \(key.name) for \(entry.username) at \(manifest.name) (mock); the key keeps it.")
            return 0
        }
    }

    static func signIn(_ entry: Entry, world: any ServiceDirectory) throws -> Int32 {
        guard let manifest = try passkeyService(for: entry, world: world) else { return 1 }
        switch try SignInSimulator.signInWithPasskey(entry, world: world) {
        case .accepted:
            print("Signed in to \(entry.title) with a passkey (as \(entry.username)).")
            return 0
        case .refused(let reason) where reason.hasPrefix("the entry holds no passkey"):
            Output.error("\(entry.title) holds no passkey that \(manifest.name) knows; `bulwark services enroll \(entry.title) --passkey` registers one.")
            return 1
        case .refused(let reason):
            Output.error("\(entry.title) refused the sign-in: \(reason).")
            return 1
        }
    }

    /// The entry's service when it takes passkeys; nil (with the reason said) when there is none.
    static func passkeyService(for entry: Entry, world: any ServiceDirectory) throws -> ServiceManifest? {
        guard let manifest = world.catalog.manifest(forHost: entry.site) else {
            Output.error("bulwark has no service for \(entry.site.isEmpty ? entry.title : entry.site).")
            return nil
        }
        guard try world.passkeyRelyingParty(for: manifest) != nil else {
            Output.error("\(manifest.name) does not accept passkeys.")
            return nil
        }
        return manifest
    }

    /// The entry's service and the mock relying party that registers its passkeys.
    static func relyingParty(for entry: Entry, world: ServiceWorld) throws -> (ServiceManifest, MockRelyingParty)? {
        guard let manifest = try passkeyService(for: entry, world: world), let rp = try world.relyingParty(for: manifest) else { return nil }
        return (manifest, rp)
    }
}
