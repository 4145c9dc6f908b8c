import Foundation
import Testing

/// `bulwark code-setup URL`: a code's set-up link saved to the entry it
/// belongs to, offered before anything is saved (WWDC21), through the real
/// binary; on a terminal under tmux as the desktop's handler runs it.
@Suite struct CodeSetupCommandTests {
    static let shiny = "otpauth://totp/Shiny:jane%40mail.example?secret=JBSWY3DPEHPK3PXP&issuer=Shiny"
    /// RFC 6238's SHA-1 secret ("12345678901234567890"), eight digits.
    static let rfc = "apple-otpauth://totp/Garden%20Club:jane?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Garden%20Club&digits=8"

    @Test func theEntryIsChosenBeforeAnythingIsSaved() throws {
        let demo = try AccountCommandTests.Demo()
        // No one to ask: refused, naming the entries that look like the code's.
        let unasked = try demo.run(["code-setup", Self.shiny])
        #expect(unasked.status == 2 && unasked.stdout.isEmpty)
        #expect(unasked.stderr == "bulwark: no one to ask which entry a code from Shiny for jane@mail.example belongs to: give --entry ENTRY or --new TITLE; entries that look like it: Shiny, Shiny Store. Nothing was saved.\n")
        #expect((try demo.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any])["totp"] is NSNull)

        let saved = try demo.run(["code-setup", Self.shiny, "--entry", "Shiny"])
        #expect(saved.status == 0 && saved.stdout == "Saved a code from Shiny for jane@mail.example to Shiny.\n" && saved.stderr.isEmpty)
        let other = Self.shiny.replacingOccurrences(of: "JBSWY3DPEHPK3PXP", with: "KRSXG5CTMVRXEZLU")
        let kept = try demo.run(["code-setup", other, "--entry", "Shiny"])
        #expect(kept.status == 2 && kept.stderr == "bulwark: Shiny already has a code; give --replace to put this one in its place. Nothing was saved.\n")
        #expect(try demo.run(["code-setup", other, "--entry", "Shiny", "--replace"]).status == 0)
        let shown = try demo.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any]
        #expect(shown["totp"] as? String == other)

        // Apple's scheme, kept as otpauth://; a new entry whose code is RFC 6238's.
        let new = try demo.run(["code-setup", Self.rfc, "--new", "Garden Club"])
        #expect(new.status == 0 && new.stdout == "Saved a code from Garden Club for jane in a new entry, Garden Club.\n")
        let code = try demo.json(["code", "Garden Club", "--json", "--at", "59"]) as! [String: Any]
        #expect(code["code"] as? String == "94287082")
        let garden = try demo.json(["show", "Garden Club", "--json", "--reveal"]) as! [String: Any]
        #expect((garden["totp"] as? String)?.hasPrefix("otpauth://totp/Garden%20Club:jane?") == true && garden["username"] as? String == "jane")

        // A link that is not a code's: refused without its secret in the message.
        let bad = try demo.run(["code-setup", "otpauth://totp/X?secret=SECRET!!&issuer=X", "--new", "X"])
        #expect(bad.status == 2 && !bad.stderr.contains("SECRET"))
        #expect(bad.stderr == "bulwark: the link is not a verification code's set-up link (the secret parameter is not base32: '!' at position 7). Nothing was saved.\n")
    }

    /// As the desktop's handler runs it (bulwark-code-setup.desktop, in a
    /// terminal): the secret is gone from the process's arguments while it
    /// waits, the entries that look like the code's are listed best first,
    /// and Enter takes the first.
    @Test func onATerminalTheLikelyEntriesAreOfferedAndTheSecretIsNotInItsArguments() throws {
        let demo = try AccountCommandTests.Demo()
        let tmux = try demo.onTerminal("code-setup '\(Self.shiny)'", unlock: false)
        defer { tmux.close() }
        // bulwark is the child of the pane's shell (the shell's own line holds the link, as a terminal's command would not).
        let pid = try InstallTests.shell("pgrep -P \(try tmux.paneValue("#{pane_pid}"))").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let arguments = try String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
        #expect(arguments.contains("code-setup") && !arguments.contains("JBSWY3DPEHPK3PXP"), "\(arguments)")
        try tmux.sendBytes("demo\r")
        let screen = try tmux.waitFor(text: "Enter: 1]", seconds: 30)
        #expect(screen.contains("Save a code from Shiny for jane@mail.example to which entry?\n  1  Shiny (jane@mail.example)\n  2  Shiny Store (jane@mail.example)\n  n  a new entry named Shiny\n  q  nothing"), "\(screen)")
        try tmux.sendBytes("\r")
        #expect(try tmux.exitStatus(seconds: 30) == 0, "\((try? tmux.capture()) ?? "")")
        #expect(try tmux.capture().contains("Saved a code from Shiny for jane@mail.example to Shiny."))
        let shown = try demo.json(["show", "Shiny", "--json", "--reveal"]) as! [String: Any]
        #expect(shown["totp"] as? String == Self.shiny)
    }

    /// The handler the desktop runs for otpauth:// and apple-otpauth:// links, as installed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/desktop-file-validate"), "desktop-file-utils is not installed (make test-deps installs it)"))
    func theDesktopHandlerIsValidAndClaimsBothSchemes() throws {
        let file = InstallTests.root.appendingPathComponent("Sources/Packaging/bulwark-code-setup.desktop").path
        let valid = try InstallTests.shell("desktop-file-validate \(file) 2>&1 | grep -v hint:")
        #expect(valid.stdout.isEmpty, "\(valid.stdout)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\nExec=bulwark code-setup %u\n") && text.contains("\nTerminal=true\n"))
        #expect(text.contains("\nMimeType=x-scheme-handler/otpauth;x-scheme-handler/apple-otpauth;\n"))
    }
}
