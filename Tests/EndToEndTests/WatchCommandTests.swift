import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `bulwark watch`: breach news while bulwark is closed, through the
/// binary. The watch list is written at `--install` and at each unlock;
/// the look needs no master password, reads a corpus only when it changed,
/// tells a password once (notify-send where a session bus is, then the next
/// command's first line), and keeps no password, only prefixes and salted
/// digests. systemctl and notify-send are stand-ins that log their arguments.
@Suite struct WatchCommandTests {
    typealias Fixture = VaultCommandTests.Fixture

    final class World {
        let f: Fixture
        let corpus: URL, config: URL, bin: URL, log: URL
        var environment: [String: String]

        init() throws {
            f = try Fixture()
            corpus = f.dir.appendingPathComponent("pwned.txt")
            config = f.dir.appendingPathComponent("config")
            bin = f.dir.appendingPathComponent("bin")
            log = f.dir.appendingPathComponent("tools.log")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            for tool in ["systemctl", "notify-send"] {
                let script = bin.appendingPathComponent(tool)
                try Data("#!/bin/sh\necho \"\(tool) $*\" >> '\(log.path)'\n".utf8).write(to: script)
                chmod(script.path, 0o755)
            }
            try Data("breach-corpus = \(corpus.path)\n".utf8).write(to: config)
            environment = ["XDG_STATE_HOME": f.dir.appendingPathComponent("state").path,
                           "XDG_CONFIG_HOME": f.dir.appendingPathComponent("xdg-config").path,
                           "BULWARK_CONFIG": config.path,
                           "PATH": bin.path + ":/usr/bin:/bin",
                           "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(f.dir.path)/bus"]
        }

        /// A command that is never given the master password (standard input is empty).
        func run(_ args: [String]) throws -> Binary.Result {
            try Binary.run(args + ["--vault", f.vault], environment: environment)
        }

        func unlocked(_ args: [String], stdin: String = "master\n") throws -> Binary.Result {
            try Binary.run(args + ["--vault", f.vault, "--password-stdin"], stdin: stdin, environment: environment)
        }

        /// A Pwned Passwords file holding these passwords (and two others), sorted by hash.
        func breach(_ passwords: [String]) throws {
            let lines = try passwords.map { try OnlineBreachTests.sha1($0) + ":\(17)" } + [String(repeating: "0", count: 40) + ":1", String(repeating: "F", count: 40) + ":2"]
            try Data((lines.sorted().joined(separator: "\r\n") + "\r\n").utf8).write(to: corpus)
        }

        func tools() -> [String] { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
    }

