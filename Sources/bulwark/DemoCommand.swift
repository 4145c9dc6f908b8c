import BulwarkCore
import BulwarkTUI
import BulwarkTerminal
import BulwarkUpgrades
import Foundation

/// `bulwark demo` (the embedded demo) and `bulwark open` (your vault): the
/// full-screen app.
enum DemoCommand {
    /// Time spent unlocking before the first frame (the KDF, mostly), for the start-up figure.
    nonisolated(unsafe) static var unlockSeconds = 0.0  // main thread only
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let catalog: ServiceCatalog
        switch UpgradeCommand.catalog(parsed, demo: true) {
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
        if parsed.options["--list"] != nil { return AutoplayCommand.list() }
        if let html = parsed.options["--html"] { return WebPlayerCommand.run(parsed, path: html, catalog: catalog) }
        if let gallery = parsed.options["--gallery"] { return GalleryCommand.run(directory: gallery, catalog: catalog) }
        if parsed.options["--tour"] != nil { return AutoplayCommand.tour(parsed, catalog: catalog) }
        if let name = parsed.options["--autoplay"] {
            return parsed.options["--headless"] != nil ? AutoplayCommand.headless(parsed, name: name, catalog: catalog)
                                                         : AutoplayCommand.play(parsed, name: name, catalog: catalog)
        }
        for flag in ["--headless", "--snapshots", "--svg", "--svg-animated", "--check", "--size", "--stay"] where parsed.options[flag] != nil {
            Output.error("\(flag) goes with --autoplay NAME.")
            return 2
        }
        // --dir DIR: this directory, reused when it holds a demo; else a temporary one, kept with --keep.
        let given = parsed.options["--dir"]
        let keep = given != nil || parsed.options["--keep"] != nil
        let directory = given.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-demo-\(getpid())-\(UUID().uuidString.prefix(8))")
        var setup: BackgroundWork?
        defer {
            try? setup?.wait()  // never remove a directory being written
            if !keep { try? FileManager.default.removeItem(at: directory) }
            if given == nil && keep { Output.stderr("bulwark: the demo's vault and services are kept in \(directory.path) (master password \"demo\").\n") }
        }
        let session: AppSession
        // Locked, a new temporary demo draws its unlock screen first and writes its
        // vault meanwhile (a directory the person named is written first, so a failure exits at once).
        let locked = parsed.options["--no-lock"] == nil && given == nil
        do { session = try demoSession(in: directory, catalog: catalog, reuse: given != nil, inBackground: locked, setup: &setup) } catch {
            Output.error("cannot set up the demo in \(directory.path): \(error)")
            return 1
        }
        var state = lockedState()
        if parsed.options["--no-lock"] != nil {
            do {
                let unlockStart = Date()
                state = AppState(unlocked: true, snapshot: try session.unlock(masterPassword: (try? DemoSetup.seed().masterPassword) ?? "demo"),
                                 lockLabel: "unlocked")
                unlockSeconds = Date().timeIntervalSince(unlockStart)
            } catch {
                Output.error("cannot open the demo vault: \(error)")
                return 1
            }
        }
        return runApp(state: state, session: session, parsed: parsed)
    }

    /// The demo's vault and services in a directory (made unless reused),
    /// and a session on them. `fast`: no service latency, a cheap KDF.
    static func demoSession(in directory: URL, catalog: ServiceCatalog, now: Date? = nil, fast: Bool = false,
                            reuse: Bool = false, inBackground: Bool = false, setup: inout BackgroundWork?) throws -> AppSession {
        let path = directory.appendingPathComponent("vault.db")
        var pending: BackgroundWork?
        if !(reuse && FileManager.default.fileExists(atPath: path.path)) {
            let write: @Sendable () throws -> Void = {
                _ = try DemoSetup.write(to: directory, catalog: catalog, now: now ?? Date(), parameters: ScryptParameters(logN: fast ? 10 : 14))
            }
            if inBackground { pending = BackgroundWork(write) } else { try write() }
        }
        setup = pending
        let fixed = now
        let clock: @Sendable () -> Date = { fixed ?? Date() }
        let sleep: @Sendable (Int) -> Void = { ms in if !fast && ms > 0 { usleep(UInt32(ms) * 1000) } }
        let breaches = (try? BreachCorpus.load(paths: [])) ?? BreachCorpus(files: [])
        let session = AppSession(vaultPath: path, catalog: catalog, breaches: breaches, appleID: DemoSetup.appleID, clock: clock, sleep: sleep)
        if let pending { session.preparation = { try pending.wait() } }
        return session
    }

