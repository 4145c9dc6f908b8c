import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Locking leaves no secret in the app's state: walked field by field with
/// Mirror, nothing holds an entry, a typed password, a conflict's two
/// versions or copied text (the lock once kept the edit form, the conflict
/// and the clipboard's text).
@Suite struct LockClearsStateTests {
    /// Every string and every entry reachable from `value`.
    static func walk(_ value: Any, strings: inout [String], entries: inout Int, depth: Int = 0) {
        guard depth < 40 else { return }
        if value is Entry { entries += 1 }
        if let text = value as? String { strings.append(text) }
        if let field = value as? TextField { strings.append(field.text) }
        for child in Mirror(reflecting: value).children { walk(child.value, strings: &strings, entries: &entries, depth: depth + 1) }
    }

    static func secrets(_ f: AppFixture) -> Set<String> {
        Set(f.state.snapshot.entries.compactMap(\.password).filter { $0.count >= 6 } + ["typed-Secret-99", "mine-42-secret"])
    }

    static func assertClean(_ state: AppState, _ secrets: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) {
        var strings: [String] = [], entries = 0
        walk(state, strings: &strings, entries: &entries)
        #expect(entries == 0, "entries left after the lock", sourceLocation: sourceLocation)
        let leaked = strings.filter { text in secrets.contains { text.contains($0) } }
        #expect(leaked.isEmpty, "secrets left after the lock: \(leaked.count)", sourceLocation: sourceLocation)
        #expect(!state.unlocked && state.editor == nil && state.conflict == nil && state.overlay == nil,
                sourceLocation: sourceLocation)
    }

    @Test func aTypedPasswordACopyAndTheListAreGoneAfterLock() async throws {
        let f = try AppFixture()
        let secrets = Self.secrets(f)
        await f.selectEntry("Northwind Bank")
        await f.press(.char("p"))  // the copy is an effect for the run loop: the state never holds its text
        #expect(f.store.copies.count == 1)
        await f.press(.char("e"), .tab, .tab, .tab, .ctrl("u"))
        await f.type("typed-Secret-99")
        // The walk finds them before the lock: the test can fail.
        var strings: [String] = [], entries = 0
        Self.walk(f.state, strings: &strings, entries: &entries)
        #expect(entries > 0 && strings.contains("typed-Secret-99"))
        f.store.send(.lock)
        await f.store.settle()
        Self.assertClean(f.state, secrets)
    }

    @Test func aConflictsTwoVersionsAreGoneAfterLock() async throws {
        let f = try AppFixture()
        let secrets = Self.secrets(f)
        _ = try await OtherWritersFlowTests.conflictingEdit(f)
        #expect(f.state.conflict != nil)
        f.store.send(.lock)
        await f.store.settle()
        Self.assertClean(f.state, secrets)
    }
}
