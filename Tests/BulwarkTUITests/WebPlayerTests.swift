import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// The web player's page: self-contained, its data the screens' own text
/// cell for cell, a chapter and a text version for every step.
@Suite struct WebPlayerTests {
    static func page() async throws -> (String, [(name: String, buffer: Buffer)]) {
        let screens = try await SVGFrameTests.screens()
        let chapters = [
            WebPlayer.Chapter(name: "first", title: "First </script> chapter", shows: "two screens",
                              frames: screens.prefix(2).map { (buffer: $0.buffer, caption: Optional("Caption of \($0.name)")) }),
            WebPlayer.Chapter(name: "second", title: "Second", shows: "", frames: screens.dropFirst(2).map { (buffer: $0.buffer, caption: nil) }),
        ]
        return (WebPlayer.page(chapters), screens)
    }

    /// The page's data, as the script reads it.
    static func data(_ page: String) throws -> [String: Any] {
        let start = try #require(page.range(of: #"<script type="application/json" id="data">"#)).upperBound
        let end = try #require(page.range(of: "</script>", range: start..<page.endIndex)).lowerBound
        let json = String(page[start..<end]).replacingOccurrences(of: #"<\/"#, with: "</")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func everyFrameTravelsAsItsOwnTextAndNothingIsFetched() async throws {
        let (page, screens) = try await Self.page()
        #expect(WebPlayer.page([]) .contains("@@") == false)
        #expect(!page.contains("<link") && !page.contains(" src=") && !page.contains("@import") && !page.contains("url("))
        let data = try Self.data(page)
        let chapters = try #require(data["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["name"] as? String } == ["first", "second"] && chapters[0]["title"] as? String == "First </script> chapter")
        let frames = chapters.flatMap { ($0["frames"] as? [[String: Any]]) ?? [] }
        #expect(frames.count == screens.count)
        for (frame, screen) in zip(frames, screens) {
            // The runs of each row, joined, are the row's text.
            let rows = try #require(frame["rows"] as? [[[Any]]])
            let text = rows.map { runs in
                var line = runs.map { $0[0] as? String ?? "" }.joined()
                while line.hasSuffix(" ") { line.removeLast() }
                return line
            }.joined(separator: "\n") + "\n"
            #expect(text == screen.buffer.textDump(), "\(screen.name)")
            #expect(frame["text"] as? String == screen.buffer.textDump())
        }
        // A text version of every step, linked by chapter and step.
        #expect(page.contains(#"<details id="text-first-1"><summary>1. Caption of vault.80x24</summary><pre>"#))
        #expect(page.contains(#"<details id="text-second-2"><summary>2. The end</summary>"#))
        #expect(page.contains("First &lt;/script&gt; chapter"))
    }
}
