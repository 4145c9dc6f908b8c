import BulwarkCore
import BulwarkTUI
import BulwarkTerminal
import BulwarkUpgrades
import Foundation

/// `bulwark demo`: the embedded demo in the full-screen app (`AppCommand`
/// runs it, as it runs `bulwark open` on the person's own vault).
enum DemoCommand {
    /// Time spent unlocking before the first frame (the KDF, mostly), for the start-up figure.
    nonisolated(unsafe) static var unlockSeconds = 0.0  // main thread only
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let catalog: ServiceCatalog
        switch ServiceWiring.catalog(parsed, demo: true) {
        case .failure(let exit): return exit.code
        case .success(let loaded): catalog = loaded
        }
        if let directory = parsed.value("--setup") {
            do {
                let path = try DemoSetup.write(to: URL(fileURLWithPath: directory), catalog: catalog)
                print("Wrote the demo vault to \(path.path) (master password \"\(try DemoSetup.seed().masterPassword)\") and its services beside it.")
                return 0
            } catch {
                Output.error("demo --setup \(directory): \(error)")
                return 1
            }
        }
        if parsed.flag("--list") { return AutoplayCommand.list() }
        if let html = parsed.value("--html") { return WebPlayerCommand.run(parsed, path: html, catalog: catalog) }
        if let gallery = parsed.value("--gallery") { return GalleryCommand.run(directory: gallery, catalog: catalog) }
        if parsed.flag("--tour") { return AutoplayCommand.tour(parsed, catalog: catalog) }
        if let name = parsed.value("--autoplay") {
            return parsed.flag("--headless") ? AutoplayCommand.headless(parsed, name: name, catalog: catalog)
                                                         : AutoplayCommand.play(parsed, name: name, catalog: catalog)
        }
        for flag in ["--headless", "--snapshots", "--svg", "--svg-animated", "--check", "--size", "--stay", "--exit"] where parsed.flag(flag) {
            Output.error("\(flag) goes with --autoplay NAME.")
            return 2
        }
        // --dir DIR: this directory, reused when it holds a demo; else a temporary one, kept with --keep.
        let given = parsed.value("--dir")
        let keep = given != nil || parsed.flag("--keep")
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
        let locked = !parsed.flag("--no-lock") && given == nil
        do { session = try demoSession(in: directory, catalog: catalog, reuse: given != nil, inBackground: locked, setup: &setup) } catch {
            Output.error("cannot set up the demo in \(directory.path): \(error)")
            return 1
        }
        var state = lockedState()
        if parsed.flag("--no-lock") {
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
        return AppCommand.runApp(state: state, session: session, parsed: parsed)
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
        } else if !DemoSetup.usesDemoServices(vault: path) {
            // A demo directory an older bulwark wrote: it is the demo's, so its commands keep the demo's services.
            try DemoSetup.markAsDemo(vault: path)
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
}

