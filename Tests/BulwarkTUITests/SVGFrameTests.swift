import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// The SVG of a screen: the same bytes every time, and cell for cell the
/// text of the screen's golden (read back out of the SVG).
@Suite struct SVGFrameTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")

    /// Screens with goldens: the vault, the recommendations, the passkey sheet, a provider's login page.
    static func screens() async throws -> [(name: String, buffer: Buffer)] {
        let f = try AppFixture()
        var result: [(String, Buffer)] = []
        await f.selectEntry("Northwind Bank")
        result.append(("vault.80x24", AppView.render(f.state)))
        await f.press(.tab)
        result.append(("recommendations.80x24", AppView.render(f.state)))
        await f.selectRecommendation("Shiny")
        await f.press(.char("P"))
        result.append(("passkey-sheet.80x24", AppView.render(f.state)))
        await f.press(.escape, .tab)
        await f.selectEntry("Shiny")
        await f.press(.char("l"), .enter)
        result.append(("web-sign-in-login.80x24", AppView.render(f.state)))
        return result
    }

    @Test func theSVGOfAGoldenScreenIsByteStableAndReadsBackAsItsText() async throws {
        for (name, buffer) in try await Self.screens() {
            let svg = SVGFrame.render(buffer, caption: "A caption under the screen")
            #expect(SVGFrame.render(buffer, caption: "A caption under the screen") == svg, "\(name)")
            let golden = try String(contentsOf: Self.snapshots.appendingPathComponent(name + ".txt"), encoding: .utf8)
            #expect(SVGFrame.text(of: svg) == golden, "\(name)")
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" xml:space=\"preserve\" width=\"824\" height=\"") && svg.contains(">A caption under the screen</text>"))
        }
    }

    @Test func bordersAreDrawnAsPathsAndTextIsEscaped() {
        var buffer = Buffer(width: 12, height: 3)
        buffer.put("╭─┐ a<b&\"c\"", x: 0, y: 0)
        buffer.put("│界█░", x: 0, y: 1, style: Style(foreground: .red, bold: true))
        buffer.put("x", x: 0, y: 2, style: Style(reverse: true))
        let svg = SVGFrame.render(buffer)
        #expect(svg.contains(##"data-g="╭" d="M22 22H22A5 5 0 0 0 17 27V32" fill="none" stroke="#d0d3d4" stroke-width="1.4"/>"##))
        #expect(svg.contains(#"data-g="░""#) && svg.contains(#"fill-opacity="0.25""#))
        #expect(svg.contains(#">a&lt;b&amp;&quot;c&quot;</text>"#))
        #expect(svg.contains(#"data-c="1" data-w="2" x="22" y="47" textLength="20""#))  // 界 over two cells
        #expect(svg.contains(##"fill="#d0d3d4"/>"##) && svg.contains(".s1{fill:#e06c75;font-weight:bold}"))
        #expect(SVGFrame.text(of: svg) == buffer.textDump())
    }

    /// One animated picture of several screens: each frame in turn, looping; every frame's text reads back.
    @Test func anAnimatedPictureShowsEachFrameInTurn() async throws {
        let screens = try await Self.screens()
        let frames = screens.map { (buffer: $0.buffer, caption: Optional("Step \($0.name)")) }
        let svg = SVGFrame.animate(frames)
        #expect(SVGFrame.animate(frames) == svg)
        #expect(SVGFrame.texts(ofAnimated: svg) == screens.map { $0.buffer.textDump() })
        #expect(svg.components(separatedBy: #"<g visibility="hidden""#).count == screens.count)  // all but the first start hidden
        #expect(svg.contains(#"dur="12s" repeatCount="indefinite" values="visible;hidden" keyTimes="0;0.2500"/>"#))
        #expect(svg.contains(#"values="hidden;visible;hidden" keyTimes="0;0.7500;1"/>"#))
    }
}
