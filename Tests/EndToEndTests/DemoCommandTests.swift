import Foundation
import Testing

/// `bulwark demo`: the set-up for the CLI, the scenario list, every
/// scenario played headless (so a demo cannot break silently), snapshots
/// and their check, recordings, and autoplay in a real terminal.
@Suite struct DemoCommandTests {
    static func scenarioNames() throws -> [String] {
        try Binary.run(["demo", "--list"]).stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }.map { String($0.prefix { $0 != " " }) }
    }

    @Test func listNamesEveryScenarioAndWhatItShows() throws {
        let result = try Binary.run(["demo", "--list"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { !$0.hasPrefix(" ") }.count == 27 && lines.allSatisfy { $0.count <= 80 })
        #expect(Array(lines.prefix(4)) == ["worst-first                The worst account first, fixed with one key",
                                           "                             Security Recommendations ranked worst first, the ↑",
                                           "                             mark on what one key fixes, an upgrade and its",
                                           "                             result panel."])
    }

    static let allScenarios = ["worst-first", "instant-strong-password", "strong-password-totp", "sms-step-up", "failure-with-reason", "failure-without-reason",
                               "unsupported-upgrade", "sign-in-with-apple-shared", "sign-in-with-apple-hidden", "network-loss",
                               "substituted-password", "in-app-upgrade", "first-look", "whole-account", "sign-up-with-apple", "code-cool-down",
                               "apple-id-settings", "apple-id-email-and-delete", "app-transfer", "code-setup",
                               "upgrade-to-passkey", "security-key-step-up", "oauth-sign-in", "oauth-ephemeral", "sign-in-with-apple-scopes", "sign-in-choice",
                               "breach-news"]

    @Test(arguments: allScenarios)
    func everyScenarioPlaysHeadless(name: String) throws {
        #expect(try Self.scenarioNames().contains(name))
        let result = try Binary.run(["demo", "--autoplay", name, "--headless", "--size", "100x30"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(name): "))
    }

    /// `--svg DIR`: one picture per caption and at the end, beside the text
    /// snapshots of the same steps; the same scenario gives the same bytes.
    @Test func svgPicturesOfAScenarioAreTheSameBytesEveryRun() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-svg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        var runs: [[String: Data]] = []
        for run in ["a", "b"] {
            let dir = base.appendingPathComponent(run)
            let result = try Binary.run(["demo", "--autoplay", "upgrade-to-passkey", "--headless", "--size", "100x30", "--svg", dir.path,
                                         "--snapshots", dir.appendingPathComponent("text").path, "--svg-animated", dir.appendingPathComponent("all.anim").path])
            #expect(result.status == 0, "\(result.stderr)")
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".svg") }.sorted()
            runs.append(Dictionary(uniqueKeysWithValues: try names.map { ($0, try Data(contentsOf: dir.appendingPathComponent($0))) }))
            let texts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("text").path).filter { !$0.hasSuffix(".style.txt") }
            #expect(names.map { $0.replacingOccurrences(of: ".svg", with: "") } == texts.sorted().map { $0.replacingOccurrences(of: ".txt", with: "") })
        }
        #expect(runs[0].count == 7 && runs[0] == runs[1])
        let animated = try ["a", "b"].map { try Data(contentsOf: base.appendingPathComponent($0).appendingPathComponent("all.anim")) }
        #expect(animated[0] == animated[1] && String(decoding: animated[0], as: UTF8.self).components(separatedBy: "<animate ").count == 8)
        let first = try #require(runs[0]["03-bulwark-asks-first-as-a-browser.svg"].map { String(decoding: $0, as: UTF8.self) })
        #expect(first.contains("Save a passkey for jane@mail.example on shiny.example?") && first.contains(#"class="caption""#))
    }

    @Test func snapshotsAreWrittenAndCheckedAgainstADirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-snap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let written = try Binary.run(["demo", "--autoplay", "sign-in-with-apple-hidden", "--headless", "--size", "80x24", "--snapshots", dir.path])
        #expect(written.status == 0, "\(written.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(files == ["01-city-health-portal-reuses-a-weak.style.txt", "01-city-health-portal-reuses-a-weak.txt",
                          "02-a-use-sign-in-with-apple.style.txt", "02-a-use-sign-in-with-apple.txt",
                          "03-hide-my-email-the-portal-gets.style.txt", "03-hide-my-email-the-portal-gets.txt",
                          "04-the-account-has-no-password-left.style.txt", "04-the-account-has-no-password-left.txt",
                          "05-end.style.txt", "05-end.txt"])
        let sheet = try String(contentsOf: dir.appendingPathComponent("03-hide-my-email-the-portal-gets.txt"), encoding: .utf8)
        #expect(sheet.contains("▶ Hide My Email: the portal gets a private relay address"))
        #expect(sheet.contains("Use your Apple ID to upgrade your City Health Portal account."))

        let same = try Binary.run(["demo", "--autoplay", "sign-in-with-apple-hidden", "--headless", "--size", "80x24", "--check", dir.path])
        #expect(same.status == 0 && same.stdout == "All 5 screens match \(dir.path).\n", "\(same.stderr)")

        let end = dir.appendingPathComponent("05-end.txt")
        // The status row at 80 columns: "…with a hidden e… M for more".
        try (try String(contentsOf: end, encoding: .utf8)).replacingOccurrences(of: "with a hidden e", with: "with a shared e").write(to: end, atomically: true, encoding: .utf8)
        let changed = try Binary.run(["demo", "--autoplay", "sign-in-with-apple-hidden", "--headless", "--size", "80x24", "--check", dir.path])
        #expect(changed.status == 1)
        #expect(changed.stderr.hasPrefix("05-end.txt differs:\n-"))
        #expect(changed.stderr.contains("with a shared e") && changed.stderr.contains("with a hidden e"))
    }

    @Test func aRecordingIsAnAsciicast() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-\(UUID().uuidString).cast")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Binary.run(["demo", "--autoplay", "first-look", "--headless", "--size", "80x24", "--record", file.path])
        #expect(result.status == 0)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as! [String: Any]
        #expect(header["version"] as? Int == 2 && header["width"] as? Int == 80 && header["height"] as? Int == 24)
        #expect(lines.count == 7)  // the header and six screens
        let event = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as! [Any]
        #expect(event.count == 3 && event[1] as? String == "o" && (event[2] as? String)?.hasPrefix("\u{1b}[H") == true)
        #expect(!lines.joined().contains("sunshine33"))  // no password in a recording
        // Headless, one second a screen from the scenario's own start.
        let times = lines.dropFirst().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])?.first as? Double }
        #expect(times == [1, 2, 3, 4, 5, 6])
    }

    /// `--cast-version 3`: the `term` object, and each event timed from the one before it.
    @Test func aVersionThreeRecording() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-\(UUID().uuidString).cast")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Binary.run(["demo", "--autoplay", "first-look", "--headless", "--size", "80x24", "--record", file.path, "--cast-version", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as! [String: Any]
        let term = header["term"] as? [String: Any]
        #expect(header["version"] as? Int == 3 && term?["cols"] as? Int == 80 && term?["rows"] as? Int == 24 && header["width"] == nil)
        let events = lines.dropFirst().compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any] }
        #expect(events.count == 6 && events.allSatisfy { $0[0] as? Double == 1 && $0[1] as? String == "o" })
        let bad = try Binary.run(["demo", "--autoplay", "first-look", "--headless", "--record", file.path, "--cast-version", "4"])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("bulwark: --cast-version takes 2 or 3, not '4'.\n\nUsage: bulwark demo "))
    }

    @Test func badAutoplayArgumentsExitTwo() throws {
        let unknown = try Binary.run(["demo", "--autoplay", "nope", "--headless"])
        #expect(unknown.status == 2 && unknown.stderr.hasPrefix("bulwark: no scenario named 'nope'"))
        let size = try Binary.run(["demo", "--autoplay", "first-look", "--headless", "--size", "huge"])
        #expect(size.status == 2 && size.stderr == "bulwark: --size takes WIDTHxHEIGHT, for example 100x30.\n")
        let stray = try Binary.run(["demo", "--headless"])
        #expect(stray.status == 2 && stray.stderr == "bulwark: --headless goes with --autoplay NAME.\n")
    }

    @Test func setupWritesAVaultTheCommandLineCanDrive() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-setup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let setup = try Binary.run(["demo", "--setup", dir.path])
        #expect(setup.status == 0)
        let vault = dir.appendingPathComponent("vault.db").path
        let list = try Binary.run(["list", "--vault", vault, "--password-stdin"], stdin: "demo\n")
        #expect(list.status == 0 && list.stdout.split(separator: "\n").count == 42)
        let signin = try Binary.run(["signin", "Shiny", "--vault", vault, "--password-stdin"], stdin: "demo\n")
        #expect(signin.stdout == "Signed in to Shiny.\n")
        let analyze = try Binary.run(["analyze", "--json", "--vault", vault, "--password-stdin"], stdin: "demo\n")
        #expect(analyze.status == 12)  // the demo has critical recommendations
    }
}

