import Foundation
import Testing
@testable import BulwarkTUI

/// docs/keys.md is made from the keymap tables (`KeyReference`): this
/// fails when a table changes and the page does not. Recorded on purpose
/// only, as goldens are (BULWARK_RECORD_SNAPSHOTS=1).
@Suite struct KeyReferenceTests {
    static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/keys.md")

    @Test func theKeysPageIsTheTables() throws {
        let made = KeyReference.markdown()
        if Snapshot.recording {
            try Data(made.utf8).write(to: Self.page)
            Issue.record("recorded \(Self.page.path)")
            return
        }
        let kept = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(kept == made, "docs/keys.md differs from the keymap tables; record it again (BULWARK_RECORD_SNAPSHOTS=1) and read it")
    }

    /// The README's short table is written from the vault's table too,
    /// between two markers; recorded on purpose only.
    @Test func theReadmesKeyTableIsTheVaultsTable() throws {
        let readme = Self.page.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let begin = "<!-- keys: written from the key tables (KeyReference.readmeTable) -->\n", end = "<!-- /keys -->"
        let start = try #require(text.range(of: begin)), stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let made = KeyReference.readmeTable()
        if Snapshot.recording {
            try Data((text[..<start.upperBound] + made + text[stop.lowerBound...]).utf8).write(to: readme)
            Issue.record("recorded the README's key table")
            return
        }
        #expect(String(text[start.upperBound..<stop.lowerBound]) == made, "the README's key table differs from the vault's; record it again and read it")
        #expect(made.contains("| `u` `a` `P` | upgrade to a strong password; use Sign in with Apple; upgrade to a passkey |"))
    }

    @Test func everyTableHasItsKeysAndEveryKeySaysWhatItDoes() {
        let sections = KeyReference.sections()
        #expect(sections.count >= 25 && Set(sections.map(\.title)).count == sections.count)
        for section in sections {
            #expect(!section.keymap.bindings.isEmpty, "\(section.title)")
            for binding in section.keymap.bindings { #expect(!binding.keys.isEmpty && !binding.help.isEmpty, "\(section.title)") }
        }
        // The vault's table has the keys the README names (its short table).
        let vault = sections.first { $0.title == "Vault" }!.keymap
        for key in ["p", "y", "t", "n", "e", "d", "/", "L", "q"] {
            #expect(vault.bindings.contains { $0.keys.contains { $0.description == key } }, "vault lacks \(key)")
        }
    }
}
