import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// The app beside another bulwark writing to the same vault (a second
/// `Vault` on the file is a second SQLite connection, as a CLI would hold).
@Suite struct OtherWritersFlowTests {
    static func other(_ f: AppFixture) throws -> Vault {
        let vault = try Vault.open(at: f.session.vaultPath, masterPassword: "demo")
        vault.backupPolicy = .none
        return vault
    }

    /// One idle tick looks for changes.
    static func tick(_ f: AppFixture) async {
        f.store.send(.tick(AppFixture.now))
        await f.store.settle()
    }

    @Test func theAppReloadsWhatAnotherWriterAddedChangedAndDeleted() async throws {
        let f = try AppFixture(width: 120, height: 40)
        await f.selectEntry("Northwind Bank")
        await Self.tick(f)
        #expect(f.state.status == nil)  // nothing changed: nothing said

        let other = try Self.other(f)
        try other.save(Entry(title: "Zeta Added", urls: ["https://zeta.example"], username: "jane", password: "letmein"))
        try other.update(try other.find("Mail").id) { $0.changePassword(to: "123456", reason: "edited", at: AppFixture.now) }
        let removed = try #require(f.state.snapshot.entries.first { $0.title != "Northwind Bank" && $0.title != "Mail" })
        try other.remove(id: removed.id)
        await Self.tick(f)

        #expect(f.state.status == "Updated from another bulwark: Zeta Added added; Mail changed; \(removed.title) deleted.")
        #expect(f.state.selectedEntry?.title == "Northwind Bank")  // the person's place is kept
        #expect(f.entry("Zeta Added") != nil && f.entry(removed.title) == nil && f.entry("Mail")?.password == "123456")
        // Re-analysed incrementally, and equal to a fresh analysis of the file.
        let fresh = AppSession(vaultPath: f.session.vaultPath, catalog: try ServiceCatalog.builtIn(), breaches: try BreachCorpus.load(paths: []),
                               appleID: DemoSetup.appleID, clock: { AppFixture.now }, sleep: { _ in })
        let expected = try fresh.unlock(masterPassword: "demo")
        #expect(f.state.snapshot.report == expected.report)
        #expect(f.state.snapshot.report.recommendation(forEntry: try #require(f.entry("Zeta Added")).id)?.kinds.contains(.breached) == true)
        f.golden("updated-from-another")
        await Self.tick(f)
        #expect(f.state.snapshot.entries == expected.entries)
    }

    /// Edits Mail in the form (username and password) while another
    /// writer changes its password, then saves.
    static func conflictingEdit(_ f: AppFixture, otherDeletes: Bool = false, notes: Bool = false) async throws -> Vault {
        await f.selectEntry("Mail")
        await f.press(.char("e"), .tab, .tab)
        await f.press(.ctrl("u"))
        await f.type("jane.doe")
        await f.press(.tab, .ctrl("u"))
        await f.type("mine-42-secret")
        if notes {
            await f.press(.tab, .tab, .tab, .tab, .ctrl("u"))
            await f.type("my note")
        }
        let other = try Self.other(f)
        let id = try other.find("Mail").id
        if otherDeletes { try other.remove(id: id) } else {
            try other.update(id) {
                $0.changePassword(to: "theirs-17-secret", reason: "edited", at: AppFixture.now)
                if notes { $0.notes = "their note" }
            }
        }
        await f.press(.enter)
        return other
    }

    @Test(arguments: [(80, 24), (120, 40)])
    func anEditThatMetAnotherWritersChangeAsksWhichToKeep(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        let oldPassword = try #require(f.entry("Mail")?.password)
        _ = try await Self.conflictingEdit(f)
        #expect(f.state.overlayKind == .conflict && f.state.editor == nil)
        #expect(f.entry("Mail")?.password == "theirs-17-secret")  // the list already shows theirs
        #expect(Keymaps.active(f.state).footerHints.map(\.label) == ["keep theirs", "keep mine", "keep both", "back to my edit"])
        f.golden("edit-conflict")
        // Nothing of the edit was written while the person decides: the file holds theirs, its history the original.
        let held = try Self.other(f).find("Mail")
        #expect(held.password == "theirs-17-secret" && held.username != "jane.doe" && held.history.first?.password == oldPassword)
    }

    @Test func keepTheirsKeepsMyPasswordInItsHistory() async throws {
        let f = try AppFixture()
        let other = try await Self.conflictingEdit(f)
        await f.press(.char("t"))
        let mail = try #require(f.entry("Mail"))
        #expect(mail.password == "theirs-17-secret" && mail.username != "jane.doe")
        #expect(mail.history.first?.password == "mine-42-secret" && mail.history.first?.reason == "not kept: changed at the same time in another bulwark")
        #expect(mail.fields.last == CustomField(name: "User name (your version)", value: "jane.doe"))
        #expect(f.state.banner?.text == "Kept the other version of Mail; your password is in its history; your user name is in a field marked (your version).")
        #expect(try other.refresh() != nil && other.find("Mail") == mail)
    }

