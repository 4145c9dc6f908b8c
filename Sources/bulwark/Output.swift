import BulwarkCore
import Foundation

/// Writing results: text to stdout, errors to stderr, JSON with sorted keys
/// so that output is stable for scripts and tests.
enum Output {
    static func error(_ message: String) {
        stderr("bulwark: " + message + "\n")
    }

    /// Standard error, through the terminal sanitiser (errors quote vault
    /// text and imported files: a CSV header is hostile input too).
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data(TerminalText.visible(text, lines: true).utf8))
    }

    static func warning(_ message: String) {
        error("warning: " + message)
    }

    static func json(_ object: Any) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        FileHandle.standardOutput.write(Data(TerminalText.jsonEscaped(String(decoding: data, as: UTF8.self)).utf8) + Data("\n".utf8))
    }

    /// The config file's settings with the command line's flags applied
    /// over them. A malformed config file exits 2 with its line.
    static func configuration(_ parsed: ParsedCommandLine) -> Result<Configuration, ExitCode> {
        var config: Configuration
        do { config = try Configuration.load() } catch {
            Output.error("config \(error)")
            return .failure(ExitCode(2))
        }
        if let quirks = parsed.globals.quirks { config.quirks = quirks }
        if let services = parsed.globals.services { config.services = services }
        // Only the commands whose table has --breach-corpus take it (analyze).
        if parsed.takes("--breach-corpus"), let corpora = parsed.values("--breach-corpus") { config.breachCorpora = corpora }
        return .success(config)
    }

    /// Loads the quirks directory from `--quirks DIR` or the config file;
    /// nil when neither names one. Exits through the returned code on a bad
    /// directory.
    static func loadQuirks(_ parsed: ParsedCommandLine) -> Result<QuirksDirectory?, ExitCode> {
        let config: Configuration
        switch configuration(parsed) {
        case .failure(let exit): return .failure(exit)
        case .success(let loaded): config = loaded
        }
        guard let path = config.quirks else { return .success(nil) }
        do {
            return .success(try QuirksDirectory.load(from: URL(fileURLWithPath: path)))
        } catch {
            let origin = parsed.globals.quirks != nil ? "--quirks" : "quirks (config file)"
            Output.error("\(origin) \(path): \(error)")
            return .failure(ExitCode(1))
        }
    }
}


/// Every line the command line prints goes through the terminal
/// sanitiser: this shadows Swift's `print` in this module, so no output
/// path can forget it. Line feeds and tabs stay; every other control,
/// bidi control and invisible character is shown as an escape.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(TerminalText.visible(items.map { "\($0)" }.joined(separator: separator), lines: true), terminator: terminator)
}

struct ExitCode: Error { let code: Int32; init(_ code: Int32) { self.code = code } }
