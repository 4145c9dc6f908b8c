import BulwarkCore
import Foundation

/// Writing results: text to stdout, errors to stderr, JSON with sorted keys
/// so that output is stable for scripts and tests.
enum Output {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data(("bulwark: " + message + "\n").utf8))
    }

    static func json(_ object: Any) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// Loads `--quirks DIR` when given; nil when not. Exits through the
    /// returned code on a bad directory.
    static func loadQuirks(_ parsed: ParsedCommandLine) -> Result<QuirksDirectory?, ExitCode> {
        guard let path = parsed.globals.quirks else { return .success(nil) }
        do {
            return .success(try QuirksDirectory.load(from: URL(fileURLWithPath: path)))
        } catch {
            Output.error("--quirks \(path): \(error)")
            return .failure(ExitCode(1))
        }
    }
}


struct ExitCode: Error { let code: Int32; init(_ code: Int32) { self.code = code } }
