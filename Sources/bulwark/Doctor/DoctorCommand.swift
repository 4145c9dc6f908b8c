import BulwarkCore
import Foundation

/// `bulwark doctor`: why something does not work, and the command that
/// fixes it. Exit 0 when nothing is a problem (warnings allowed), 1
/// otherwise; `--json` for scripts.
enum DoctorCommand {
    static func run(_ parsed: ParsedCommandLine) -> Int32 {
        guard parsed.arguments.isEmpty else { Output.error("usage: bulwark doctor [--json]"); return 2 }
        let environment = ProcessInfo.processInfo.environment
        var configuration: Result<Configuration, Error> = Result { try Configuration.load(environment: environment) }
        if case .success(var config) = configuration {
            if let quirks = parsed.globals.quirks { config.quirks = quirks }
            if let services = parsed.globals.services { config.services = services }
            configuration = .success(config)
        }
        let vault = parsed.globals.vault.map { URL(fileURLWithPath: $0) } ?? Vault.defaultPath(environment: environment)
        let files = FileChecks(vaultPath: vault, configPath: Configuration.defaultPath(environment: environment), configuration: configuration)
        let checks = TerminalChecks(environment: environment).run() + files.run() + SyncChecks(vaultPath: vault).run()
        let healthy = !checks.contains { $0.status == .problem }
        if parsed.flag("--json") {
            struct Report: Encodable { let ok: Bool; let checks: [DoctorCheck] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: (try? encoder.encode(Report(ok: healthy, checks: checks))) ?? Data(), as: UTF8.self))
        } else {
            print(text(checks), terminator: "")
        }
        return healthy ? 0 : 1
    }

    /// Grouped by area; a mark every terminal can show (no colour, no
    /// symbol: the terminal may be what is broken).
    static func text(_ checks: [DoctorCheck]) -> String {
        var text = "", area = ""
        let width = (checks.map(\.name.count).max() ?? 0) + 2
        for check in checks {
            if check.area != area {
                text += (area.isEmpty ? "" : "\n") + check.area.capitalized + "\n"
                area = check.area
            }
            let mark = switch check.status { case .ok: "[ok]  "; case .warning: "[warn]"; case .problem: "[FAIL]" }
            text += "  \(mark) " + check.name.padding(toLength: width, withPad: " ", startingAt: 0) + check.found + "\n"
            if let fix = check.fix { text += "         " + String(repeating: " ", count: width) + "fix: \(fix)\n" }
        }
        let problems = checks.filter { $0.status == .problem }.count, warnings = checks.filter { $0.status == .warning }.count
        text += "\n" + (problems == 0 ? "No problems" : "\(problems) problem\(problems == 1 ? "" : "s")")
        text += warnings == 0 ? ".\n" : ", \(warnings) warning\(warnings == 1 ? "" : "s").\n"
        return text
    }
}
