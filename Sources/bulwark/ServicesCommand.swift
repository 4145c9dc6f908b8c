import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `bulwark services`: the manifests and each domain's association, signing
/// an account up (with its password, or with Apple), and what a person's
/// Apple ID settings and an app's transfer send to a service.
enum ServicesCommand {
    static func services(_ parsed: ParsedCommandLine) -> Int32 {
        if parsed.arguments.first == "notify" { return notify(parsed) }
        if parsed.arguments.first == "transfer" { return transfer(parsed) }
        if parsed.arguments.first == "enroll", parsed.flag("--sign-in-with-apple") { return signUpWithApple(parsed) }
        if parsed.arguments.first == "enroll", parsed.flag("--security-key") {
            guard parsed.arguments.count == 2 else { Output.error("usage: bulwark services enroll ENTRY --security-key"); return 2 }
            return PasskeyAtService.enrollSecurityKey(parsed, name: parsed.arguments[1], keys: FIDO2Keys())
        }
        if parsed.arguments.first == "enroll", parsed.flag("--passkey") {
            guard parsed.arguments.count == 2 else { Output.error("usage: bulwark services enroll ENTRY --passkey"); return 2 }
            return PasskeyAtService.enroll(parsed, name: parsed.arguments[1])
        }
        if parsed.arguments.first == "enroll" {
            guard parsed.arguments.count == 2 else { Output.error("usage: bulwark services enroll ENTRY"); return 2 }
            return ServiceWiring.withMockServices(parsed) { vault, world, _ in
                let entry = try vault.find(parsed.arguments[1])
                guard let enrolled = try world.enroll(entry) else {
                    Output.error("bulwark has no service for \(entry.site.isEmpty ? entry.title : entry.site), or the entry has no password.")
                    return 1
                }
                print("Signed \(entry.username) up at \(enrolled.name) (mock).")
                return 0
            }
        }
        guard parsed.arguments.isEmpty else { Output.error("usage: \(servicesUsage)"); return 2 }
        let catalog: ServiceCatalog
        switch ServiceWiring.catalog(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): catalog = loaded
        }
        if parsed.flag("--json") {
            Output.json(catalog.manifests.map { m -> [String: Any] in
                var behaviour: [String: Any] = ["latency_ms": m.behaviour.latencyMs, "step_up": m.behaviour.stepUp.rawValue,
                                                "network_loss_at_sheet": m.behaviour.networkLossAtSheet,
                                                "substitutes_password": m.behaviour.substitutesPassword,
                                                "code_cool_down_minutes": m.behaviour.codeCoolDownMinutes]
                behaviour["failure"] = m.behaviour.failure.map { ["reason": $0.reason.map { $0 as Any } ?? NSNull()] as Any } ?? NSNull()
                // Each domain the manifest claims, and whether the site's apple-app-site-association agrees.
                let verification = m.domains.map { ["domain": $0, "association": catalog.associationState(of: m, domain: $0).rawValue] }
                return ["id": m.id, "name": m.name, "app_id": m.appID, "associated_domains": m.associatedDomains, "domains": verification,
                        "upgrades": UpgradeKind.allCases.filter { m.supports($0) }.map(\.rawValue),
                        "password_rules": m.passwordRules.map { $0 as Any } ?? NSNull(), "two_factor": m.twoFactor.rawValue,
                        "change_password_url": SiteRequirements(services: catalog).changePasswordURL(for: m.primaryDomain).url,
                        "passkeys": m.acceptsPasskeys, "behaviour": behaviour]
            })
            return 0
        }
        if catalog.manifests.isEmpty {
            print("No services: this vault's one-key fixes act on the services given with --services or the config's services. "
                  + "bulwark demo has its own, built-in mock services.")
            return 0
        }
        for m in catalog.manifests {
            let upgrades = [m.supportsStrongPassword ? "strong password" : nil, m.supportsSignInWithApple ? "Sign in with Apple" : nil,
                            m.acceptsPasskeys ? "passkey" : nil].compactMap { $0 }
            let domains = m.domains.map { domain in
                let state = catalog.associationState(of: m, domain: domain)
                return state == .verified ? domain : "\(domain) [\(state.rawValue)]"
            }
            print("\(m.id.padding(toLength: 16, withPad: " ", startingAt: 0))\(m.name) (\(domains.joined(separator: ", "))): "
                  + (upgrades.isEmpty ? "no upgrades" : Self.list(upgrades)) + "; 2FA \(m.twoFactor.rawValue)")
        }
        return 0
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        items.count <= 2 ? items.joined(separator: " and ") : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    static let servicesUsage = "bulwark services [--json] | bulwark services enroll ENTRY [--passkey | --security-key] | bulwark services enroll SERVICE --sign-in-with-apple [--hide-email] [--new-account] | bulwark services notify SERVICE EVENT ENTRY | bulwark services transfer SERVICE TEAMID"

