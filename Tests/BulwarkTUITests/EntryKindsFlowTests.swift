import BulwarkCore
import Foundation
import Testing
@testable import BulwarkTUI

/// An entry of another kind, with custom fields: shown with its kind,
/// hidden fields masked (the reveal key shows the password only), and
/// found by a field's name but never by a hidden value.
@Suite struct EntryKindsFlowTests {
    @Test(arguments: [(80, 24), (120, 40)])
    func aCardShowsItsFieldsWithTheHiddenOnesMasked(width: Int, height: Int) async throws {
        let f = try AppFixture(width: width, height: height)
        let card = Entry(title: "Visa card", notes: "the blue one", category: .finance, created: AppFixture.now, kind: .card,
                         fields: [CustomField(name: "Cardholder", value: "Jane Appleseed"), CustomField(name: "Number", value: "4111111111111111", hidden: true),
                                  CustomField(name: "Security code", value: "123", hidden: true)])
        f.store.send(.vault(.updated(try f.session.save(card, basedOn: nil), banner: nil)))
        await f.store.settle()
        await f.selectEntry("Visa card")
        f.golden("entry-card")
        await f.press(.char("v"))
        #expect(!AppView.render(f.state).textDump().contains("4111111111111111"))
        await f.press(.char("/"))
        await f.type("security")
        #expect(f.state.visible.map { f.state.snapshot.entries[$0].title } == ["Visa card"])
        await f.press(.ctrl("u"))
        await f.type("4111")
        #expect(f.state.visible.isEmpty)
    }

    /// An expiry (as KeePass keeps it) is a line of the detail; a past one says so.
    @Test func anExpiryIsShownAndAPastOneSaysExpired() async throws {
        let f = try AppFixture(width: 80, height: 24)
        var past = Entry(title: "Old VPN", urls: ["https://vpn.example"], username: "jane", password: "pw", created: AppFixture.now)
        past.expires = AppFixture.now.addingTimeInterval(-86_400)
        var future = Entry(title: "New VPN", urls: ["https://vpn2.example"], username: "jane", password: "pw2", created: AppFixture.now)
        future.expires = AppFixture.now.addingTimeInterval(86_400 * 30)
        for entry in [past, future] { f.store.send(.vault(.updated(try f.session.save(entry, basedOn: nil), banner: nil))) }
        await f.store.settle()
        await f.selectEntry("Old VPN")
        let old = AppView.render(f.state).textDump()
        #expect(old.contains("Expires    " + CalendarDay.string(past.expires!) + " (expired)"), "\(old)")
        await f.selectEntry("New VPN")
        let new = AppView.render(f.state).textDump()
        #expect(new.contains("Expires    " + CalendarDay.string(future.expires!)) && !new.contains("(expired)"), "\(new)")
    }

    /// The files an entry holds are lines of its detail, by name and size.
    @Test func anEntrysFilesAreListedInItsDetail() async throws {
        let f = try AppFixture(width: 80, height: 24)
        var entry = Entry(title: "Bank", urls: ["https://bank.example"], username: "jane", password: "pw", created: AppFixture.now)
        entry.attachments = [Attachment(blob: "b1", name: "recovery codes.pdf", size: 12_800, mediaType: "application/pdf",
                                        created: AppFixture.now, modified: AppFixture.now, chunks: 1)]
        f.store.send(.vault(.updated(try f.session.save(entry, basedOn: nil), banner: nil)))
        await f.store.settle()
        await f.selectEntry("Bank")
        let shown = AppView.render(f.state).textDump()
        #expect(shown.contains("File       recovery codes.pdf  12.5 KiB"), "\(shown)")
    }
}
