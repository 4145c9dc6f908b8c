import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// Esc while the service works: the host's Cancel reaches the extension
/// during its network wait, and the request ends with `userCanceled`, the
/// vault and the backend as they were, as a Cancel at the step-up screen does.
@Suite struct HostCancelTests {
    /// Presses Cancel during the next network wait, as a person would while
    /// "Contacting Shiny…" spins (the engine runs on another thread in the app).
    final class Person: @unchecked Sendable {  // one test's thread
        var engine: UpgradeEngine?
        var cancelDuringNextWait = false
        var waits = 0
        func waited() {
            waits += 1
            if cancelDuringNextWait { engine?.requestCancel() }
        }
    }

    func fixture() throws -> (UpgradeFixture, Person) {
        let person = Person()
        let f = try UpgradeFixture(sleep: { _ in person.waited() })
        person.engine = f.engine
        return (f, person)
    }

    func unchanged(_ f: UpgradeFixture, _ id: String, before: Entry) throws {
        #expect(f.entry(id) == before)
        #expect(f.entry(id).pendingChange == nil)
        #expect(try f.agrees(id))
    }

    @Test func cancelWhileTheServiceAuthorisesChangesNothing() throws {
        let (f, person) = try fixture()
        let before = f.entry("shiny")
        person.cancelDuringNextWait = true
        #expect(f.start("shiny", .strongPassword) == .cancelled)
        #expect(person.waits == 1)  // the wait ended at the Cancel; nothing was sent on
        try unchanged(f, "shiny", before: before)
        // The next request starts afresh: the Cancel was for that one.
        person.cancelDuringNextWait = false
        guard case .completed = f.start("shiny", .strongPassword) else { Issue.record("the next upgrade did not complete"); return }
        #expect(f.entry("shiny").password != "shiny-old-1")
        #expect(try f.agrees("shiny"))
    }

    @Test func cancelWhileACodeIsCheckedChangesNothing() throws {
        let (f, person) = try fixture()
        let before = f.entry("bank")
        guard case .stepUp = f.start("bank", .strongPassword) else { Issue.record("no step-up"); return }
        person.cancelDuringNextWait = true
        #expect(f.engine.submitCode(try f.totpCode()) == .cancelled)
        try unchanged(f, "bank", before: before)
    }

    @Test func cancelWhileSignInWithAppleIsExchangedLinksNothing() throws {
        let (f, person) = try fixture()
        let before = f.entry("shiny")
        guard case .sheet = f.start("shiny", .signInWithApple) else { Issue.record("no sheet"); return }
        person.cancelDuringNextWait = true
        #expect(f.engine.continueWithApple() == .cancelled)
        try unchanged(f, "shiny", before: before)
        #expect(f.entry("shiny").signInWithApple == nil)
    }
}
