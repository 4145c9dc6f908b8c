import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

/// A feature's reducer sees its own state and a read-only context; what it
/// asks of the app comes back as an outcome the app carries out.
@Suite struct FeatureScopeTests {
    @Test func aFeatureReducerRunsOnItsOwnStateAlone() {
        let app = AppContext(ReducerTests.state())
        var web: WebSignInUI? = WebSignInUI(entryID: "d01", title: "Shiny", step: .alert(app: "Shiny", domain: "id.nimbus.example"))
        let outcome = WebSignInReducer.reduce(.cancel, &web, app)
        #expect(web == nil && outcome.banner == Banner(ok: true, text: "Shiny: sign-in cancelled. Nothing was changed."))
        #expect(outcome.effect.isNone && outcome.status == nil && outcome.then == nil)
    }

    @Test func aStepThatArrivesAfterTheSessionEndedBringsNothingBack() {
        var state = ReducerTests.state()
        state.webSignIn = WebSignInUI(entryID: "d01", title: "Shiny", step: .alert(app: "Shiny", domain: "id.nimbus.example"))
        let store = Store(state: state)
        store.send(.lock)
        store.send(.webSignIn(.stepped(.failed("The provider is down."), ReducerTests.state().snapshot, autoFill: nil)))
        #expect(store.state.webSignIn == nil && store.state.banner == nil)
    }

    @Test func theFirstStepOpensTheSessionForItsEntry() {
        let store = Store(state: ReducerTests.state())
        store.send(.webSignIn(.began(entryID: "d01", title: "Shiny", .alert(app: "Shiny", domain: "id.nimbus.example"), store.state.snapshot)))
        #expect(store.state.webSignIn?.entryID == "d01" && store.state.webSignIn?.providerDomain == "id.nimbus.example")
    }

    /// Sign-up's "upgrade the account you have" hands the app an action of its
    /// own: the entry shown in the vault, and its upgrade started there.
    @Test func upgradingTheExistingAccountIsAskedOfTheApp() {
        var signUp: SignUpUI? = SignUpUI(services: [])
        signUp?.existing = [SignUpUI.Existing(id: "d02", said: "shiny: jane")]
        let outcome = SignUpReducer.reduce(.upgradeExisting, &signUp, AppContext(ReducerTests.state()))
        #expect(signUp == nil && outcome.then == .vault(.upgradeInVault(entryID: "d02", .signInWithApple)))
    }
}
