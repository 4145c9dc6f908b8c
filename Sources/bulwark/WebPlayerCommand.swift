import BulwarkCore
import BulwarkTUI
import BulwarkUpgrades
import Foundation

/// `bulwark demo --html FILE [NAME…]`: the chosen scenarios (all by
/// default) played headless, at 100x30, into one self-contained web page.
enum WebPlayerCommand {
    static func run(_ parsed: ParsedCommandLine, path: String, catalog: ServiceCatalog) -> Int32 {
        let all: [Scenario]
        do { all = try AutoplayCommand.scenarios() } catch {
            Output.error("the built-in scenarios do not parse: \(error)")
            return 1
        }
        var chosen: [Scenario] = []
        for name in parsed.arguments {
            guard let scenario = all.first(where: { $0.name == name }) else {
                Output.error("no scenario named '\(name)' ('bulwark demo --list' names them).")
                return 2
            }
            chosen.append(scenario)
        }
        if chosen.isEmpty { chosen = all }
        guard let chapters = chapters(of: chosen, catalog: catalog) else { return 1 }
        let page = WebPlayer.page(chapters)
        guard FileManager.default.createFile(atPath: path, contents: Data(page.utf8), attributes: [.posixPermissions: 0o644]) else {
            Output.error("--html: cannot write \(path).")
            return 1
        }
        let steps = chapters.reduce(0) { $0 + $1.frames.count }
        print("Wrote \(path): \(chapters.count) scenario\(chapters.count == 1 ? "" : "s"), \(steps) steps, \(page.utf8.count / 1024) KiB.")
        return 0
    }

    /// Each scenario played headless at 100x30 into its frames (nil, said, when one fails).
    static func chapters(of scenarios: [Scenario], catalog: ServiceCatalog) -> [WebPlayer.Chapter]? {
        var chapters: [WebPlayer.Chapter] = []
        for scenario in scenarios {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-html-\(getpid())-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: directory) }
            guard let store = AutoplayCommand.headlessStore(in: directory, width: 100, height: 30, catalog: catalog) else { return nil }
            let play = HeadlessRun(scenario: scenario, store: store, recorder: nil, colors: true, start: AutoplayCommand.headlessNow)
            if let failure = Blocking.run({ await play.play() }) {
                Output.error(failure)
                return nil
            }
            chapters.append(WebPlayer.Chapter(name: scenario.name, title: scenario.title, shows: scenario.shows, frames: play.frames))
        }
        return chapters
    }
}
