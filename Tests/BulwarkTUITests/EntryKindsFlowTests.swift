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
}
