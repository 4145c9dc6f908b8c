import BulwarkCore
import BulwarkTUI
import BulwarkUpgrades
import Foundation

/// `bulwark demo --gallery DIR` (what `make demo-artifacts` runs into
/// docs/demo): every scenario played headless once, written as the web
/// player of them all, an animated SVG of each, and a page that shows
/// them. The same bytes every time (a fixed clock, seeded mock services),
/// so a test can tell when the checked-in gallery is stale.
enum GalleryCommand {
    static let player = "player.html"

    static func run(directory path: String, catalog: ServiceCatalog) -> Int32 {
        let scenarios: [Scenario]
        do { scenarios = try AutoplayCommand.scenarios() } catch {
            Output.error("the built-in scenarios do not parse: \(error)")
            return 1
        }
        guard let chapters = WebPlayerCommand.chapters(of: scenarios, catalog: catalog) else { return 1 }
        let directory = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try write(WebPlayer.page(chapters), to: directory.appendingPathComponent(player))
            for chapter in chapters {
                try write(SVGFrame.animate(chapter.frames), to: directory.appendingPathComponent(chapter.name + ".svg"))
            }
            try write(index(chapters), to: directory.appendingPathComponent("README.md"))
        } catch {
            Output.error("--gallery: cannot write \(path): \(error)")
            return 1
        }
        print("Wrote the gallery to \(path): \(player), \(chapters.count) animated SVGs and README.md.")
        return 0
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    }

    /// The gallery's page: each scenario's picture, what it shows, and its chapter in the player.
    static func index(_ chapters: [WebPlayer.Chapter]) -> String {
        var page = """
            # bulwark's demo, as pictures

            Every scenario of `bulwark demo`, played headless and drawn by bulwark
            itself from its screen buffer (no terminal, no screenshots). Open
            [the player](\(player)) in a browser for all of them with captions,
            chapters and keys (Space, ← →, 1-9); it needs no network. Written by
            `make demo-artifacts`; do not edit by hand.

            """
        for (number, chapter) in chapters.enumerated() {
            page += """

                ## \(number + 1). \(chapter.title)

                \(chapter.shows)

                ![\(chapter.title)](\(chapter.name).svg)

                [Step through it in the player](\(player)#\(chapter.name)/1) · \(chapter.frames.count) screens

                """
        }
        return page
    }
}
