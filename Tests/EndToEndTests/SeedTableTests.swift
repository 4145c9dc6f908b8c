import Foundation
import Testing

/// docs/manual/seeds.md names, for each behaviour of the seeds, the tests
/// that show it works: every one must be a test function in `Tests/`, and
/// every section must have rows, so the table cannot drift from the suite.
@Suite struct SeedTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The names in the last column of the table's rows (a name may carry its arguments' labels: `signInWithApple(hideEmail:)`).
    static func namedTests(_ page: String) -> [(behaviour: String, test: String)] {
        var named: [(String, String)] = []
        for line in page.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| Behaviour") && !line.hasPrefix("| ---") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6 else { continue }  // the platform section has three columns and names no test
            for part in cells[4].split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                named.append((cells[1], String(name.prefix { $0 != "(" })))
            }
        }
        return named
    }

    static func testFunctions() throws -> Set<String> {
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: root.appendingPathComponent("Tests"), includingPropertiesForKeys: nil)
        let pattern = try NSRegularExpression(pattern: #"func ([A-Za-z0-9_]+)\("#)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert((text as NSString).substring(with: match.range(at: 1)))
            }
        }
        return names
    }

    @Test func everyTestTheTableNamesExists() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/manual/seeds.md"), encoding: .utf8)
        let named = Self.namedTests(page)
        #expect(named.count >= 100)
        let functions = try Self.testFunctions()
        let missing = named.filter { !functions.contains($0.test) }
        #expect(missing.isEmpty, "\(missing.map { "\($0.test) (\($0.behaviour))" })")
        // Each of the five seeds' sections has rows, and the platform-only ones are said.
        for section in ["## Security Recommendations", "## Upgrades through the extension", "## Sign in with Apple", "## Signing in, associated domains and OAuth",
                        "## Verification codes", "## What a terminal cannot have"] {
            #expect(page.contains(section), "\(section)")
        }
    }

    /// A name that is no test is caught (the check itself can fail).
    @Test func aNameThatIsNoTestIsFound() throws {
        let page = "| Behaviour | Seed | Where | Tested by |\n| --- | --- | --- | --- |\n| A thing | WWDC19 | here | `noSuchTestAnywhere`, `signInWithApple(hideEmail:)` |\n"
        let named = Self.namedTests(page).map(\.test)
        #expect(named == ["noSuchTestAnywhere", "signInWithApple"])
        let functions = try Self.testFunctions()
        #expect(!functions.contains("noSuchTestAnywhere") && functions.contains("signInWithApple"))
    }
}
