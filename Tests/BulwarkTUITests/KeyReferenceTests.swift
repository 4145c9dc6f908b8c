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
