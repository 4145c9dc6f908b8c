import BulwarkCore
import BulwarkTUI
import BulwarkTerminal
import BulwarkUpgrades
import Foundation

/// `bulwark demo` (the embedded demo) and `bulwark open` (your vault): the
/// full-screen app.
enum DemoCommand {
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let catalog: ServiceCatalog
        switch UpgradeCommand.catalog(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): catalog = loaded
        }
        if let directory = parsed.options["--setup"] {
            do {
                let path = try DemoSetup.write(to: URL(fileURLWithPath: directory), catalog: catalog)
                print("Wrote the demo vault to \(path.path) (master password \"\(try DemoSetup.seed().masterPassword)\") and its services beside it.")
                return 0
            } catch {
                Output.error("demo --setup \(directory): \(error)")
                return 1
            }
        }
        let keep = parsed.options["--keep"]
        let directory = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-demo-\(getpid())-\(UUID().uuidString.prefix(8))")
        if keep == nil || !FileManager.default.fileExists(atPath: directory.appendingPathComponent("vault.db").path) {
            do { try DemoSetup.write(to: directory, catalog: catalog) } catch {
                Output.error("cannot set up the demo in \(directory.path): \(error)")
                return 1
            }
        }
        defer { if keep == nil { try? FileManager.default.removeItem(at: directory) } }
        let seed = try? DemoSetup.seed()
        let session = AppSession(vaultPath: directory.appendingPathComponent("vault.db"), catalog: catalog,
                                 breaches: (try? BreachCorpus.load(paths: [])) ?? BreachCorpus(files: []), appleID: DemoSetup.appleID)
        var state = AppState(unlock: UnlockForm(hint: "The demo's master password is “\(seed?.masterPassword ?? "demo")”."), lockLabel: "unlocked")
        if parsed.options["--no-lock"] != nil {
            do {
                let snapshot = try session.unlock(masterPassword: seed?.masterPassword ?? "demo")
                state = AppState(unlocked: true, snapshot: snapshot, lockLabel: "unlocked")
            } catch {
                Output.error("cannot open the demo vault: \(error)")
                return 1
            }
        }
        return runApp(state: state, session: session)
    }

    /// `bulwark open`: the app on your vault; the first run creates it.
    static func open(_ parsed: ParsedCommandLine) -> Int32 {
        let context: AnalysisContext
        switch AnalysisContext.load(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): context = loaded
        }
        let session = AppSession(vaultPath: VaultCommands.path(parsed), catalog: context.catalog, breaches: context.breaches,
                                 quirks: context.quirks, settings: context.config.analysis)
        return runApp(state: AppState(unlock: UnlockForm(creating: !session.vaultExists)), session: session)
    }

    static func runApp(state: AppState, session: AppSession) -> Int32 {
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(allowColor: !noColor)
        } catch let error as TerminalError {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            return error.exitCode
        } catch {
            FileHandle.standardError.write(Data("bulwark: \(error)\n".utf8))
            return 1
        }
        let store = Store(state: state, environment: AppEnvironment(session: session))
        return RunLoop.run(store: store, terminal: terminal)
    }
}