/// Every scenario, played by the real binary in a real terminal, sped up:
/// each waits on its screen's conditions, not on time, so that the pace
/// changes only how long the captions stay. Not one after another: the 27
/// of them at speed 8, in turn, were the longest stretch of `make test`.
@Suite struct AutoplayScenarioTerminalTests {
    @Test(arguments: DemoCommandTests.allScenarios)
    func everyScenarioPlaysInATerminal(name: String) throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) demo --autoplay \(name) --speed 30 --exit")
        defer { tmux.close() }
        let status = try tmux.exitStatus(seconds: 60)
        let screen = try tmux.capture()
        #expect(status == 0, "\(name): \(screen)")
    }
}

/// Autoplay in a real terminal: human pace (sped up), captions, exit 0.
@Suite(.serialized) struct AutoplayTerminalTests {

    /// Without --exit the last frame stays, saying so, until a key.
    @Test func captionsShowAndTheResultStays() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) demo --autoplay sign-in-with-apple-hidden --speed 6")
        defer { tmux.close() }
        try tmux.waitFor(text: "▶ City Health Portal reuses a weak password", seconds: 20)
        try tmux.waitFor(text: "now uses Sign in with Apple with a hidden e-mail", seconds: 30)
        let held = try tmux.waitFor(text: "The end · any key leaves", seconds: 30)
        #expect(held.contains("now uses Sign in with Apple with a hidden e-mail"))
        try tmux.send("x")
        #expect(try tmux.exitStatus(seconds: 30) == 0)
    }

    @Test func thePresenterCanStepAndRestart() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) demo --autoplay first-look --speed 2 --stay")
        defer { tmux.close() }
        try tmux.waitFor(text: "▶ Forty-two accounts", seconds: 20)
        try tmux.send("Space")  // pause, then one action at a time
        let paused = try tmux.waitFor(text: "Paused · ")
        try tmux.send("n")
        try tmux.waitFor("one step") { $0 != paused }
        try tmux.send("R")  // restart: a fresh demo, the scenario from the top
        try tmux.waitFor(text: "Unlock your vault", seconds: 20)
        try tmux.waitFor(text: "▶ Forty-two accounts", seconds: 30)
        try tmux.send("C-c")
        #expect(try tmux.exitStatus() == 0)
    }

    /// The stakeholder tour: each chapter's title card, → and ← between
    /// chapters (each a fresh demo), q ends the whole tour.
    @Test func theTourMovesBetweenChaptersAndStops() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) demo --tour --speed 2")
        defer { tmux.close() }
        try tmux.waitFor(text: "Chapter 1 of 7", seconds: 20)
        #expect(try tmux.capture().contains("Why it matters:"))
        try tmux.send("Right")
        try tmux.waitFor(text: "Chapter 2 of 7", seconds: 20)
        try tmux.send("Left")
        try tmux.waitFor(text: "Chapter 1 of 7", seconds: 20)
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func anInteractiveSessionIsRecorded() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-\(UUID().uuidString).cast")
        defer { try? FileManager.default.removeItem(at: file) }
        let tmux = try TmuxSession(width: 80, height: 24, command: "\(Binary.path) demo --no-lock --record \(file.path)")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("j")
        try tmux.waitFor(text: "2/42")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as! [String: Any]
        #expect(header["version"] as? Int == 2 && header["width"] as? Int == 80 && header["height"] as? Int == 24)
        #expect(lines.count >= 3)
        let times = try lines.dropFirst().map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [Any] }.map { $0[0] as! Double }
        #expect(times == times.sorted())  // events in time order, as the format requires
    }

    @Test func thePresenterCanPauseAndResume() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) demo --autoplay first-look --speed 4 --stay")
        defer { tmux.close() }
        try tmux.waitFor(text: "▶ Forty-two accounts", seconds: 20)
        #expect(try tmux.capture().contains("Space pause  R restart  q stop"))  // the presenter's keys, not the app's
        try tmux.send("Space")
        let paused = try tmux.waitFor(text: "Paused · Forty-two accounts")
        #expect(paused.contains("Space resume  n one step  R restart  q stop"))
        usleep(1_500_000)
        #expect(try tmux.capture() == paused)  // nothing moves while paused
        try tmux.send("Space")
        try tmux.waitFor(text: "▶ Tab: Security Recommendations", seconds: 30)
        try tmux.waitFor("the caption to go") { !$0.contains("▶ ") && $0.contains("HIGH PRIORITY") }
        try tmux.send("q")  // --stay: the session is the presenter's now
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func qStopsAnAutoplay() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) demo --autoplay first-look --speed 1")
        defer { tmux.close() }
        try tmux.waitFor(text: "▶ Forty-two accounts", seconds: 20)
        try tmux.send("q")
        #expect(try tmux.exitStatus(seconds: 20) == 0)
    }
}