    @Test func aNewBreachIsToldOnceWithoutTheMasterPassword() throws {
        let w = try World()
        for (title, password) in [("Mail", "already-known-breach-1"), ("Bank", "later-breached-secret-2"), ("Shop", "never-breached-3")] {
            #expect(try w.unlocked(["add", "--title", title, "--entry-password-stdin"], stdin: "master\n\(password)\n").status == 0)
        }
        try w.breach(["already-known-breach-1"])

        let before = try w.run(["watch"])
        #expect(before.status == 1)
        #expect(before.stderr == "bulwark: \(w.f.vault) is not watched: 'bulwark watch --install' starts (it asks for the master password once)\n")

        let installed = try w.unlocked(["watch", "--install"])
        #expect(installed.status == 0, "\(installed.stderr)")
        let units = w.f.dir.appendingPathComponent("xdg-config/systemd/user")
        let names = try FileManager.default.contentsOfDirectory(atPath: units.path).sorted()
        #expect(names.count == 2 && names[0].hasPrefix("bulwark-watch-") && names[0].hasSuffix(".service") && names[1].hasSuffix(".timer"))
        let unit = String(names[0].dropLast(".service".count))
        let service = try String(contentsOf: units.appendingPathComponent(names[0]), encoding: .utf8)
        let executable = URL(fileURLWithPath: Binary.path).resolvingSymlinksInPath().path
        #expect(service == """
            [Unit]
            Description=bulwark: look for the passwords of \(w.f.vault) in new breach data

            [Service]
            Type=oneshot
            ExecStart="\(executable)" "--vault" "\(w.f.vault)" "watch" "--quiet"

            """)
        let timer = try String(contentsOf: units.appendingPathComponent(names[1]), encoding: .utf8)
        #expect(timer.contains("[Timer]\nOnCalendar=daily\nPersistent=true\nRandomizedDelaySec=1h\n") && timer.contains("[Install]\nWantedBy=timers.target\n"))
        #expect(w.tools() == ["systemctl --user daemon-reload", "systemctl --user enable --now \(unit).timer"])
        #expect(installed.stdout.contains("Enabled with 'systemctl --user enable --now \(unit).timer'."))

        // The list holds no password, no hash of one, no title: sealed, and only prefixes and salted digests inside.
        let watchDirectory = w.f.dir.appendingPathComponent("state/bulwark/watch")
        let files = try FileManager.default.contentsOfDirectory(atPath: watchDirectory.path).sorted()
        #expect(files.count == 2 && files.contains("key"))
        let sealed = try Data(contentsOf: watchDirectory.appendingPathComponent(files.first { $0 != "key" }!))
        for secret in ["already-known-breach-1", "later-breached-secret-2", try OnlineBreachTests.sha1("later-breached-secret-2"), "Bank", "Mail"] {
            #expect(sealed.range(of: Data(secret.utf8)) == nil, "\(secret)")
        }

        // What the corpus held at install is no news (the analysis shows it); an unchanged corpus is not read again.
        let quiet = try w.run(["watch"])
        #expect(quiet.status == 0 && quiet.stdout == "Nothing new: 3 passwords looked for in \(w.corpus.path) (unchanged, not read again).\n", "\(quiet.stdout)\(quiet.stderr)")

        // New breach data: one password found, told here and by the desktop, once.
        try w.breach(["already-known-breach-1", "later-breached-secret-2"])
        let news = try w.run(["watch", "--quiet"])
        let told = "A password of \(w.f.vault) was found in breach data (\(w.corpus.path)). Open bulwark's Security Recommendations, or run 'bulwark analyze', to see which and change it."
        #expect(news.status == 0 && news.stdout == told + "\n", "\(news.stdout)\(news.stderr)")
        #expect(w.tools().last == "notify-send --app-name=bulwark --urgency=critical --icon=dialog-password A password was found in a data breach \(told)")
        try w.breach(["later-breached-secret-2", "already-known-breach-1", "another-one"])
        let again = try w.run(["watch", "--quiet"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")

        // The next command that opens the vault says it once, before the master password.
        let listed = try w.unlocked(["list"])
        #expect(listed.status == 0 && listed.stderr.hasPrefix("bulwark watch: " + told + " (first seen "), "\(listed.stderr)")
        #expect(try w.unlocked(["list"]).stderr.isEmpty)

        // Uninstalled: the timer is disabled and both units and the list are gone.
        let removed = try w.run(["watch", "--uninstall"])
        #expect(removed.status == 0 && removed.stdout == "Stopped watching \(w.f.vault): the timer and its watch list are removed.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: units.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: watchDirectory.path) == ["key"])
        #expect(w.tools().suffix(2) == ["systemctl --user disable --now \(unit).timer", "systemctl --user daemon-reload"])
    }

    /// The list follows the vault: a password added later that the corpus
    /// already holds is no news; after passwd (a new vault key, so a new
    /// watch key) the next unlock writes the list again and the look goes on.
    @Test func theListFollowsTheVaultAndItsKey() throws {
        let w = try World()
        #expect(try w.unlocked(["add", "--title", "Mail", "--entry-password-stdin"], stdin: "master\nfirst-password-one\n").status == 0)
        try w.breach(["breached-before-it-was-added"])
        #expect(try w.unlocked(["watch", "--install"]).status == 0)
        #expect(try w.unlocked(["add", "--title", "Old", "--entry-password-stdin"], stdin: "master\nbreached-before-it-was-added\n").status == 0)
        #expect(try w.run(["watch"]).stdout == "Nothing new: 2 passwords looked for in \(w.corpus.path) (unchanged, not read again).\n")

        let rekeyed = try w.unlocked(["passwd"], stdin: "master\nkettle-orbit-marsh-4217\nkettle-orbit-marsh-4217\n")
        #expect(rekeyed.status == 0, "\(rekeyed.stderr)")
        #expect(try w.unlocked(["list"], stdin: "kettle-orbit-marsh-4217\n").status == 0)
        try w.breach(["breached-before-it-was-added", "first-password-one"])
        let news = try w.run(["watch", "--quiet"])
        #expect(news.stdout.hasPrefix("A password of \(w.f.vault) was found in breach data"), "\(news.stdout)\(news.stderr)")
        let status = try w.run(["watch", "--status"])
        #expect(status.status == 0 && status.stdout.hasPrefix("Watching \(w.f.vault): 2 passwords (prefixes and salted digests).\n"), "\(status.stdout)")
    }

    /// Online, the watched prefixes are asked of the range API (nothing else leaves the machine).
    @Test func onlineTheRangesAreAsked() throws {
        let w = try World()
        #expect(try w.unlocked(["add", "--title", "Mail", "--entry-password-stdin"], stdin: "master\nonline-watch-breach\n").status == 0)
        try w.breach([])
        #expect(try w.unlocked(["watch", "--install"]).status == 0)
        let hash = try OnlineBreachTests.sha1("online-watch-breach")
        let server = try OnlineBreachTests.Server(script: [String(hash.prefix(5)): [["status": 200, "body": "\(hash.dropFirst(5)):9\r\n" + OnlineBreachTests.padding + "\r\n"]]], in: w.f.dir)
        try Data("breach-corpus = \(w.corpus.path)\nrange-url = http://127.0.0.1:\(server.port)/range\n".utf8).write(to: w.config)
        let news = try w.run(["watch", "--online", "--quiet"])
        #expect(news.status == 0 && news.stdout.hasPrefix("A password of \(w.f.vault) was found in breach data (Pwned Passwords online (127.0.0.1))."), "\(news.stdout)\(news.stderr)")
        #expect(server.requests().map(\.path) == ["/range/\(hash.prefix(5))"])
    }
}
