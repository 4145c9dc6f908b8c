import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The one place the command line chooses the services a vault talks to.
/// bulwark ships no real service, so a vault the services cover talks to
/// the mock world (`ServiceWorld`) and one they do not to `NoServices`; the
/// commands themselves see only the engine's `ServiceDirectory`, except the
/// few that drive the mocks on purpose (`services`, `demo`, a passkey or a
/// provider sign-in played from the command line).
enum ServiceWiring {
    /// The services a command speaks to: those the config and --services
    /// give, and the built-in mock services only for the demo (`demo`) or a
    /// vault the demo wrote (`DemoSetup.usesDemoServices`).
    static func catalog(_ parsed: ParsedCommandLine, demo: Bool = false) -> Result<ServiceCatalog, ExitCode> {
        let config: Configuration
        switch Output.configuration(parsed) {
        case .failure(let exit): return .failure(exit)
        case .success(let loaded): config = loaded
        }
        let demoServices = demo || isDemoVault(VaultCommands.path(parsed))
        do { return .success(try ServiceCatalog.load(extraDirectory: config.services, demoServices: demoServices)) } catch {
            Output.error("services: \(error)")
            return .failure(ExitCode(2))
        }
    }

    /// Whether the demo wrote this vault (its services are the built-in mocks).
    static func isDemoVault(_ path: URL) -> Bool { DemoSetup.usesDemoServices(vault: path) }

    /// Opens the vault and its services, settles any upgrade a crash left
    /// staged and takes in what the services said meanwhile, then runs `body`.
    static func withServices(_ parsed: ParsedCommandLine, _ body: (Vault, any ServiceDirectory, PasswordInput) throws -> Int32) -> Int32 {
        opening(parsed) { vault, catalog in
            // A vault no service covers gets no services at all: nothing made anywhere for it.
            guard knowsServices(catalog) else { return NoServices() }
            return try ServiceWorld.forVault(vault.path, entries: vault.entries, catalog: catalog)
        } body: { vault, world, input in try body(vault, world, input) }
    }

    /// The same with the mock world itself, for the commands that drive it
    /// (enrolling accounts, sending notifications, moving apps).
    /// `besideVault`: the command writes the services' state, so it lives beside the vault.
    static func withMockServices(_ parsed: ParsedCommandLine, besideVault: Bool = true,
                                 _ body: (Vault, ServiceWorld, PasswordInput) throws -> Int32) -> Int32 {
        var world: ServiceWorld?
        return opening(parsed) { vault, catalog in
            world = besideVault && knowsServices(catalog)
                ? try ServiceWorld(directory: ServiceWorld.directory(besideVault: vault.path), catalog: catalog)
                : try ServiceWorld.forVault(vault.path, entries: vault.entries, catalog: catalog)
            return world!
        } body: { vault, _, input in try body(vault, world!, input) }
    }

    /// `list`, `show` and `analyze` ask the identity provider for each Sign
    /// in with Apple account's credential state, as the app does on every
    /// unlock (and as Apple asks of an app at each launch): an authorization
    /// stopped or deleted since shows at once, said on standard error. Only
    /// for a vault with such accounts at services it knows; nothing else is
    /// contacted; a service that does not answer is said and the command goes on.
    static func refreshAppleIDStates(_ parsed: ParsedCommandLine, _ vault: Vault) {
        guard vault.entries.contains(where: { $0.signInWithApple != nil }), case .success(let catalog) = catalog(parsed), knowsServices(catalog) else { return }
        do {
            let world = try ServiceWorld.forVault(vault.path, entries: vault.entries, catalog: catalog)
            for change in try AppleIDLifecycle.refresh(vault: vault, world: world) { Output.stderr("bulwark: \(change.sentence)\n") }
        } catch {
            Output.warning("the Sign in with Apple states could not be asked for (\(error)); what the vault shows may be behind.")
        }
    }

    private static func knowsServices(_ catalog: ServiceCatalog) -> Bool { !(catalog.manifests.isEmpty && catalog.providers.isEmpty) }

    private static func opening(_ parsed: ParsedCommandLine, world make: (Vault, ServiceCatalog) throws -> any ServiceDirectory,
                                body: (Vault, any ServiceDirectory, PasswordInput) throws -> Int32) -> Int32 {
        let catalog: ServiceCatalog
        switch Self.catalog(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): catalog = loaded
        }
        return VaultCommands.withVault(parsed) { vault, input in
            let world = try make(vault, catalog)
            for outcome in try Reconciler.reconcile(vault: vault, world: world) {
                Output.stderr("bulwark: \(UpgradeCommand.describe(outcome))\n")
            }
            // Credential states and the services' notifications, asked on every unlock.
            for change in try AppleIDLifecycle.refresh(vault: vault, world: world) { Output.stderr("bulwark: \(change.sentence)\n") }
            return try body(vault, world, input)
        }
    }
}
