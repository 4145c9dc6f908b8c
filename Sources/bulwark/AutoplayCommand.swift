import BulwarkAssets
import BulwarkCore
import BulwarkTUI
import BulwarkTerminal
import BulwarkUpgrades
import Foundation

/// `bulwark demo --list`, `--autoplay NAME` (in a terminal, or `--headless`
/// with `--snapshots`/`--check`), and `--record FILE.cast`.
enum AutoplayCommand {
    /// A fixed clock and no latency: the same scenario renders the same screens every run.
    static let headlessNow = Date(timeIntervalSince1970: 1_800_000_000)

    /// The demo, set up in `directory`, in a store of that size at the unlock screen; nil (said) when it cannot be set up.
    static func headlessStore(in directory: URL, width: Int, height: Int, catalog: ServiceCatalog) -> Store? {
        let now = headlessNow
        let session: AppSession
        do { session = try DemoCommand.demoSession(in: directory, catalog: catalog, now: now, fast: true) } catch {
            Output.error("cannot set up the demo: \(error)")
            return nil
        }
        // A headless recording comes out the same every time: its clock is
        // fixed, and what the mock services draw (texted codes, a service's
        // own password) comes from a seed.
        session.mockDraws = MockDraws(seed: 2027)
        var state = DemoCommand.lockedState(now: now)
        state.width = width
        state.height = height
        return Store(state: state, environment: AppEnvironment(now: { now }, session: session))
    }

    /// `--cast-version 2|3` (2 by default; the parser took nothing else).
    static func castVersion(_ parsed: ParsedCommandLine) -> Int {
        parsed.value("--cast-version").flatMap { Int($0) } ?? 2
    }

    /// Every scenario in Assets/scenarios, by name (the file name without
    /// its order prefix and extension).
    static func scenarios() throws -> [Scenario] {
        try Assets.paths(under: "scenarios", suffix: ".scenario").map { path in
            let file = (path as NSString).lastPathComponent
            var name = String(file.dropLast(".scenario".count))
            if let dash = name.firstIndex(of: "-"), name[..<dash].allSatisfy(\.isNumber) { name = String(name[name.index(after: dash)...]) }
            return try Scenario.parse(String(decoding: Assets.data(path) ?? Data(), as: UTF8.self), name: name)
        }
    }

    static func list() -> Int32 {
        do {
            let all = try scenarios()
            let column = (all.map(\.name.count).max() ?? 0) + 2
            // The name and title on one line, what it shows under them, wrapped to 80 columns.
            let indent = String(repeating: " ", count: column)
            for scenario in all {
                for (index, line) in TextWrap.wrap(scenario.title, width: 80 - column).enumerated() {
                    print((index == 0 ? scenario.name.padding(toLength: column, withPad: " ", startingAt: 0) : indent) + line)
                }
                let shows = scenario.shows.prefix(1).uppercased() + scenario.shows.dropFirst() + (scenario.shows.hasSuffix(".") ? "" : ".")
                // Indented two more than the title, so that a title over two lines stays apart from it.
                for line in TextWrap.wrap(shows, width: 78 - column) where !scenario.shows.isEmpty { print(indent + "  " + line) }
            }
            return 0
        } catch {
            Output.error("\(error)")
            return 1
        }
    }

    static func find(_ name: String) -> Result<Scenario, ExitCode> {
        do {
            let all = try scenarios()
            guard let scenario = all.first(where: { $0.name == name }) else {
                Output.error("no scenario named '\(name)'; 'bulwark demo --list' shows them (\(all.map(\.name).joined(separator: ", "))).")
                return .failure(ExitCode(2))
            }
            return .success(scenario)
        } catch {
            Output.error("\(error)")
            return .failure(ExitCode(1))
        }
    }

    static func speed(_ parsed: ParsedCommandLine) -> Double? {
        guard let text = parsed.value("--speed") else { return 1 }
        guard let value = Double(text), value >= 0.1, value <= 50 else {
            Output.error("--speed takes a factor from 0.1 to 50.")
            return nil
        }
        return value
    }

    // MARK: In a terminal

