import Foundation
import Testing

/// The main flows of the full-screen app, in a real terminal (tmux), on the
/// embedded demo with its real service latency.
@Suite(.serialized) struct AppTerminalTests {
    static let demo = "\(Binary.path) demo"

    /// Counts the rows from the selected recommendation (the one the detail
    /// names) to the account, presses `j` that many times at once, and
    /// waits for the detail to name it. Keys are read in order, so a busy
    /// machine cannot make it overshoot, as pressing and looking could
    /// (found in CI: a capture taken before a `j` was drawn).
    static func selectRecommendation(_ tmux: TmuxSession, _ title: String) throws {
        let screen = try tmux.waitFor("a recommendation selected") { recommendations($0).selected != nil }
        let (rows, selected) = recommendations(screen)
        let target = try #require(rows.firstIndex(of: title), "\(title) is not listed:\n\(screen)")
        #expect(target >= selected!, "\(title) is above the selection:\n\(screen)")
        for _ in selected!..<max(selected!, target) { try tmux.send("j") }
        try tmux.waitFor("\(title) selected") { recommendations($0).selected == target }
    }

    /// The list's titles ("│ ! HIGH ↑ Northwind Bank       weak: …│") and
    /// the row the detail names on its first line ("│ ! HIGH  Northwind Bank").
    static func recommendations(_ screen: String) -> (rows: [String], selected: Int?) {
        let panes = screen.split(separator: "\n").dropFirst(4).map { $0.split(separator: "│", omittingEmptySubsequences: false) }
        let rows = panes.compactMap { line -> String? in
            guard line.count >= 3, ["CRIT", "HIGH", "MED", "LOW"].contains(line[1].dropFirst(3).prefix(4).trimmingCharacters(in: .whitespaces)) else { return nil }
            return line[1].dropFirst(10).prefix(20).trimmingCharacters(in: .whitespaces)
        }
        let detail = panes.first.flatMap { $0.count >= 3 ? String($0[2]).trimmingCharacters(in: .whitespaces) : nil } ?? ""
        let named = detail.range(of: "  ").map { detail[$0.upperBound...].trimmingCharacters(in: .whitespaces) } ?? ""
        return (rows, rows.firstIndex { $0 == named || ($0.hasSuffix("…") && named.hasPrefix($0.dropLast())) })
    }

    static func search(_ tmux: TmuxSession, _ text: String, expect title: String) throws {
        try tmux.send("/")
        for character in text { try tmux.send(String(character)) }
        try tmux.send("Enter")
        try tmux.waitFor("\(title) selected") { $0.contains("1/") && $0.split(separator: "\n").dropFirst().first?.contains("│ \(title)") == true }
    }

