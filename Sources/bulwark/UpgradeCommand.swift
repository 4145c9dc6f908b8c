import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `bulwark upgrade`, `bulwark signin` and `bulwark services`.
enum UpgradeCommand {
    static let completed: Int32 = 0, failed: Int32 = 3, needsCode: Int32 = 4, cancelled: Int32 = 5

    /// The built-in manifests plus `--services DIR` (or the config file's).
    static func catalog(_ parsed: ParsedCommandLine) -> Result<ServiceCatalog, ExitCode> {
        let config: Configuration
        switch Output.configuration(parsed) {
        case .failure(let exit): return .failure(exit)
        case .success(let loaded): config = loaded
        }
        do { return .success(try ServiceCatalog.load(extraDirectory: config.services)) } catch {
            Output.error("services: \(error)")
            return .failure(ExitCode(2))
        }
    }

    /// Opens the vault and its services, settles any upgrade a crash left
    /// staged, then runs `body`.
    static func withServices(_ parsed: ParsedCommandLine, _ body: (Vault, ServiceWorld, PasswordInput) throws -> Int32) -> Int32 {
        let catalog: ServiceCatalog
        switch Self.catalog(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): catalog = loaded
        }
        return VaultCommands.withVault(parsed) { vault, input in
            let world = try ServiceWorld(directory: ServiceWorld.directory(besideVault: vault.path), catalog: catalog)
            for outcome in try Reconciler.reconcile(vault: vault, world: world) {
                Output.stderr("bulwark: \(describe(outcome))\n")
            }
            // Credential states and the services' notifications, asked on every unlock.
            for change in try AppleIDLifecycle.refresh(vault: vault, world: world) { Output.stderr("bulwark: \(change.sentence)\n") }
            return try body(vault, world, input)
        }
    }

    static func describe(_ outcome: Reconciler.Outcome) -> String {
        switch outcome {
        case .settledNewPassword(let title): "settled an interrupted upgrade of \(title): the service has the new password."
        case .keptOldPassword(let title): "dropped an interrupted upgrade of \(title): the service kept the old password."
        case .settledSignInWithApple(let title): "settled an interrupted conversion of \(title) to Sign in with Apple."
        case .keptPassword(let title): "dropped an interrupted conversion of \(title): the service kept the password."
        }
    }

    // MARK: upgrade

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let all = parsed.options["--all-high-priority"] != nil
        let strong = parsed.options["--strong-password"] != nil, apple = parsed.options["--sign-in-with-apple"] != nil
        let codeSources = ["--code", "--code-stdin", "--code-from-vault", "--code-from-messages"].filter { parsed.options[$0] != nil }
        guard codeSources.count <= 1 else { Output.error("give at most one of --code, --code-stdin, --code-from-vault and --code-from-messages."); return 2 }
        if parsed.options["--code"] != nil {
            Output.warning("--code puts the code in the command line, where other users of this machine can read it until it is used; --code-stdin reads it from standard input.")
        }
        if all {
            guard parsed.arguments.isEmpty, !apple else { Output.error("usage: bulwark upgrade --all-high-priority"); return 2 }
            return allHighPriority(parsed)
        }
        guard parsed.arguments.count == 1, strong != apple else {
            Output.error("usage: bulwark upgrade ENTRY --strong-password | --sign-in-with-apple [--hide-email] [--code-stdin | --code-from-vault | --code-from-messages]")
            return 2
        }
        return withServices(parsed) { vault, world, input in
            let entry = try vault.find(parsed.arguments[0])
            let engine = UpgradeEngine(vault: vault, world: world)
            let request = UpgradeRequest(entryID: entry.id, kind: strong ? .strongPassword : .signInWithApple, origin: .entry)
            return finish(drive(engine, request, parsed, input))
        }
    }

    /// Runs one upgrade to its end with what the command line provides.
    static func drive(_ engine: UpgradeEngine, _ request: UpgradeRequest, _ parsed: ParsedCommandLine, _ input: PasswordInput?) -> UpgradeState {
        var state = engine.start(request)
        var triedCode = false
        while !state.isFinished {
            switch state {
            case .stepUp(let screen):
                if triedCode {
                    // One try from the command line; the person can run it again
                    // with another code. The service's message is said once, as the failure.
                    state = engine.cancel()
                    return .failed(reason: screen.message.map { "\(screen.serviceName): \($0) Nothing was changed." } ?? UpgradeState.defaultFailure)
                }
                if let message = screen.message { Output.stderr("bulwark: \(screen.serviceName): \(message)\n") }
                triedCode = true
                switch code(for: screen, engine: engine, parsed, input) {
                case .code(let code): state = engine.submitCode(code)
                case .cancel: state = engine.cancel()
                case .none:
                    _ = engine.cancel()
                    return .stepUp(screen)
                }
            case .sheet:
                _ = engine.chooseEmail(hide: parsed.options["--hide-email"] != nil)
                state = engine.continueWithApple()
            default:
                return state
            }
        }
        return state
    }

    enum CodeAnswer { case code(String), cancel, none }

    static func code(for screen: StepUpScreen, engine: UpgradeEngine, _ parsed: ParsedCommandLine, _ input: PasswordInput?) -> CodeAnswer {
        if let code = parsed.options["--code"] { return .code(code) }
        if parsed.options["--code-stdin"] != nil {
            guard let code = try? input?.next(prompt: "Verification code") else { return .none }
            return .code(code.trimmingCharacters(in: .whitespaces))
        }
        let entry = engine.vault.entries.first { $0.id == engine.request?.entryID }
        if parsed.options["--code-from-vault"] != nil {
            guard let uri = entry?.totpURI, let config = try? OTPAuthURL.parse(uri) else { return .none }
            return .code(config.code(at: Int64(engine.world.clock().timeIntervalSince1970)))
        }
        if parsed.options["--code-from-messages"] != nil {
            guard let code = try? engine.world.inbox.latestCode(forSites: engine.catalog.codeSites(for: entry?.site ?? screen.domain)) else { return .none }
            return .code(code)
        }
        guard parsed.globals.passwordStdin, let input, let line = try? input.next(prompt: "Code") else { return .none }
        return line.isEmpty ? .cancel : .code(line)
    }

    static func finish(_ state: UpgradeState) -> Int32 {
        switch state {
        case .completed(let outcome):
            print(outcome.summary)
            return completed
        case .failed(let reason):
            Output.error(reason)
            return failed
        case .cancelled:
            Output.error("upgrade cancelled; nothing was changed.")
            return cancelled
        case .stepUp(let screen):
            Output.error("\(screen.serviceName) asks for a verification code: \(screen.prompt) Run again with --code-stdin "
                         + "or " + (screen.method == .totp ? "--code-from-vault" : "--code-from-messages") + ". Nothing was changed.")
            return needsCode
        default:
            Output.error(UpgradeState.defaultFailure)
            return failed
        }
    }

    /// High Priority as `bulwark analyze` and the app rank it: the config
    /// file's breach corpora, thresholds and quirks apply here too.
    static func allHighPriority(_ parsed: ParsedCommandLine) -> Int32 {
        let context: AnalysisContext
        switch AnalysisContext.load(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): context = loaded
        }
        return withServices(parsed) { vault, world, _ in
            let analyzer = SecurityAnalyzer(settings: context.config.analysis, breaches: context.breaches,
                                            sharing: .with(context.quirks), services: world.catalog, memo: vault.strengthMemo())
            try analyzer.load(vault.entries)
            vault.keepStrengthMemo(of: analyzer)
            let engine = UpgradeEngine(vault: vault, world: world)
            var done = 0, skipped = 0, failures = 0
            for recommendation in analyzer.report().highPriority {
                guard let entry = vault.entries.first(where: { $0.id == recommendation.id }) else { continue }
                guard case .offered = world.catalog.availability(.strongPassword, for: entry) else {
                    print("skipped   \(entry.title): \(world.catalog.availability(.strongPassword, for: entry).reason ?? "")")
                    skipped += 1
                    continue
                }
                switch drive(engine, UpgradeRequest(entryID: entry.id, kind: .strongPassword, origin: .recommendation), parsed, nil) {
                case .completed(let outcome):
                    print("upgraded  \(entry.title): \(outcome.summary)")
                    done += 1
                case .failed(let reason):
                    print("failed    \(entry.title): \(reason)")
                    failures += 1
                case .stepUp(let screen):
                    print("skipped   \(entry.title): \(screen.serviceName) asks for a verification code")
                    skipped += 1
                default:
                    print("cancelled \(entry.title)")
                    failures += 1
                }
            }
            print("\(done) upgraded, \(failures) failed, \(skipped) skipped.")
            return failures > 0 ? failed : completed
        }
    }

    // MARK: signin

    static func signIn(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: bulwark signin ENTRY [--sign-in-with-apple]"); return 2 }
        return withServices(parsed) { vault, world, _ in
            let entry = try vault.find(parsed.arguments[0])
            let again = parsed.options["--sign-in-with-apple"] != nil
            guard !again || entry.signInWithApple != nil else { Output.error("\(entry.title) does not sign in with Apple."); return 2 }
            switch try SignInSimulator.signIn(entry, world: world, reauthorize: again) {
            case .accepted:
                print("Signed in to \(entry.title)" + (entry.signInWithApple != nil ? " with Apple." : "."))
                for change in try AppleIDLifecycle.refresh(vault: vault, world: world) { Output.stderr("bulwark: \(change.sentence)\n") }
                return 0
            case .refused(let reason):
                Output.error("\(entry.title) refused the sign-in: \(reason).")
                return 1
            }
        }
    }

    // MARK: services

    static func services(_ parsed: ParsedCommandLine) -> Int32 {
        if parsed.arguments.first == "notify" { return notify(parsed) }
        if parsed.arguments.first == "transfer" { return transfer(parsed) }
        if parsed.arguments.first == "enroll", parsed.options["--sign-in-with-apple"] != nil { return signUpWithApple(parsed) }
        if parsed.arguments.first == "enroll" {
            guard parsed.arguments.count == 2 else { Output.error("usage: bulwark services enroll ENTRY"); return 2 }
            return withServices(parsed) { vault, world, _ in
                let entry = try vault.find(parsed.arguments[1])
                guard let manifest = try world.enroll(entry) else {
                    Output.error("no service extension is associated with \(entry.site.isEmpty ? entry.title : entry.site), or the entry has no password.")
                    return 1
                }
                print("Signed \(entry.username) up at \(manifest.name) (mock).")
                return 0
            }
        }
        guard parsed.arguments.isEmpty else { Output.error("usage: \(servicesUsage)"); return 2 }
        let catalog: ServiceCatalog
        switch Self.catalog(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): catalog = loaded
        }
        if parsed.options["--json"] != nil {
            Output.json(catalog.manifests.map { m -> [String: Any] in
                var behaviour: [String: Any] = ["latency_ms": m.behaviour.latencyMs, "step_up": m.behaviour.stepUp.rawValue,
                                                "network_loss_at_sheet": m.behaviour.networkLossAtSheet,
                                                "substitutes_password": m.behaviour.substitutesPassword,
                                                "code_cool_down_minutes": m.behaviour.codeCoolDownMinutes]
                behaviour["failure"] = m.behaviour.failure.map { ["reason": $0.reason.map { $0 as Any } ?? NSNull()] as Any } ?? NSNull()
                // Each domain the manifest claims, and whether the site's apple-app-site-association agrees.
                let verification = m.domains.map { ["domain": $0, "association": catalog.associationState(of: m, domain: $0).rawValue] }
                return ["id": m.id, "name": m.name, "app_id": m.appID, "associated_domains": m.associatedDomains, "domains": verification,
                        "upgrades": UpgradeKind.allCases.filter { $0 == .strongPassword ? m.supportsStrongPassword : m.supportsSignInWithApple }.map(\.rawValue),
                        "password_rules": m.passwordRules.map { $0 as Any } ?? NSNull(), "two_factor": m.twoFactor.rawValue,
                        "change_password_url": SiteRequirements(services: catalog).changePasswordURL(for: m.primaryDomain).url,
                        "behaviour": behaviour]
            })
            return 0
        }
        for m in catalog.manifests {
            let upgrades = [m.supportsStrongPassword ? "strong password" : nil, m.supportsSignInWithApple ? "Sign in with Apple" : nil].compactMap { $0 }
            let domains = m.domains.map { domain in
                let state = catalog.associationState(of: m, domain: domain)
                return state == .verified ? domain : "\(domain) [\(state.rawValue)]"
            }
            print("\(m.id.padding(toLength: 16, withPad: " ", startingAt: 0))\(m.name) (\(domains.joined(separator: ", "))): "
                  + (upgrades.isEmpty ? "no upgrades" : upgrades.joined(separator: " and ")) + "; 2FA \(m.twoFactor.rawValue)")
        }
        return 0
    }

    static let servicesUsage = "bulwark services [--json] | bulwark services enroll ENTRY | bulwark services enroll SERVICE --sign-in-with-apple [--hide-email] | bulwark services notify SERVICE EVENT ENTRY | bulwark services transfer SERVICE TEAMID"

    /// `services transfer SERVICE TEAMID`: the service's app moves to another
    /// developer team; its Sign in with Apple accounts are migrated.
    static func transfer(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 3 else { Output.error("usage: bulwark services transfer SERVICE TEAMID"); return 2 }
        let team = parsed.arguments[2]
        guard team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
            Output.error("a team id is ten capital letters and digits, as Apple's are (got \(team)).")
            return 2
        }
        return withServices(parsed) { vault, world, _ in
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
        return withServices(parsed) { vault, world, _ in
            guard let manifest = world.catalog.manifest(id: parsed.arguments[1]) else {
                Output.error("no service named \(parsed.arguments[1]); `bulwark services` lists them.")
                return 2
            }
            do {
                let outcome = try SignUpWithApple.run(manifest: manifest, vault: vault, world: world, hideEmail: parsed.options["--hide-email"] != nil)
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
        return withServices(parsed) { vault, world, _ in
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
            }
            print("\(manifest.name) received \(kind.rawValue) (signed by the identity provider).")
            for change in try AppleIDLifecycle.refresh(vault: vault, world: world) { print(change.sentence) }
            return 0
        }
    }
}