    /// `services transfer SERVICE TEAMID`: the service's app moves to another
    /// developer team; its Sign in with Apple accounts are migrated.
    static func transfer(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 3 else { Output.error("usage: bulwark services transfer SERVICE TEAMID"); return 2 }
        let team = parsed.arguments[2]
        guard team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            Output.error("a team id is ten capital letters and digits, as Apple's are (got \(team)).")
            return 2
        }
        return ServiceWiring.withMockServices(parsed) { vault, world, _ in
            guard let manifest = world.catalog.manifest(id: parsed.arguments[1]) else {
                Output.error("no service named \(parsed.arguments[1]); `bulwark services` lists them.")
                return 2
            }
            guard manifest.teamID != team else { Output.error("\(manifest.name) already belongs to team \(team)."); return 1 }
            let moved = try world.identityProvider.transfer(manifest, toTeam: team)
            print("\(manifest.name) moved from team \(manifest.teamID) to \(team); \(moved) Sign in with Apple \(moved == 1 ? "user has" : "users have") a transfer identifier.")
            // The world as it is from now on: the service under its new app id.
            let after = try ServiceWorld(directory: world.directory, catalog: world.baseCatalog, clock: world.clock, sleep: world.sleep)
            for change in try AppleIDLifecycle.refresh(vault: vault, world: after) { print(change.sentence) }
            return 0
        }
    }

    /// `services enroll SERVICE --sign-in-with-apple`: a new account that signs in with Apple from the start.
    static func signUpWithApple(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 2 else { Output.error("usage: bulwark services enroll SERVICE --sign-in-with-apple [--hide-email]"); return 2 }
        return ServiceWiring.withMockServices(parsed) { vault, world, _ in
            guard let manifest = world.catalog.manifest(id: parsed.arguments[1]) else {
                Output.error("no service named \(parsed.arguments[1]); `bulwark services` lists them.")
                return 2
            }
            // An account there already: a second would be a duplicate; its upgrade is the way (unless asked for).
            let existing = SignUpWithApple.existingAccounts(at: manifest, in: vault.entries, catalog: world.catalog)
            if let first = existing.first, !parsed.flag("--new-account") {
                let others = existing.count > 1 ? " and \(existing.count - 1) more" : ""
                Output.error("the vault already holds an account at \(manifest.name): \(SignUpWithApple.describe(first))\(others). A second one "
                             + "would be a duplicate: upgrade it instead with `bulwark upgrade \(shellQuoted(first.title)) --sign-in-with-apple`, "
                             + "or add --new-account to make another. Nothing was made.")
                return 1
            }
            do {
                let outcome = try SignUpWithApple.run(manifest: manifest, vault: vault, world: world, hideEmail: parsed.flag("--hide-email"))
                print(outcome.summary)
                return 0
            } catch let refusal as MockBackend.Refusal {
                Output.error("\(refusal.reason).")
                return 1
            }
        }
    }

    /// `services notify SERVICE EVENT ENTRY`: what a person's change in their
    /// Apple ID settings sends to the service, and what the vault then shows.
    static func notify(_ parsed: ParsedCommandLine) -> Int32 {
        let events = MockIdentityProvider.Notification.allCases.map(\.rawValue)
        guard parsed.arguments.count == 4, let kind = MockIdentityProvider.Notification(rawValue: parsed.arguments[2]) else {
            Output.error("usage: bulwark services notify SERVICE EVENT ENTRY (EVENT: \(events.joined(separator: ", ")))")
            return 2
        }
        return ServiceWiring.withMockServices(parsed) { vault, world, _ in
            guard let manifest = world.catalog.manifest(id: parsed.arguments[1]) else {
                Output.error("no service named \(parsed.arguments[1]); `bulwark services` lists them.")
                return 2
            }
            let entry = try vault.find(parsed.arguments[3])
            guard world.catalog.manifest(forHost: entry.site)?.id == manifest.id else {
                Output.error("\(entry.title) is not an account at \(manifest.name).")
                return 1
            }
            do { try world.notify(kind, entry: entry) } catch let refusal as MockBackend.Refusal {
                Output.error("\(refusal.reason).")
                return 1
            } catch let unsent as MockIdentityProvider.NotSent {
                Output.error("\(unsent).")
                return 1
            }
            print("\(manifest.name) received \(kind.rawValue) (signed by the identity provider).")
            for change in try AppleIDLifecycle.refresh(vault: vault, world: world) { print(change.sentence) }
            return 0
        }
    }
}
