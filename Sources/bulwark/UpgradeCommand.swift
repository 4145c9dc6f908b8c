import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `bulwark upgrade` and `bulwark signin`, through the services `ServiceWiring` sets up.
enum UpgradeCommand {
    static let completed: Int32 = 0, failed: Int32 = 3, needsCode: Int32 = 4, cancelled: Int32 = 5

    static func describe(_ outcome: Reconciler.Outcome) -> String {
        switch outcome {
        case .settledNewPassword(let title): "settled an interrupted upgrade of \(title): the service has the new password."
        case .keptOldPassword(let title): "dropped an interrupted upgrade of \(title): the service kept the old password."
        case .settledSignInWithApple(let title): "settled an interrupted conversion of \(title) to Sign in with Apple."
        case .keptPassword(let title): "dropped an interrupted upgrade of \(title): the service kept the password."
        case .settledPasskey(let title): "settled an interrupted upgrade of \(title) to a passkey."
        case .keptPasskeyBesidePassword(let title):
            "settled an interrupted upgrade of \(title): the service keeps the new passkey and still takes the password, so both stay."
        }
    }

    // MARK: upgrade

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let all = parsed.flag("--all-high-priority")
        let strong = parsed.flag("--strong-password"), apple = parsed.flag("--sign-in-with-apple")
        let passkey = parsed.flag("--passkey")
        let codeSources = ["--code", "--code-stdin", "--code-from-vault", "--code-from-messages", "--security-key-from-vault"].filter { parsed.flag($0) }
        guard codeSources.count <= 1 else {
            Output.error("give at most one of --code, --code-stdin, --code-from-vault, --code-from-messages and --security-key-from-vault.")
            return 2
        }
        if parsed.flag("--code") {
            Output.warning("--code puts the code in the command line, where other users of this machine can read it until it is used; --code-stdin reads it from standard input.")
        }
        if all {
            guard parsed.arguments.isEmpty, !apple, !passkey else { Output.error("usage: bulwark upgrade --all-high-priority"); return 2 }
            return allHighPriority(parsed)
        }
        guard parsed.arguments.count == 1, [strong, apple, passkey].filter({ $0 }).count == 1 else {
            Output.error("usage: bulwark upgrade ENTRY --strong-password | --sign-in-with-apple [--hide-email] | --passkey [--code-stdin | --code-from-vault | --code-from-messages | --security-key-from-vault]")
            return 2
        }
        return ServiceWiring.withServices(parsed) { vault, world, input in
            let entry = try vault.find(parsed.arguments[0])
            let engine = UpgradeEngine(vault: vault, world: world)
            let request = UpgradeRequest(entryID: entry.id, kind: strong ? .strongPassword : apple ? .signInWithApple : .passkey, origin: .entry)
            return finish(drive(engine, request, parsed, input))
        }
    }

    /// Runs one upgrade to its end with what the command line provides.
    static func drive(_ engine: UpgradeEngine, _ request: UpgradeRequest, _ parsed: ParsedCommandLine, _ input: PasswordInput?) -> UpgradeState {
        var state = engine.start(request)
        var triedCode = false, waitedForNextStep = false
        while !state.isFinished {
            switch state {
            case .stepUp(let screen):
                // --code-from-vault gave a code this step already used (an upgrade a moment ago): wait for the next, once.
                if triedCode, !waitedForNextStep, parsed.flag("--code-from-vault"),
                   screen.message?.hasPrefix("That code was already used") == true,
                   let next = NextCodeStep.code(totpURI: engine.request.flatMap({ engine.vault.entry(id: $0.entryID) })?.totpURI,
                                                clock: engine.world.clock, name: screen.serviceName) {
                    waitedForNextStep = true
                    state = engine.submitCode(next)
                    continue
                }
                if triedCode {
                    // One try from the command line; the person can run it again
                    // with another code. The service's message is said once, as the failure.
                    state = engine.cancel()
                    return .failed(reason: screen.message.map { "\(screen.serviceName): \($0) Nothing was changed." } ?? UpgradeState.defaultFailure)
                }
                if let message = screen.message { Output.stderr("bulwark: \(screen.serviceName): \(message)\n") }
                triedCode = true
                if screen.method == .securityKey {
                    guard parsed.flag("--security-key-from-vault") else {
                        _ = engine.cancel()
                        return .stepUp(screen)
                    }
                    state = engine.useVaultPasskey()
                    continue
                }
                switch code(for: screen, engine: engine, parsed, input) {
                case .code(let code): state = engine.submitCode(code)
                case .cancel: state = engine.cancel()
                case .none:
                    _ = engine.cancel()
                    return .stepUp(screen)
                }
            case .sheet:
                _ = engine.chooseEmail(hide: parsed.flag("--hide-email"))
                state = engine.continueWithApple()
            case .passkeySheet:
                // --passkey on the command line is the person's Save.
                state = engine.savePasskey()
            default:
                return state
            }
        }
        return state
    }

    enum CodeAnswer { case code(String), cancel, none }

    static func code(for screen: StepUpScreen, engine: UpgradeEngine, _ parsed: ParsedCommandLine, _ input: PasswordInput?) -> CodeAnswer {
        if let code = parsed.value("--code") { return .code(code) }
        if parsed.flag("--code-stdin") {
            guard let code = try? input?.next(prompt: "Verification code") else { return .none }
            // An empty line cancels, as the help says (it was sent as a wrong code).
            let typed = code.trimmingCharacters(in: .whitespaces)
            return typed.isEmpty ? .cancel : .code(typed)
        }
        let entry = engine.request.flatMap { engine.vault.entry(id: $0.entryID) }
        if parsed.flag("--code-from-vault") {
            guard let uri = entry?.totpURI, let config = try? OTPAuthURL.parse(uri) else { return .none }
            return .code(config.code(at: Int64(engine.world.clock().timeIntervalSince1970)))
        }
        if parsed.flag("--code-from-messages") {
            guard let code = try? engine.world.latestReceivedCode(forSites: engine.catalog.codeSites(for: entry?.site ?? screen.domain)) else { return .none }
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
        case .stepUp(let screen) where screen.method == .securityKey:
            Output.error("\(screen.serviceName) asks for a security key. Run again with --security-key-from-vault to use the entry's passkey for \(screen.domain). Nothing was changed.")
            return needsCode
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
        return ServiceWiring.withServices(parsed) { vault, world, _ in
            let analyzer = SecurityAnalyzer(settings: context.config.analysis, breaches: context.breaches,
                                            sharing: world.catalog.sharing(context.quirks), services: world.catalog, memo: vault.strengthMemo())
            try analyzer.load(vault.entries)
            vault.keepStrengthMemo(of: analyzer)
            let engine = UpgradeEngine(vault: vault, world: world)
            var done = 0, skipped = 0, failures = 0
            let highPriority = analyzer.report().highPriority
            // An upgrade changes every entry of its account: one the run already settled is not upgraded again.
            let analysed = Dictionary(highPriority.compactMap { r in vault.entry(id: r.id).map { (r.id, $0.password) } }, uniquingKeysWith: { a, _ in a })
            var settledBy: [String: String] = [:]
            for recommendation in highPriority {
                guard let entry = vault.entry(id: recommendation.id) else { continue }
                if let by = settledBy[entry.id] {
                    print("settled   \(entry.title): the same account, upgraded with \(by)")
                    continue
                }
                guard case .offered = world.catalog.availability(.strongPassword, for: entry) else {
                    print("skipped   \(entry.title): \(world.catalog.availability(.strongPassword, for: entry).reason ?? "")")
                    skipped += 1
                    continue
                }
                switch drive(engine, UpgradeRequest(entryID: entry.id, kind: .strongPassword, origin: .recommendation), parsed, nil) {
                case .completed(let outcome):
                    print("upgraded  \(entry.title): \(outcome.summary)")
                    for (id, before) in analysed where id != entry.id && settledBy[id] == nil && vault.entry(id: id)?.password != before {
                        settledBy[id] = entry.title
                    }
                    done += 1
                case .failed(let reason):
                    print("failed    \(entry.title): \(reason)")
                    failures += 1
                case .stepUp(let screen):
                    print("skipped   \(entry.title): \(screen.serviceName) asks for \(screen.method == .securityKey ? "a security key" : "a verification code")")
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

    static let signInUsage = "bulwark signin ENTRY [--sign-in-with-apple | --with password|passkey|apple [--hide-email] | --with-provider [--ephemeral] [--code-from-vault] [--transcript FILE]]"

    static func signIn(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.count == 1 else { Output.error("usage: \(signInUsage)"); return 2 }
        if parsed.flag("--with-provider") { return ProviderSignIn.run(parsed) }
        if let with = parsed.value("--with"), !["password", "passkey", "apple"].contains(with) { Output.error("usage: \(signInUsage)"); return 2 }
        return ServiceWiring.withServices(parsed) { vault, world, input in
            let entry = try vault.find(parsed.arguments[0])
            if parsed.value("--with") == "passkey" { return try PasskeyAtService.signIn(entry, world: world) }
            let again = parsed.flag("--sign-in-with-apple")
            guard !again || entry.signInWithApple != nil else { Output.error("\(entry.title) does not sign in with Apple."); return 2 }
            // Sign in with Apple for an account that has a password is its upgrade (the sheet's choices from the options).
            if !again, try SignInChoice.choosesApple(entry, world: world, parsed, input) {
                let engine = UpgradeEngine(vault: vault, world: world)
                return finish(drive(engine, UpgradeRequest(entryID: entry.id, kind: .signInWithApple, origin: .signInPrompt), parsed, input))
            }
            switch try SignInSimulator.signIn(entry, world: world, reauthorize: again) {
            case .accepted:
                print("Signed in to \(entry.title)" + (entry.signInWithApple != nil ? " with Apple." : "."))
                for change in try AppleIDLifecycle.refresh(vault: vault, world: world) { Output.stderr("bulwark: \(change.sentence)\n") }
                if let upgraded = SignInChoice.offerUpgrade(after: entry, vault: vault, world: world, parsed, input) { return upgraded }
                return 0
            case .refused(let reason):
                Output.error("\(entry.title) refused the sign-in: \(reason).")
                return 1
            }
        }
    }
}
