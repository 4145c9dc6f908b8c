import Foundation
import Testing

/// docs/manual/commands.md is what `bulwark help` and `bulwark help
/// COMMAND` print (both are written from the command tables, as the man
/// pages are): this fails when a table changes and the page does not.
/// Recorded on purpose only, as goldens are (BULWARK_RECORD_SNAPSHOTS=1).
@Suite struct CommandReferenceTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/manual/commands.md")

    /// The commands `bulwark help` lists, in its order, with their summaries.
    static func commands(_ main: String) -> [(name: String, summary: String)] {
        let lines = main.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "Commands:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.map { line in
            let words = line.trimmingCharacters(in: .whitespaces)
            let name = String(words.prefix { $0 != " " })
            return (name, words.dropFirst(name.count).trimmingCharacters(in: .whitespaces))
        }
    }

    static func made() throws -> String {
        let main = try Binary.run(["help"])
        #expect(main.status == 0)
        let commands = Self.commands(main.stdout)
        var page = """
        # Command reference

        Every command and option, as `bulwark help` and `bulwark help COMMAND`
        print them. The page is written from the same command tables as the
        parser, the shell completions and the man pages (`man bulwark-import`
        after `make install`); a test fails when they differ.

        """
        page += "\n" + commands.map { "- [`\($0.name)`](#bulwark-\($0.name)): \($0.summary)" }.joined(separator: "\n") + "\n"
        page += "\n## bulwark\n\n```text\n" + main.stdout + "```\n"
        for command in commands {
            let help = try Binary.run(["help", command.name])
            #expect(help.status == 0, "help \(command.name)")
            page += "\n## bulwark \(command.name)\n\n```text\n" + help.stdout + "```\n"
        }
        return page
    }

    @Test func theReferenceIsWhatHelpPrints() throws {
        let made = try Self.made()
        #expect(Self.commands(made).isEmpty == false || made.contains("## bulwark sync"))
        if ProcessInfo.processInfo.environment["BULWARK_RECORD_SNAPSHOTS"] != nil {
            try Data(made.utf8).write(to: Self.page)
            Issue.record("recorded \(Self.page.path)")
            return
        }
        let kept = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(kept == made, "docs/manual/commands.md differs from what help prints; record it again (BULWARK_RECORD_SNAPSHOTS=1) and read it")
    }
}

/// The README is the front door: short enough to read top to bottom, and
/// the first thing it asks a person to type is the demo, with its password.
@Suite struct ReadmeTests {
    static let readme = CommandReferenceTests.page.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    @Test func theReadmeIsShortAndOpensWithTheDemo() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 200, "README.md has \(lines.count) lines; the manual in docs/ is the place for more")
        let fence = try #require(lines.firstIndex { $0.hasPrefix("```") })
        let first = lines[fence + 1]
        #expect(first.hasPrefix("bulwark demo "), "the first command is '\(first)'")
        #expect(first.contains("\"demo\""), "the first command says the demo's password")
        // Every page the README links to is there.
        for link in text.matches(of: /\]\(((?:docs|LICENSE)[^)#]*)/) {
            let target = Self.readme.deletingLastPathComponent().appendingPathComponent(String(link.output.1))
            #expect(FileManager.default.fileExists(atPath: target.path), "README links to \(link.output.1)")
        }
    }
}