    /// Upgrade to a passkey in a real terminal: the sheet, the result, and
    /// the sign-in through the service's relying party after its own sheet.
    @Test func upgradeToAPasskeyAndSignInWithIt() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: Self.demo + " --no-lock")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try Self.search(tmux, "shiny", expect: "Shiny")
        try tmux.send("P")
        // Waited for whole: a capture can land while curses is still writing the frame.
        let sheet = try tmux.waitFor("the passkey sheet") { $0.contains("Save a passkey for jane@mail.example on shiny.example?") && $0.contains("Enter save") }
        #expect(sheet.contains("[ Save ]"))
        try tmux.send("Enter")
        let result = try tmux.waitFor(text: "Shiny: upgraded to a passkey")
        #expect(result.contains("Nothing to phish or reuse: the account signs in with a passkey"))
        try tmux.send("Enter")
        let detail = try tmux.waitFor(text: "Passkey    shiny.example")
        #expect(!detail.contains("Password   ••"))
        try tmux.send("s")
        try tmux.waitFor(text: "Sign in to shiny.example with your passkey?")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Signed in to Shiny.")
    }

    /// Esc while "Upgrading to a strong password…" spins (Shiny answers
    /// after 600 ms): the service is told to stop, the result says nothing
    /// changed, the account's findings are as they were, and the next
    /// upgrade goes through.
    @Test func escDuringAnUpgradeCancelsItAndNothingChanges() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: Self.demo + " --no-lock")  // opens unlocked
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try Self.search(tmux, "shiny", expect: "Shiny")
        try tmux.waitFor(text: "also used for 2 other accounts")
        // u asks before the service is told; Esc there sends nothing.
        try tmux.send("u")
        let asked = try tmux.waitFor("the question before the service is told") { $0.contains("Change the password at Shiny?") && $0.contains("[ Enter Continue ]") }
        #expect(asked.contains("[ Esc Cancel ]") && asked.contains("tells Shiny to use it"))
        try tmux.send("Escape")
        try tmux.waitFor(text: "Shiny: nothing was sent to the service.")
        try tmux.send("u")
        try tmux.waitFor(text: "Change the password at Shiny?")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Upgrading to a strong password…")
        try tmux.send("Escape")
        let cancelled = ["Shiny: cancelled", "Shiny was told to stop before it changed anything.", "Nothing was changed."]
        let result = try tmux.waitFor("the cancelled result whole") { screen in cancelled.allSatisfy(screen.contains) }
        #expect(cancelled.allSatisfy(result.contains))
        try tmux.send("Enter")
        let after = try tmux.waitFor(text: "also used for 2 other accounts")
        #expect(!after.contains("History "))  // no old password: nothing was saved
        try tmux.send("u")
        try tmux.waitFor(text: "Change the password at Shiny?")
        try tmux.send("Enter")
        // The whole result, not its heading alone: under load tmux can be
        // captured with the top of a frame drawn and the rest still to come.
        let findings = ["Shiny: upgraded to a strong password", "Also used on 2 other accounts", "Could sign in with a passkey instead"]
        let upgraded = try tmux.waitFor("the upgrade's result with its findings") { screen in findings.allSatisfy(screen.contains) }
        #expect(findings.allSatisfy(upgraded.contains))
    }

    /// The mouse in a real terminal: a click selects a row, the wheel
    /// scrolls, a footer hint is a button; `mouse = off` leaves it all alone.
    @Test func clicksAndTheWheel() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: Self.demo + " --no-lock")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.click(x: 4, y: 4)  // the fourth row of the list
        try tmux.waitFor(text: "4/42")
        try tmux.click(x: 4, y: 4, button: 65)
        let screen = try tmux.waitFor(text: "7/42")
        let footer = try #require(screen.split(separator: "\n").firstIndex { $0.contains("? help") })
        let column = try #require(screen.split(separator: "\n")[footer].range(of: "? help")).lowerBound
        let x = screen.split(separator: "\n")[footer][..<column].count
        try tmux.click(x: x, y: footer)
        try tmux.waitFor(text: "Keys: Vault")

        let config = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-mouse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        try Data("mouse = off\n".utf8).write(to: config)
        let off = try TmuxSession(width: 100, height: 30, command: Self.demo + " --no-lock",
                                  environment: ["TERM": "xterm-256color", "BULWARK_CONFIG": config.path])
        defer { off.close() }
        try off.waitFor(text: "1/42")
        try off.click(x: 4, y: 4)
        // Keys are read in order: once j is drawn, the click was read first,
        // and had it selected the fourth row, j would show 5/42.
        try off.send("j")
        let moved = try off.waitFor("j drawn") { $0.contains("2/42") || $0.contains("5/42") }
        #expect(moved.contains("2/42"), "\(moved)")
    }

    /// A locale that is not UTF-8: every cell ASCII, the four severities
    /// still four marks, the one-key mark and the keys still there.
    /// A vault at the standard KDF cost (scrypt 2^17, about half a second):
    /// while its key is derived the unlock screen shows a bar that fills.
    @Test func theUnlockShowsTheKeyDerivationFilling() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-kdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let vault = directory.appendingPathComponent("vault.db").path
        let password = "correct horse battery staple 9"
        #expect(try Binary.run(["init", "--vault", vault, "--password-stdin"], stdin: "\(password)\n\(password)\n").status == 0)
        let tmux = try TmuxSession(width: 80, height: 24, command: "\(Binary.path) open --vault \(vault)")
        defer { tmux.close() }
        try tmux.waitFor(text: "Unlock your vault")
        try tmux.sendBytes(password)
        try tmux.send("Enter")
        let deriving = try tmux.waitFor("the bar") { $0.contains("Unlocking: deriving the key from your password…") && $0.contains("%") }
        let share = deriving.split(separator: "\n").first { $0.contains("%") }.flatMap { line in
            line.split(separator: " ").first { $0.hasSuffix("%") }.flatMap { Int($0.dropLast()) }
        }
        #expect(share.map { (0...99).contains($0) } == true, "\(deriving)")
        try tmux.waitFor(text: "─ unlocked · ")
    }

    @Test func aNonUTF8LocaleGetsASCII() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: Self.demo + " --no-lock",
                                   environment: ["TERM": "xterm-256color", "LC_ALL": "C"])
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("r")
        let screen = try tmux.waitFor(text: "HIGH PRIORITY")
        let ascii = screen.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii, "\(screen)")
        #expect(screen.contains("| X CRIT ^ Broker") && screen.contains("| ! HIGH ^ Old Game") && screen.contains("kj move") && !screen.contains("^v"))
        try tmux.send("?")
        let help = try tmux.waitFor(text: "Marks")
        #expect(help.contains("Marks  X critical  ! high  * medium  . low  ^ one key fixes it"))
    }

    @Test func unlockThenUpgradeWithTOTPStepUpFromRecommendations() throws {
        let tmux = try TmuxSession(width: 120, height: 40, command: Self.demo)
        defer { tmux.close() }
        try tmux.waitFor(text: "Unlock your vault")
        for character in "demo" { try tmux.send(String(character)) }
        try tmux.send("Enter")
        try tmux.waitFor(text: "8 passwords newly found in data breaches")
        try tmux.send("r")
        try tmux.waitFor(text: "HIGH PRIORITY (18)")  // Harbor Credit Union and Nimbus ID joined the demo
        try Self.selectRecommendation(tmux, "Northwind Bank")
        try tmux.send("u")
        try tmux.waitFor(text: "Change the password at Northwind Bank?")
        try tmux.send("Enter")
        // Waited for whole: a capture can land while curses is still writing the frame.
        let stepUp = try tmux.waitFor("the step-up screen") { $0.contains("Confirm it's you") && $0.contains("5 attempts left") }
        #expect(stepUp.contains("┌ Northwind Bank") && stepUp.contains("Esc Cancel") && stepUp.contains("5 attempts left"))
        try tmux.send("f")
        let after = try tmux.waitFor(text: "Northwind Bank now uses a strong password, saved in bulwark. The old one is kept in history.")
        #expect(!after.contains("Northwind Bank  ") || !after.contains("! HIGH  Northwind"))  // no longer recommended
        try Self.search(tmux, "northwind", expect: "Northwind Bank")
        try tmux.waitFor(text: "History    1 old password  h shows it")
        try tmux.send("v")
        let revealed = try tmux.waitFor("the password revealed") { screen in
            screen.split(separator: "\n").contains { $0.contains("Password   ") && !$0.contains("••••") }
        }
        let line = revealed.split(separator: "\n").first { $0.contains("Password   ") } ?? ""
        #expect(!line.contains("Northwind2019!"))
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func signInWithAppleWithHiddenEmail() throws {
        let tmux = try TmuxSession(width: 120, height: 40, command: Self.demo + " --no-lock")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try Self.search(tmux, "city health", expect: "City Health Portal")
        try tmux.send("a")
        try tmux.waitFor(text: "Use your Apple ID to upgrade your City Health Portal account.")
        try tmux.send("Down")
        try tmux.waitFor(text: "(•) Hide My Email")
        try tmux.send("Enter")
        let done = try tmux.waitFor(text: "City Health Portal now uses Sign in with Apple with a hidden e-mail. Its password was removed.")
        #expect(done.contains("Sign-in    Sign in with Apple (authorized)"))
        #expect(done.contains("@privaterelay.appleid.example (hidden)"))
    }

    @Test func aFailingServiceShowsItsReason() throws {
        let tmux = try TmuxSession(width: 100, height: 30, command: Self.demo + " --no-lock")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try Self.search(tmux, "grocer", expect: "Grocer")
        try tmux.send("u")
        try tmux.waitFor(text: "Change the password at Grocer?")
        try tmux.send("Enter")
        try tmux.waitFor(text: "✗ Grocer: Password changes are paused for maintenance until 6 pm.")
    }

    @Test func aStormOfResizesLosesNothing() throws {
        let tmux = try TmuxSession(width: 120, height: 40, command: Self.demo + " --no-lock")
        defer { tmux.close() }
        try tmux.waitFor(text: "1/42")
        try tmux.send("j")
        try tmux.waitFor(text: "2/42")
        let sizes = [(60, 16), (200, 60), (45, 10), (80, 24), (121, 41)]
        for index in 0..<200 {
            let size = sizes[index % sizes.count]
            try tmux.resize(width: size.0, height: size.1)
        }
        try tmux.resize(width: 120, height: 40)
        let screen = try tmux.waitFor("the 120x40 layout after 200 resizes") { $0.contains("└" + String(repeating: "─", count: 118) + "┘") && $0.contains("2/42") }
        #expect(screen.contains("Broker"))
        try tmux.send("j")
        try tmux.waitFor(text: "3/42")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }
}