    /// The review's case: notes typed in the form, theirs saved meanwhile,
    /// keep theirs: the typed notes survive, named, beside theirs.
    @Test func keepTheirsKeepsEveryValueITypedAndSaysWhere() async throws {
        let f = try AppFixture()
        let other = try await Self.conflictingEdit(f, notes: true)
        await f.press(.char("t"))
        let mail = try #require(f.entry("Mail"))
        #expect(mail.notes == "their note" && mail.password == "theirs-17-secret")
        #expect(mail.fields.suffix(2) == [CustomField(name: "User name (your version)", value: "jane.doe"),
                                          CustomField(name: "Notes (your version)", value: "my note")])
        #expect(mail.history.first?.password == "mine-42-secret")
        #expect(f.state.banner?.text == "Kept the other version of Mail; your password is in its history; your user name and notes are in fields marked (your version).")
        #expect(try other.refresh() != nil && other.find("Mail") == mail)
    }

    @Test func keepMineKeepsTheirNotesInAMarkedField() async throws {
        let f = try AppFixture()
        _ = try await Self.conflictingEdit(f, notes: true)
        await f.press(.char("m"))
        let mail = try #require(f.entry("Mail"))
        #expect(mail.notes == "my note" && mail.username == "jane.doe")
        #expect(mail.fields.contains(CustomField(name: "Notes (their version)", value: "their note")))
        #expect(mail.history.first?.password == "theirs-17-secret")
    }

    @Test func keepMineKeepsTheirPasswordInItsHistory() async throws {
        let f = try AppFixture()
        let original = try #require(f.entry("Mail")?.password)
        let other = try await Self.conflictingEdit(f)
        await f.press(.char("m"))
        let mail = try #require(f.entry("Mail"))
        #expect(mail.password == "mine-42-secret" && mail.username == "jane.doe")
        #expect(mail.history.first?.password == "theirs-17-secret" && mail.history.first?.reason == "replaced: changed at the same time in another bulwark")
        #expect(mail.history.filter { $0.password == original }.count == 1)
        #expect(try other.refresh() != nil && other.find("Mail") == mail)
    }

    @Test func keepBothSavesMineAsACopy() async throws {
        let f = try AppFixture()
        _ = try await Self.conflictingEdit(f)
        await f.press(.char("b"))
        #expect(f.entry("Mail")?.password == "theirs-17-secret")
        #expect(f.entry("Mail (kept both)")?.password == "mine-42-secret" && f.entry("Mail (kept both)")?.username == "jane.doe")
        #expect(f.state.banner?.text == "Kept both: your version is saved as Mail (kept both).")
    }

    @Test func anEditOfAnEntryDeletedElsewhereCanRestoreIt() async throws {
        let f = try AppFixture()
        _ = try await Self.conflictingEdit(f, otherDeletes: true)
        #expect(f.state.overlayKind == .conflict && f.entry("Mail") == nil)
        await f.press(.char("b"))
        #expect(f.state.overlayKind == .conflict)  // unavailable: nothing to keep both of
        await f.press(.char("m"))
        #expect(f.entry("Mail")?.password == "mine-42-secret")
    }

    @Test func backToMyEditPutsTheFormOverTheirVersion() async throws {
        let f = try AppFixture()
        _ = try await Self.conflictingEdit(f)
        await f.press(.escape)
        #expect(f.state.overlay == nil && f.state.editor?.fields[3].text == "mine-42-secret")
        #expect(f.state.status == "Your edit is back in the form, over the other version: Enter saves it, Esc drops it.")
        await f.press(.enter)
        let mail = try #require(f.entry("Mail"))
        #expect(mail.password == "mine-42-secret" && mail.history.first?.password == "theirs-17-secret")
    }

    @Test func aDeleteOfAnEntryChangedElsewhereDeletesNothing() async throws {
        let f = try AppFixture()
        await f.selectEntry("Mail")
        let other = try Self.other(f)
        try other.update(try other.find("Mail").id) { $0.notes = "changed there" }
        await f.press(.char("d"), .char("y"))
        #expect(f.entry("Mail")?.notes == "changed there")
        #expect(f.state.banner == Banner(ok: false, text: "'Mail' was changed by another bulwark since it was read; nothing was changed."))
    }

    @Test func aPasswordChangedElsewhereLocksTheApp() async throws {
        let f = try AppFixture()
        let other = try Self.other(f)
        try other.changeMasterPassword(to: "changed elsewhere")
        await Self.tick(f)
        #expect(!f.state.unlocked && f.state.snapshot.entries.isEmpty)
        #expect(f.state.status == "Locked: the master password was changed by another bulwark. Unlock with the new one.")
    }
}