    static func play(_ parsed: ParsedCommandLine, name: String, catalog: ServiceCatalog) -> Int32 {
        let scenario: Scenario
        switch find(name) {
        case .failure(let exit): return exit.code
        case .success(let found): scenario = found
        }
        guard let speed = speed(parsed) else { return 2 }
        while true {
            // The last frame stays, said, until a key; --exit leaves at once, --stay hands over the session.
            let finish: BulwarkTerminal.RunLoop.AutoplayFinish = parsed.flag("--exit") ? .exit : parsed.flag("--stay") ? .keepSession : .holdUntilKey
            guard let (status, end) = playOnFreshDemo(Autoplay(scenario: scenario, speed: speed), parsed: parsed, catalog: catalog,
                                                      finish: finish) else { return 1 }
            switch end {
            case .restart?: continue
            case .failed(let message)?:
                Output.error(message)
                return 1
            default:
                return status
            }
        }
    }

    /// One autoplay in a terminal on a new temporary demo, removed after;
    /// how it ended. Nil, said, when the demo cannot be set up.
    static func playOnFreshDemo(_ autoplay: Autoplay, parsed: ParsedCommandLine, catalog: ServiceCatalog,
                                finish: BulwarkTerminal.RunLoop.AutoplayFinish = .exit) -> (status: Int32, end: BulwarkTerminal.RunLoop.AutoplayEnd?)? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-autoplay-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session: AppSession
        do { session = try DemoCommand.demoSession(in: directory, catalog: catalog) } catch {
            Output.error("cannot set up the demo: \(error)")
            return nil
        }
        var end: BulwarkTerminal.RunLoop.AutoplayEnd?
        let status = AppCommand.runApp(state: DemoCommand.lockedState(), session: session, parsed: parsed, autoplay: autoplay, finish: finish) { end = $0 }
        return (status, end)
    }

    /// `bulwark demo --tour`: every chapter of the tour, each a new demo
    /// after its title card; → and ← move between chapters, Space pauses, q ends it.
    static func tour(_ parsed: ParsedCommandLine, catalog: ServiceCatalog) -> Int32 {
        let all: [Scenario]
        do { all = try scenarios() } catch {
            Output.error("the built-in scenarios do not parse: \(error)")
            return 1
        }
        guard let speed = speed(parsed) else { return 2 }
        let flows = Tour.chapters.compactMap { chapter in all.first { $0.name == chapter.scenario } }
        var number = 0
        while number < flows.count {
            let chapter = Autoplay(scenario: Tour.scenario(number, from: flows[number]), speed: speed, inTour: true)
            guard let (status, end) = playOnFreshDemo(chapter, parsed: parsed, catalog: catalog) else { return 1 }
            switch end {
            case .restart?: continue
            case .chapter(let step)?: number = max(0, number + step)
            case .finished?: number += 1
            case .failed(let message)?:
                Output.error(message)
                return 1
            case .stopped?, nil:
                return status
            }
        }
        return 0
    }

    // MARK: Headless

    static func headless(_ parsed: ParsedCommandLine, name: String, catalog: ServiceCatalog) -> Int32 {
        let scenario: Scenario
        switch find(name) {
        case .failure(let exit): return exit.code
        case .success(let found): scenario = found
        }
        let sizeText = parsed.value("--size") ?? "100x30"
        let parts = sizeText.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (20...500).contains(parts[0]), (8...200).contains(parts[1]) else {
            Output.error("--size takes WIDTHxHEIGHT, for example 100x30.")
            return 2
        }
        let snapshots = parsed.value("--snapshots"), check = parsed.value("--check")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-headless-\(getpid())-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let store = headlessStore(in: directory, width: parts[0], height: parts[1], catalog: catalog) else { return 1 }
        let recorder: AsciicastRecorder?
        let castVersion = AutoplayCommand.castVersion(parsed)
        do {
            recorder = try parsed.value("--record").map {
                try AsciicastRecorder(path: $0, width: parts[0], height: parts[1], title: scenario.title, start: AutoplayCommand.headlessNow, version: castVersion)
            }
        } catch {
            Output.error("--record: cannot write \(parsed.value("--record")!).")
            return 1
        }
        defer { recorder?.close() }
        let colors = (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let run = HeadlessRun(scenario: scenario, store: store, recorder: recorder, colors: colors, start: AutoplayCommand.headlessNow)
        let outcome = Blocking.run { await run.play() }
        let produced = run.produced
        if let failure = outcome {
            Output.error(failure)
            return 1
        }
        if let snapshots {
            let url = URL(fileURLWithPath: snapshots)
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                for (file, text) in produced { try Data(text.utf8).write(to: url.appendingPathComponent(file)) }
            } catch {
                Output.error("--snapshots \(snapshots): \(error)")
                return 1
            }
            print("Wrote \(produced.count) files for \(produced.count / 2) steps of \(scenario.name) to \(snapshots).")
        }
        if let svg = parsed.value("--svg") {
            let url = URL(fileURLWithPath: svg)
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                for (file, picture) in run.pictures { try Data(picture.utf8).write(to: url.appendingPathComponent(file)) }
            } catch {
                Output.error("--svg \(svg): \(error)")
                return 1
            }
            print("Wrote \(run.pictures.count) SVG pictures of \(scenario.name) to \(svg).")
        }
        if let animated = parsed.value("--svg-animated") {
            guard FileManager.default.createFile(atPath: animated, contents: Data(SVGFrame.animate(run.frames).utf8)) else {
                Output.error("--svg-animated: cannot write \(animated).")
                return 1
            }
            print("Wrote an animated SVG of \(scenario.name) (\(run.frames.count) screens, 3 s each) to \(animated).")
        }
        if let check {
            return compare(produced, with: URL(fileURLWithPath: check))
        }
        if snapshots == nil && !parsed.flag("--svg") && !parsed.flag("--svg-animated") { print("\(scenario.name): \(scenario.steps.count) steps played, \(produced.count / 2) screens.") }
        return 0
    }

    static func slug(_ text: String) -> String {
        let words = text.lowercased().unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-" }
        return String(String(words).split(separator: "-").prefix(6).joined(separator: "-"))
    }

    /// Exit 1 with a diff of every file that differs from the directory's.
    static func compare(_ produced: [(file: String, text: String)], with directory: URL) -> Int32 {
        let expected = Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        var differences: [String] = []
        for (file, text) in produced {
            guard let old = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else {
                differences.append("\(file): missing from \(directory.path)")
                continue
            }
            if old != text {
                let a = old.components(separatedBy: "\n"), b = text.components(separatedBy: "\n")
                var lines = ["\(file) differs:"]
                for i in 0..<max(a.count, b.count) where (i < a.count ? a[i] : nil) != (i < b.count ? b[i] : nil) {
                    lines.append("-\(i + 1)│" + (i < a.count ? a[i] : "<missing>"))
                    lines.append("+\(i + 1)│" + (i < b.count ? b[i] : "<missing>"))
                }
                differences.append(lines.joined(separator: "\n"))
            }
        }
        for file in expected.subtracting(produced.map(\.file)).sorted() { differences.append("\(file): no longer produced") }
        guard differences.isEmpty else {
            Output.stderr(differences.joined(separator: "\n") + "\n")
            return 1
        }
        print("All \(produced.count / 2) screens match \(directory.path).")
        return 0
    }
}

