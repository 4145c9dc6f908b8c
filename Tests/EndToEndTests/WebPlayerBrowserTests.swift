import Foundation
import Testing

/// The web player in a real browser: headless Chromium (Debian's, installed
/// by `make test-deps`) opens the page at a step's link, runs its script,
/// and the DOM it leaves shows that step; no console error.
@Suite struct WebPlayerBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The DOM after the page's script ran, and what the browser logged.
    static func dom(_ page: URL, fragment: String) throws -> (dom: String, log: String) {
        let result = try Binary.run(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000", "--enable-logging=stderr", "--v=0",
                                     "--dump-dom", page.absoluteString + fragment], program: chromium!)
        return (result.stdout, result.stderr)
    }

    @Test(.enabled(if: chromium != nil, "Chromium is not installed (make test-deps installs Debian's chromium)"))
    func thePlayerShowsTheLinkedStepWithNoConsoleError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-player-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("player.html")
        let written = try Binary.run(["demo", "--html", page.path, "worst-first", "upgrade-to-passkey"])
        #expect(written.status == 0 && written.stdout.hasPrefix("Wrote \(page.path): 2 scenarios, "), "\(written.stderr)")
        let unknown = try Binary.run(["demo", "--html", page.path, "nope"])
        #expect(unknown.status == 2 && unknown.stderr == "bulwark: no scenario named 'nope' ('bulwark demo --list' names them).\n")

        let (dom, log) = try Self.dom(page, fragment: "#upgrade-to-passkey/3")
        // Every chapter listed, the linked step shown: its caption, its screen, its place.
        #expect(dom.contains(">The worst account first, fixed with one key</a>") && dom.contains(">Upgrade to a passkey</a>"))
        #expect(dom.contains(#"<p id="caption" aria-live="polite">bulwark asks first, as a browser would: the passkey is for jane@mail.example on shiny.example</p>"#))
        #expect(dom.contains("Save a passkey for jane@mail.example on shiny.example?"))
        let current = dom.components(separatedBy: #"class="current""#).count - 1
        #expect(current == 1 && dom.contains(#"<h1 id="title">Upgrade to a passkey</h1>"#))
        #expect(dom.contains("data-first-frame-ms="))
        #expect(!log.contains("Uncaught") && !log.contains(":ERROR:CONSOLE") && !log.lowercased().contains("console(") , "\(log)")
        // No link: the first step.
        let (first, _) = try Self.dom(page, fragment: "")
        #expect(first.contains(#"<span id="position">1 / "#))
    }
}
