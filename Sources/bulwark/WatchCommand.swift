import BulwarkCore
import Foundation

/// `bulwark watch`: breach news while bulwark is closed. Looks for the
/// vault's passwords in breach data that changed since the last look (the
/// corpus files of the config, and Pwned Passwords ranges when online is
/// allowed) without the master password, from the watch list each unlock
/// keeps (WatchStore: prefixes and salted digests, never a password), and
/// tells what is new the way the desktop does (notify-send), then on the
/// next command's first line and the app's lock screen.
enum WatchCommand {
    static let usage = "bulwark watch [--online] [--quiet] | --install [--online] | --uninstall | --status"

    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        let vaultPath = VaultCommands.path(parsed)
        if parsed.flag("--install") { return install(parsed, vaultPath) }
        if parsed.flag("--uninstall") { return uninstall(vaultPath) }
        if parsed.flag("--status") { return status(vaultPath) }
        return check(parsed, vaultPath)
    }

    // MARK: The look

    static func check(_ parsed: ParsedCommandLine, _ vaultPath: URL) -> Int32 {
        let config: Configuration
        switch Output.configuration(parsed) {
        case .failure(let exit): return exit.code
        case .success(let loaded): config = loaded
        }
        let store = WatchStore.standard()
        var (list, key): (WatchList, [UInt8])
        do { (list, key) = try store.load(vaultPath) } catch {
            Output.error("\(error)")
            return 1
        }
        let now = Date()
        let offline = WatchCheck.corpora(config.breachCorpora, list: &list, key: key)
        var found = offline.found
        var sources = offline.read.map { "\($0) (read)" } + offline.skipped.map { "\($0) (unchanged, not read again)" }
        for problem in offline.problems { Output.warning("watch: \(problem)") }
        if parsed.flag("--online") || config.onlineBreachCheck {
            guard let base = URL(string: config.rangeURL), ["http", "https"].contains(base.scheme ?? ""),
                  base.scheme == "https" || AnalyzeCommand.isLoopback(base.host ?? "") else {
                Output.error("watch: range-url \(config.rangeURL) is not an https URL (plain http only on loopback).")
                return 2
            }
            let prefixes = Array(Set(list.items.map(\.prefix))).sorted()
            let (answers, unreachable) = OnlineBreachCheck.fetch(prefixes, client: OnlineCheckSettings.client(base: base),
                                                                 parallel: OnlineCheckSettings.parallel)
            var ranges: [String: [String: Int]] = [:]
            for case let (prefix, .success(hits)) in answers { ranges[prefix] = hits }
            let source = "Pwned Passwords online (\(base.host ?? base.absoluteString))"
            found.merge(WatchCheck.ranges(ranges, list: list, key: key, source: source).found) { first, _ in first }
            sources.append("\(source): \(ranges.count) of \(prefixes.count) ranges")
            if let unreachable { Output.warning("watch: cannot reach \(base.host ?? base.absoluteString) (\(unreachable)); only the files were looked at.") }
        }
        WatchCheck.record(found, in: &list, now: now)
        list.checked = now
        do { try store.save(list, key: key) } catch {
            Output.error("watch: the watch list could not be written (\(error)).")
            return 1
        }
        if found.isEmpty {
            if !parsed.flag("--quiet") {
                print("Nothing new: \(list.items.count) password\(list.items.count == 1 ? "" : "s") looked for in "
                      + (sources.isEmpty ? "no breach data (set breach-corpus or online-breach-check in the config)" : sources.joined(separator: "; ")) + ".")
            }
            return 0
        }
        let message = newsText(found.count, corpora: Array(Set(found.values)).sorted(), vaultPath: vaultPath)
        print(message)
        notify(message)
        return 0
    }

    static func newsText(_ count: Int, corpora: [String], vaultPath: URL) -> String {
        "\(count == 1 ? "A password" : "\(count) passwords") of \(TerminalText.visible(vaultPath.path)) \(count == 1 ? "was" : "were") found in breach data ("
            + corpora.map { TerminalText.visible($0) }.joined(separator: ", ")
            + "). Open bulwark's Security Recommendations, or run 'bulwark analyze', to see which and change \(count == 1 ? "it" : "them")."
    }

    /// The desktop's notification, where a session bus is (else the next command and the app say it).
    static func notify(_ message: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let bus = environment["DBUS_SESSION_BUS_ADDRESS"].map { !$0.isEmpty }
            ?? environment["XDG_RUNTIME_DIR"].map { FileManager.default.fileExists(atPath: $0 + "/bus") } ?? false
        guard bus else { return }
        _ = Spawn.run("notify-send", ["--app-name=bulwark", "--urgency=critical", "--icon=dialog-password",
                                      "A password was found in a data breach", message], environment: environment)
    }

    /// Said once on standard error by the next command that opens the vault; then the analysis shows the rest.
    static func showNews(_ vaultPath: URL) {
        if let news = takeNews(vaultPath) { Output.stderr("bulwark watch: \(news)\n") }
    }

    /// The news not yet shown (then marked shown), for a command's first line or (`short`) the app's lock screen.
    static func takeNews(_ vaultPath: URL, short: Bool = false) -> String? {
        let store = WatchStore.standard()
        guard store.isWatched(vaultPath), let (kept, key) = try? store.load(vaultPath), let news = kept.news else { return nil }
        var list = kept
        list.news = nil
        try? store.save(list, key: key)
        let since = VaultCommands.iso.string(from: news.since)
        guard short else { return newsText(news.passwords, corpora: news.corpora, vaultPath: vaultPath) + " (first seen \(since))" }
        let sources = news.corpora.map { TerminalText.visible(URL(fileURLWithPath: $0).lastPathComponent) }.joined(separator: ", ")
        return "\(news.passwords == 1 ? "A password was" : "\(news.passwords) passwords were") found in new breach data (\(sources), \(since.prefix(10))). Unlock to see which in Security Recommendations."
    }

    // MARK: Set-up

    static func install(_ parsed: ParsedCommandLine, _ vaultPath: URL) -> Int32 {
        // A unit file is one line per setting: a control character in the path would end or bend one.
        guard !vaultPath.path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            Output.error("the vault's path holds a control character, which a systemd unit cannot carry; move the vault first.")
            return 2
        }
        return VaultCommands.withVault(parsed) { vault, _ in
            guard WatchStore.standard().refresh(vault, corpora: (try? Output.configuration(parsed).get())?.breachCorpora ?? [], force: true) else {
                Output.error("the watch list could not be written to \(WatchStore.standard().directory.path).")
                return 1
            }
            let units = WatchUnits(vaultPath: vault.path, executable: WatchUnits.executable(), online: parsed.flag("--online"))
            do { try units.write() } catch {
                Output.error("the systemd units could not be written to \(units.directory.path): \(error).")
                return 1
            }
            print("Watching \(TerminalText.visible(vault.path.path)): its passwords' prefixes and salted digests are kept in \(WatchStore.standard().directory.path).")
            print("Wrote \(units.service.path) and \(units.timer.path) (daily).")
            switch units.enable() {
            case .enabled: print("Enabled with 'systemctl --user enable --now \(units.timerName)'.")
            case .noSystemctl: print("No systemctl here: run 'bulwark watch' daily some other way (cron: @daily \(units.command)).")
            case .failed(let status): Output.warning("'systemctl --user enable --now \(units.timerName)' failed (exit \(status)); run it once a user session is up.")
            }
            return 0
        }
    }

    static func uninstall(_ vaultPath: URL) -> Int32 {
        let units = WatchUnits(vaultPath: vaultPath, executable: WatchUnits.executable(), online: false)
        let hadUnits = units.remove()
        let store = WatchStore.standard()
        let hadList = store.isWatched(vaultPath)
        store.remove(vaultPath)
        guard hadUnits || hadList else {
            print("\(TerminalText.visible(vaultPath.path)) was not watched; nothing removed.")
            return 0
        }
        print("Stopped watching \(TerminalText.visible(vaultPath.path)): the timer and its watch list are removed.")
        return 0
    }

    static func status(_ vaultPath: URL) -> Int32 {
        let store = WatchStore.standard()
        guard store.isWatched(vaultPath) else {
            print("\(TerminalText.visible(vaultPath.path)) is not watched ('bulwark watch --install' starts).")
            return 1
        }
        do {
            let (list, _) = try store.load(vaultPath)
            let units = WatchUnits(vaultPath: vaultPath, executable: WatchUnits.executable(), online: false)
            print("Watching \(TerminalText.visible(vaultPath.path)): \(list.items.count) password\(list.items.count == 1 ? "" : "s") (prefixes and salted digests).")
            print("Last look: \(list.checked.map { VaultCommands.iso.string(from: $0) } ?? "never"); \(list.reported.count) found so far.")
            print("Timer: \(FileManager.default.fileExists(atPath: units.timer.path) ? units.timer.path : "none")")
            if let news = list.news { print("Not yet shown: " + newsText(news.passwords, corpora: news.corpora, vaultPath: vaultPath)) }
            return 0
        } catch {
            Output.error("\(error)")
            return 1
        }
    }
}