/// `bulwark open` on a vault that does not exist yet: created from a
/// password typed twice, an entry added in the form, then read by the CLI.
@Suite(.serialized) struct OpenCommandTerminalTests {
    @Test func firstRunCreatesTheVaultAndAnEntryCanBeAdded() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-open-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let vault = dir.appendingPathComponent("vault.db").path
        let tmux = try TmuxSession(width: 100, height: 30, command: "\(Binary.path) open --vault \(vault)")
        defer { tmux.close() }
        try tmux.waitFor(text: "Create your vault")
        for character in "lantern orchid velvet quarry" { try tmux.send(character == " " ? "Space" : String(character)) }
        try tmux.send("Enter")
        for character in "lantern orchid velvet quarry" { try tmux.send(character == " " ? "Space" : String(character)) }
        try tmux.send("Enter")
        try tmux.waitFor(text: "No entries yet.", seconds: 20)  // scrypt N=2^17 first
        try tmux.send("n")
        try tmux.waitFor(text: "Add an entry")
        for character in "Garden" { try tmux.send(String(character)) }
        try tmux.send("Tab")
        for character in "https://garden.example" { try tmux.send(String(character)) }
        try tmux.send("Tab", "Tab", "C-g")
        try tmux.waitFor(text: "Generate for garden.example")
        try tmux.waitFor(text: "bits: a password in Apple's format")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Generated a password in Apple's format")
        try tmux.send("Enter")
        try tmux.waitFor(text: "Saved Garden.")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        let list = try Binary.run(["list", "--vault", vault, "--password-stdin"], stdin: "lantern orchid velvet quarry\n")
        #expect(list.status == 0 && list.stdout.contains("Garden\t") && list.stdout.contains("garden.example"))
    }
}
