import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `bulwark signin ENTRY --with-provider`: "Log in with IDP" at the entry's
/// service through a web authentication session, played from the command
/// line: the command is the person's Continue and consent; the provider's
/// login page is filled from the vault's entry for its domain (AutoFill),
/// its second factor from that entry's TOTP with `--code-from-vault`.
enum ProviderSignIn {
    static let needsCode: Int32 = 4

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        ServiceWiring.withMockServices(parsed, besideVault: false) { vault, world, _ in
            try run(parsed, entry: try vault.find(parsed.arguments[0]), vault: vault, world: world)
        }
    }

    static func run(_ parsed: ParsedCommandLine, entry: Entry, vault: Vault, world: ServiceWorld) throws -> Int32 {
        let ephemeral = parsed.flag("--ephemeral")
        guard let session = try world.webAuthenticationSession(for: entry, issuer: entry.signsInWith, ephemeral: ephemeral) else {
            Output.error("\(entry.title)'s service offers no sign-in through an identity provider; nothing was contacted.")
            return 1
        }
        let provider = session.provider.manifest
        defer { writeTranscript(session, parsed) }
        session.start()
        var step = session.continueAlert()
        var triedLogin = false, triedCode = false, waitedForNextStep = false
        while true {
            switch step {
            case .loginPage(_, let domain, let message):
                guard !triedLogin else { return fail("\(provider.name) refused the login: \(message ?? "no reason given").") }
                guard let account = WebAuthenticationSession.loginEntry(in: vault.entries, domain: domain), let password = account.password else {
                    return fail("the vault holds no \(provider.name) account (an entry for \(domain)) to fill its login page with.")
                }
                triedLogin = true
                step = session.submitLogin(email: account.username, password: password)
            case .secondFactor(_, let message):
                let account = WebAuthenticationSession.loginEntry(in: vault.entries, domain: provider.loginDomain)
                // This step's code was used already (a sign-in a moment ago): wait for the next, once.
                if triedCode, !waitedForNextStep, message?.hasPrefix("That code was already used") == true,
                   let next = NextCodeStep.code(totpURI: account?.totpURI, clock: world.clock, name: provider.name) {
                    waitedForNextStep = true
                    step = session.submitCode(next)
                    continue
                }
                guard !triedCode else { return fail("\(provider.name): \(message ?? "the code was refused.")") }
                guard parsed.flag("--code-from-vault"), let uri = account?.totpURI, let config = try? OTPAuthURL.parse(uri) else {
                    session.cancel()
                    Output.error("\(provider.name) asks for a verification code. Run again with --code-from-vault (the code of \(account?.title ?? "its entry")). Nothing was changed.")
                    return needsCode
                }
                triedCode = true
                step = session.submitCode(config.code(at: Int64(world.clock().timeIntervalSince1970)))
            case .consent:
                step = session.consent(allow: true)
            case .signedIn(let result):
                print("Signed in to \(entry.title) through \(result.provider) (as \(result.user))" + (result.linkedNow ? "; the account is now linked to it." : "."))
                // The entry now records the provider it signs in through (its blast radius counts it).
                if entry.signsInWith == nil { _ = try vault.update(entry.id) { $0.signsInWith = session.provider.issuer } }
                return 0
            case .failed(let reason):
                return fail(reason)
            case .cancelled:
                return fail("the sign-in was cancelled; nothing was changed.")
            case .alert:
                step = session.continueAlert()
            }
        }
    }

    private static func fail(_ message: String) -> Int32 {
        Output.error(message)
        return 1
    }

    /// `--transcript FILE`: the session's messages as JSON lines, the file private to its owner.
    private static func writeTranscript(_ session: WebAuthenticationSession, _ parsed: ParsedCommandLine) {
        guard let path = parsed.value("--transcript") else { return }
        let text = session.transcriptLines.map { $0 + "\n" }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            Output.error("could not write the transcript to \(path).")
            return
        }
    }
}