/// One headless play: its store, its recording, and the files it makes.
final class HeadlessRun: @unchecked Sendable {  // used by one task at a time: the caller waits for it
    let scenario: Scenario
    let store: Store
    let recorder: AsciicastRecorder?
    let colors: Bool
    let start: Date
    private(set) var produced: [(file: String, text: String)] = []
    /// The same screens as SVG, each with the caption it was taken at.
    private(set) var pictures: [(file: String, svg: String)] = []
    /// The screens without the caption bar, and their captions, for one animated picture.
    private(set) var frames: [(buffer: Buffer, caption: String?)] = []

    init(scenario: Scenario, store: Store, recorder: AsciicastRecorder?, colors: Bool, start: Date) {
        self.scenario = scenario
        self.store = store
        self.recorder = recorder
        self.colors = colors
        self.start = start
    }

    /// Nil when the scenario played to its end; else what went wrong.
    func play() async -> String? {
        do {
            try await HeadlessPlayer.run(scenario, store: store, colors: colors) { label, buffer, bare in
                let base = String(format: "%02d-", produced.count / 2 + 1) + AutoplayCommand.slug(label)
                produced.append((base + ".txt", buffer.textDump()))
                pictures.append((base + ".svg", SVGFrame.render(bare, caption: label == "end" ? nil : label)))
                frames.append((bare, label == "end" ? nil : label))
                produced.append((base + ".style.txt", buffer.styleDump()))
                // One second per screen in the recording.
                recorder?.record(buffer, at: start.addingTimeInterval(Double(produced.count / 2)))
            }
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// Runs async work to completion from synchronous code (the command line).
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private final class Box<T>: @unchecked Sendable { var value: T? }  // written once, before the signal
}
