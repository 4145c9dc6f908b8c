import Foundation
import Testing

/// The web player in a real browser: headless Chromium (Debian's, installed
/// by `make test-deps`) opens the page at a step's link, runs its script,
/// and the DOM it leaves shows that step; no console error.
@Suite struct WebPlayerBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The DOM after the page's script ran, and what the browser logged.
    static func dom(_ page: URL, fragment: String, window: String = "1280,720") throws -> (dom: String, log: String) {
        let result = try Binary.run(["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000", "--enable-logging=stderr", "--v=0",
                                     "--window-size=\(window)", "--dump-dom", page.absoluteString + fragment], program: chromium!)
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

    /// The player driven by its own keys in the browser: a probe appended to
    /// the page presses →, →, ←, 2 and ← as a person would (keydown on the
    /// document, as the browser sends it) and notes where each left the
    /// player; then Space plays, and three seconds of the page's time later
    /// the next step is on the screen.
    @Test(.enabled(if: chromium != nil, "Chromium is not installed (make test-deps installs Debian's chromium)"))
    func theKeysStepThroughThePlayer() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-player-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("player.html")
        #expect(try Binary.run(["demo", "--html", page.path, "worst-first", "upgrade-to-passkey"]).status == 0)
        let probe = #"""
        <script>
        (function () {
          var seen = [];
          ["ArrowRight", "ArrowRight", "ArrowLeft", "2", "ArrowLeft"].forEach(function (key) {
            document.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true}));
            seen.push(location.hash + " " + document.getElementById("position").textContent.split(" / ")[0]);
          });
          document.dispatchEvent(new KeyboardEvent("keydown", {key: " ", bubbles: true}));
          document.documentElement.dataset.probe = seen.join(",");
        })();
        </script>
        </body>
        """#
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.components(separatedBy: "</body>").count == 2)
        try html.replacingOccurrences(of: "</body>", with: probe).write(to: page, atomically: true, encoding: .utf8)

        let (dom, log) = try Self.dom(page, fragment: "#upgrade-to-passkey/1")
        let probed = try #require(dom.range(of: #"data-probe="[^"]*""#, options: .regularExpression).map { String(dom[$0].dropFirst(12).dropLast()) })
        let seen = probed.split(separator: ",").map(String.init)
        let passkeyStart = try #require(seen.first.flatMap { Int($0.split(separator: " ")[1]) }).advanced(by: -1)
        let worstFirstSteps = passkeyStart - 1
        #expect(worstFirstSteps >= 3)
        #expect(seen == ["#upgrade-to-passkey/2 \(passkeyStart + 1)", "#upgrade-to-passkey/3 \(passkeyStart + 2)", "#upgrade-to-passkey/2 \(passkeyStart + 1)",
                         "#upgrade-to-passkey/1 \(passkeyStart)", "#worst-first/\(worstFirstSteps) \(worstFirstSteps)"])
        // Space played: three seconds on, the next step (the passkey's first) is shown, and the button offers Pause.
        #expect(dom.contains(#"<span id="position">\#(passkeyStart) / "#), "\(dom.prefix(2000))")
        #expect(dom.contains(#"<h1 id="title">Upgrade to a passkey</h1>"#) && dom.contains(">Pause</button>"))
        #expect(!log.contains("Uncaught") && !log.contains(":ERROR:CONSOLE"), "\(log)")
    }

    /// The checked-in player (docs/demo, every scenario) lists every scenario
    /// `demo --list` names, each under its title.
    @Test(.enabled(if: chromium != nil, "Chromium is not installed (make test-deps installs Debian's chromium)"))
    func theGallerysPlayerListsEveryScenario() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/demo/player.html")
        let (dom, log) = try Self.dom(page, fragment: "#oauth-sign-in/2")
        // The list: "name  title" (the title wrapped under it), then what it shows, two columns further in.
        let lines = try Binary.run(["demo", "--list"]).stdout.split(separator: "\n").map(String.init)
        let column = lines.first.map { line in line.prefix { $0 != " " }.count + line.dropFirst(line.prefix { $0 != " " }.count).prefix { $0 == " " }.count } ?? 0
        var listed: [(name: String, title: String)] = []
        for line in lines {
            if !line.hasPrefix(" ") {
                let name = String(line.prefix { $0 != " " })
                listed.append((name, String(line.dropFirst(column))))
            } else if line.prefix(column + 1).allSatisfy({ $0 == " " }) == false, !listed.isEmpty {
                listed[listed.count - 1].title += " " + line.dropFirst(column)
            }
        }
        #expect(listed.count == DemoCommandTests.allScenarios.count)
        for (name, described) in listed {
            let title = try #require(dom.range(of: ##"<a href="#\##(name)/1">[^<]+</a>"##, options: .regularExpression).map {
                String(dom[$0].drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
            }, "\(name) is not listed")
            #expect(described == title, "\(name) is listed as \(title)")
        }
        #expect(dom.contains(#"<h1 id="title">Log in with an identity provider</h1>"#))
        #expect(!log.contains("Uncaught") && !log.contains(":ERROR:CONSOLE"), "\(log)")
    }

    /// A screen of the DOM's frame as text: the rows of styled runs with their tags taken off.
    static func frameText(_ dom: String) -> String? {
        // The start tag's attributes are quoted (a label's quotes escaped): it ends at the first ">" outside quotes.
        guard let open = dom.range(of: #"<pre id="frame""#) else { return nil }
        var at = open.upperBound, quoted = false
        while at < dom.endIndex, quoted || dom[at] != ">" {
            if dom[at] == "\"" { quoted.toggle() }
            at = dom.index(after: at)
        }
        guard at < dom.endIndex, let end = dom.range(of: "</pre>", range: at..<dom.endIndex) else { return nil }
        var text = String(dom[dom.index(after: at)..<end.lowerBound])
        while let tag = text.range(of: "<[^>]*>", options: .regularExpression) { text.removeSubrange(tag) }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = String(line)
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The player at a linked step, screenshotted at a slide's size, beside
    /// the same step as `--svg` draws it and as `--snapshots` writes it:
    /// the same text cell for cell, the same grid, and the screen within the slide.
    @Test(.enabled(if: chromium != nil, "Chromium is not installed (make test-deps installs Debian's chromium)"))
    func aStepInThePlayerIsTheStepsSVG() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-player-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("player.html"), pictures = dir.appendingPathComponent("svg"), texts = dir.appendingPathComponent("text")
        #expect(try Binary.run(["demo", "--html", page.path, "upgrade-to-passkey"]).status == 0)
        let drawn = try Binary.run(["demo", "--autoplay", "upgrade-to-passkey", "--headless", "--size", "100x30",
                                    "--svg", pictures.path, "--snapshots", texts.path])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let svgs = try FileManager.default.contentsOfDirectory(atPath: pictures.path).filter { $0.hasSuffix(".svg") }.sorted()
        let snapshots = try FileManager.default.contentsOfDirectory(atPath: texts.path).filter { $0.hasSuffix(".txt") && !$0.hasSuffix(".style.txt") }.sorted()
        #expect(svgs.count == snapshots.count && svgs.count >= 3)

        let (dom, _) = try Self.dom(page, fragment: "#upgrade-to-passkey/3")
        let shown = try #require(Self.frameText(dom))
        let svg = try String(contentsOf: pictures.appendingPathComponent(svgs[2]), encoding: .utf8)
        #expect(svg.contains(#"data-columns="100""#) && svg.contains(#"data-rows="30""#))
        let drawnText = try #require(Self.svgText(svg, columns: 100, rows: 30))
        #expect(shown == drawnText)
        #expect(shown.contains("Save a passkey for jane@mail.example on shiny.example?"))
        // The caption under the SVG's screen is the player's caption, and the snapshot's.
        let caption = "bulwark asks first, as a browser would: the passkey is for jane@mail.example on shiny.example"
        #expect(dom.contains(#"<p id="caption" aria-live="polite">\#(caption)</p>"#))
        #expect(Self.svgCaption(svg) == caption)
        let snapshot = try String(contentsOf: texts.appendingPathComponent(snapshots[2]), encoding: .utf8)
        #expect(snapshot.contains(caption))

        // The screenshot: a 1280x720 PNG, with the screen drawn inside it.
        let shot = dir.appendingPathComponent("step.png")
        _ = try Binary.run(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--virtual-time-budget=3000", "--window-size=1280,720",
                            "--screenshot=\(shot.path)", page.absoluteString + "#upgrade-to-passkey/3"], program: Self.chromium!)
        let png = try Data(contentsOf: shot)
        let size = png.count >= 24 ? (png[16..<20].reduce(0) { $0 << 8 | Int($1) }, png[20..<24].reduce(0) { $0 << 8 | Int($1) }) : (0, 0)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && size == (1280, 720))
        let (sized, _) = try Self.dom(page, fragment: "#upgrade-to-passkey/3", window: "1280,720")
        let box = try #require(sized.range(of: #"data-frame-box="([0-9]+)x([0-9]+) in ([0-9]+)x([0-9]+)""#, options: .regularExpression).map { String(sized[$0]) })
        let numbers = box.split { !$0.isNumber }.compactMap { Int($0) }
        #expect(numbers.count == 4 && numbers[0] <= numbers[2] && numbers[1] <= numbers[3], "the screen runs off the slide: \(box)")
    }

    /// The screen in an SVG `--svg` wrote, read back independently of
    /// bulwark's own reader: each box glyph's cell (`data-r`, `data-c`,
    /// `data-g`) and each run of text from its first cell (double width where `data-w="2"`).
    static func svgText(_ svg: String, columns: Int, rows: Int) -> String? {
        var grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        func value(_ name: String, _ line: Substring) -> String? {
            line.range(of: #" \#(name)="([^"]*)""#, options: .regularExpression).map { String(line[$0].dropFirst(name.count + 3).dropLast()) }
        }
        func plain(_ text: String) -> String {
            [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")].reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
        }
        for line in svg.split(separator: "\n") {
            guard let r = value("data-r", line).flatMap(Int.init), let c = value("data-c", line).flatMap(Int.init), r < rows, c < columns else { continue }
            if let glyph = value("data-g", line) { grid[r][c] = plain(glyph); continue }
            guard let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>") else { return nil }
            let step = value("data-w", line) == "2" ? 2 : 1
            for (offset, character) in plain(String(line[line.index(after: open)..<close.lowerBound])).enumerated() where c + offset * step < columns {
                grid[r][c + offset * step] = String(character)
                if step == 2, c + offset * step + 1 < columns { grid[r][c + offset * step + 1] = "" }
            }
        }
        return grid.map { row in
            var line = row.joined()
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// The caption under an SVG's screen, its wrapped lines joined.
    static func svgCaption(_ svg: String) -> String {
        svg.split(separator: "\n").filter { $0.contains(#"class="caption""#) }.compactMap { line -> String? in
            guard let open = line.firstIndex(of: ">"), let close = line.range(of: "</text>") else { return nil }
            return String(line[line.index(after: open)..<close.lowerBound])
        }.joined(separator: " ")
    }
}
