import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// The form's category and tags, and a generated password shown while its
/// field has the focus.
@Suite struct EditorFieldsTests {
    @Test func aCategoryIsANameOrItsStartAndEmptyIsGuessed() throws {
        #expect(try EntryEditor.category("") == nil)
        #expect(try EntryEditor.category("  Finance ") == .finance)
        #expect(try EntryEditor.category("gov") == .government)
        #expect(throws: EntryEditor.Problem.self) { try EntryEditor.category("s") }  // shopping or social
        #expect(throws: EntryEditor.Problem.self) { try EntryEditor.category("banking") }
        #expect(EntryEditor.tags(" home, work,,home , pin ") == ["home", "work", "pin"])
    }

    @Test(arguments: [(80, 24), (60, 16)])
    func addWithACategoryAndTagsThenEditThem(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        await f.press(.char("n"))
        await f.type("Garden Club")
        await f.press(.tab, .tab, .tab, .ctrl("g"), .enter)
        let generated = try #require(f.state.editor?.fields[3])
        #expect(!generated.masked && f.state.status == "Generated a password in Apple's format (73 bits), shown until you leave the field.")
        await f.press(.tab)
        #expect(f.state.editor?.fields[3].masked == true)
        await f.press(.tab)
        await f.type("fin")
        await f.press(.tab)
        await f.type("home, money")
        f.golden("editor-category-tags")
        await f.press(.enter)
        let added = try #require(f.entry("Garden Club"))
        #expect(added.category == .finance && added.categoryIsManual && added.tags == ["home", "money"])
        #expect(added.password == generated.text)

        await f.selectEntry("Garden Club")
        await f.press(.char("e"))
        #expect(f.state.editor?.fields[5].text == "Finance" && f.state.editor?.fields[6].text == "home, money")
        await f.press(.tab, .tab, .tab, .tab, .tab, .ctrl("u"), .tab, .ctrl("u"))
        await f.type("work")
        await f.press(.enter)
        let edited = try #require(f.entry("Garden Club"))
        #expect(!edited.categoryIsManual && edited.category == CategoryGuess.guess(title: "Garden Club", urls: []) && edited.tags == ["work"])
        await f.press(.char("e"), .tab, .tab, .tab, .tab, .tab)
        await f.type("s")
        await f.press(.enter)
        #expect(f.state.editor?.error == "The category: one of Email, Identity, Finance, Government, Health, Work, Shopping, Social, Other, or empty to let bulwark guess.")
    }
}

/// An entry that holds a passkey shows it in the detail (never its key).
@Suite struct PasskeyDetailTests {
    @Test func theDetailNamesThePasskey() throws {
        var state = ReducerTests.state()
        var entries = state.snapshot.entries
        let index = try #require(entries.firstIndex { $0.title == "Shiny" })
        entries[index].passkeys = [Passkey(credentialID: Array(repeating: 1, count: 16), rpID: "shiny.example", userHandle: [1], userName: "jane@mail.example",
                                           userDisplayName: "Jane", privateKey: [0x30, 0x00], created: AppFixture.now)]
        state.snapshot.entries = entries
        state.refilter()
        state.list.select(state.visible.firstIndex { state.snapshot.entries[$0].title == "Shiny" }!, count: state.visible.count)
        let screen = AppView.render(state)
        #expect(screen.textDump().contains("Passkey    shiny.example · jane@mail.examp…"))  // the user name cut at 80 columns, the site whole
        Snapshot.assert(screen, named: "entry-passkey")
    }
}