    static func demoSession(in directory: URL, catalog: ServiceCatalog, now: Date? = nil, fast: Bool = false) throws -> AppSession {
        var setup: BackgroundWork?
        return try demoSession(in: directory, catalog: catalog, now: now, fast: fast, setup: &setup)
    }

    static func lockedState(now: Date = Date()) -> AppState {
        AppState(unlock: UnlockForm(hint: "The demo's master password is “\((try? DemoSetup.seed().masterPassword) ?? "demo")”."),
                 lockLabel: "unlocked", now: now)
    }

    /// `bulwark open`: the app on your vault; the first run creates it.
    static func open(_ parsed: ParsedCommandLine) -> Int32 {
        let context: AnalysisContext
        switch AnalysisContext.load(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): context = loaded
        }
        let session = AppSession(vaultPath: VaultCommands.path(parsed), catalog: context.catalog, breaches: context.breaches,
                                 quirks: context.quirks, settings: context.config.analysis,
                                 freshness: .standard(), backupPolicy: context.config.backups)
        let state = AppState(unlock: UnlockForm(creating: !session.vaultExists))
        return runApp(state: state, session: session, parsed: parsed)
    }

    static func runApp(state initial: AppState, session: AppSession, parsed: ParsedCommandLine, autoplay: Autoplay? = nil, stay: Bool = false,
                       autoplayEnd: ((BulwarkTerminal.RunLoop.AutoplayEnd) -> Void)? = nil) -> Int32 {
        // USB security keys through libfido2; an autoplay stays the same whatever is plugged in.
        if autoplay == nil { session.securityKeyProvider = FIDO2Keys() }
        // The config file's times apply to the demo as to your own vault.
        var state = initial
        let config = try? Output.configuration(parsed).get()
        if let config {
            state.lockAfter = config.lockAfterMinutes * 60
            state.revealFor = config.revealSeconds
            state.clipboardFor = config.clipboardSeconds
        }
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(allowColor: !noColor, symbols: config?.symbols, mouse: config?.mouse ?? true)
        } catch let error as TerminalError {
            Output.stderr(error.description + "\n")
            return error.exitCode
        } catch {
            Output.stderr("bulwark: \(error)\n")
            return 1
        }
        let store = Store(state: state, environment: AppEnvironment(session: session))
        let size = terminal.size
        var recorder: AsciicastRecorder?
        if let path = parsed.options["--record"] {
            guard let version = AutoplayCommand.castVersion(parsed) else {
                terminal.close()
                return 2
            }
            do { recorder = try AsciicastRecorder(path: path, width: size.width, height: size.height, title: "bulwark demo", version: version) } catch {
                terminal.close()
                Output.error("--record: cannot write \(path).")
                return 1
            }
        }
        defer { recorder?.close() }
        // `make bench` asks for the start-up figure: report it after the first frame and stop.
        let report = ProcessInfo.processInfo.environment["BULWARK_REPORT_FIRST_FRAME"] == "1"
        return BulwarkTerminal.RunLoop.run(store: store, terminal: terminal, autoplay: autoplay, stay: stay, recorder: recorder,
                                           autoplayEnd: autoplayEnd, afterFirstFrame: report ? {
            let total = Date().timeIntervalSince(processStart)
            Output.stderr(String(format: "first_frame_ms=%.2f unlock_ms=%.2f first_frame_at=%.6f\n", total * 1000, unlockSeconds * 1000,
                                 Date().timeIntervalSince1970))
            return true
        } : nil)
    }
}
