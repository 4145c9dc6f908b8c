import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `signin` as the app does it: where the service takes the saved password
/// and Sign in with Apple, both are offered before anything is sent
/// (WWDC19: one request for both credentials), and after a sign-in with a
/// weak or breached password the account's upgrades are offered.
enum SignInChoice {
    /// Whether Sign in with Apple is what the person chose: `--with apple`,
    /// or the answer on a terminal; the saved password otherwise (a script).
    static func choosesApple(_ entry: Entry, world: any ServiceDirectory, _ parsed: ParsedCommandLine, _ input: PasswordInput) throws -> Bool {
        let offered = entry.password != nil && entry.signInWithApple == nil
        let reason = world.catalog.availability(.signInWithApple, for: entry).reason
        if parsed.value("--with") == "apple" {
            guard offered, reason == nil else {
                throw UsageError(message: "\(entry.title) cannot move to Sign in with Apple: \(entry.signInWithApple != nil ? "it signs in with Apple already" : reason ?? "it has no password"). Nothing was sent.", command: nil)
            }
            return true
        }
        guard parsed.value("--with") == nil, offered, reason == nil, input.isTerminal else { return false }
        let name = world.catalog.manifest(forHost: entry.site)?.name ?? entry.title
        let question = "Sign in to \(TerminalText.visible(name)) with [p] the saved password (\(TerminalText.visible(entry.username))) or [a] Sign in with Apple (the account moves to your Apple ID; its password goes)? [P/a]"
        return input.question(question)?.hasPrefix("a") == true
    }

    /// After a sign-in with the saved password: when the analysis finds it
    /// weak or breached, the upgrades the service offers, asked on a
    /// terminal (nil: nothing was asked or chosen), and the one chosen run.
    static func offerUpgrade(after entry: Entry, vault: Vault, world: any ServiceDirectory, _ parsed: ParsedCommandLine, _ input: PasswordInput) -> Int32? {
        guard input.isTerminal, entry.password != nil, case .success(let context) = AnalysisContext.load(parsed) else { return nil }
        let analyzer = SecurityAnalyzer(settings: context.config.analysis, breaches: context.breaches, sharing: context.catalog.sharing(context.quirks),
                                        services: context.catalog, memo: vault.strengthMemo())
        guard (try? analyzer.load(vault.entries)) != nil, let finding = analyzer.recommendation(forEntry: entry.id),
              finding.kinds.contains(.weak) || finding.kinds.contains(.breached) else { return nil }
        // The finding's sentence, its full stop left to the question after it.
        var reason = finding.warnings.first?.reason ?? "The password is weak"
        if reason.hasSuffix(".") { reason.removeLast() }
        let kinds = [UpgradeKind.strongPassword, .signInWithApple].filter { world.catalog.availability($0, for: entry).reason == nil }
        guard !kinds.isEmpty else {
            Output.stderr("bulwark: \(reason); \(world.catalog.manifest(forHost: entry.site)?.name ?? entry.title) offers no upgrade here, so change it on its website.\n")
            return nil
        }
        let choices = kinds.map { $0 == .strongPassword ? "[s] a strong password" : "[a] Sign in with Apple" }.joined(separator: ", ")
        guard let answer = input.question("\(reason). Upgrade this account now: \(choices), or [n] not now? [n]"),
              let kind = kinds.first(where: { answer.hasPrefix($0 == .strongPassword ? "s" : "a") }) else { return nil }
        let engine = UpgradeEngine(vault: vault, world: world)
        return UpgradeCommand.finish(UpgradeCommand.drive(engine, UpgradeRequest(entryID: entry.id, kind: kind, origin: .signInPrompt), parsed, input))
    }
}
