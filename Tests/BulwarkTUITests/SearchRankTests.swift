import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// Search finds what was typed first, whatever the order: a title's words
/// before a user name's, in the order chosen within each; `title:`,
/// `user:`, `url:` and `tag:` narrow to the entries whose field holds them.
@Suite struct SearchRankTests {
    func fixture() async throws -> AppFixture {
        let f = try AppFixture(width: 120, height: 40)
        let entries = [
            Entry(title: "Quokka Mail", urls: ["https://zz-quokka.example"], username: "jane", password: "pw1", tags: ["Home"], created: AppFixture.now),
            Entry(title: "Aardvark", urls: ["https://aa.example"], username: "quokka@mail.example", password: "pw2", tags: ["Work"], created: AppFixture.now),
            Entry(title: "Quokka Bank", urls: ["https://mm-bank.example"], username: "joe", password: "pw3", tags: ["Work"], created: AppFixture.now),
        ]
        for entry in entries { f.store.send(.vault(.updated(try f.session.save(entry, basedOn: nil), banner: nil))) }
        await f.store.settle()
        return f
    }

    func titles(_ f: AppFixture) -> [String] { f.state.visible.map { f.state.snapshot.entries[$0].title } }

    /// Search's text is made behind the first frame after unlock, not on the first keystroke.
    @Test func theUnlockMakesWhatSearchNeeds() async throws {
        let f = try AppFixture(unlocked: false)
        await f.type("demo")
        await f.press(.enter)
        await f.store.settle()
        #expect(f.state.unlocked && f.state.search == nil)
        #expect(f.state.snapshot.searchText.isPrepared)
        await f.press(.char("/"))
        await f.type("shiny")
        #expect(f.state.visible.map { f.state.snapshot.entries[$0].title }.prefix(2) == ["Shiny", "Shiny Store"])
    }

    @Test func aTitlesWordsComeFirstWhateverTheOrder() async throws {
        let f = try await fixture()
        await f.press(.char("o"))  // by site: aa.example would come first
        #expect(f.state.filter.order == .site)
        await f.press(.char("/"))
        await f.type("quokka")
        // Both titles first (in site order: mm- before zz-), then the user name's match.
        #expect(titles(f) == ["Quokka Bank", "Quokka Mail", "Aardvark"])
    }

    @Test func prefixesNarrowToAField() async throws {
        let f = try await fixture()
        await f.press(.char("/"))
        await f.type("user:quokka")
        #expect(titles(f) == ["Aardvark"])
        await f.press(.ctrl("u"))
        await f.type("tag:work quokka")
        #expect(titles(f) == ["Quokka Bank", "Aardvark"])
        await f.press(.ctrl("u"))
        await f.type("url:zz-quokka")
        #expect(titles(f) == ["Quokka Mail"])
        await f.press(.ctrl("u"))
        await f.type("title:quokka title:bank user:")  // a bare prefix being typed narrows nothing yet
        #expect(titles(f) == ["Quokka Bank"])
    }
}
