import BulwarkCore
import BulwarkUpgrades
import Foundation
import Testing
@testable import BulwarkTUI

@Suite struct ReducerTests {
    static let demo = try! DemoSetup.entries(now: Date(timeIntervalSince1970: 1_800_000_000)).prefix(12)

    static func state(width: Int = 80, height: Int = 24) -> AppState {
        var snapshot = SessionSnapshot()
        snapshot.entries = ChunkedArray(Array(demo).sorted { $0.title < $1.title })
        snapshot.catalog = (try? ServiceCatalog.builtIn()) ?? ServiceCatalog(manifests: [])  // the demo's services
        return AppState(width: width, height: height, unlocked: true, snapshot: snapshot, lockLabel: "demo")
    }

    /// A person's own vault knows only the services it was given: with none,
    /// N (sign up with Apple) says so instead of offering the demo's mocks.
    @Test func aVaultWithNoServicesSaysSoAtSignUp() {
        var snapshot = SessionSnapshot()
        snapshot.entries = ChunkedArray(Array(Self.demo))
        let store = Store(state: AppState(width: 80, height: 24, unlocked: true, snapshot: snapshot, lockLabel: "unlocked"))
        store.send(.key(.char("N")))
        #expect(store.state.overlay == nil && store.state.signUp == nil)
        #expect(store.state.status == "No services known: give them with --services (bulwark demo has its own).")
        let demo = Store(state: Self.state())
        demo.send(.key(.char("N")))
        #expect(demo.state.overlayKind == .signUp && demo.state.signUp?.services.isEmpty == false)
    }

    /// Search ranks matches in the title first, then anywhere; the query's
    /// letters scattered in order count only when nothing has the words;
    /// a non-ASCII letter matches only itself.
    @Test func searchRanksTitleThenAnywhereThenLettersInOrder() {
        var snapshot = SessionSnapshot()
        snapshot.entries = [
            Entry(id: "1", title: "Alpha", urls: ["https://a.example"], username: "shopper"),
            Entry(id: "2", title: "Café Crème", urls: ["https://cafe.example"]),
            Entry(id: "3", title: "Sushi Hop", urls: ["https://sushi.example"]),
            Entry(id: "4", title: "Zeta Shop", urls: ["https://zeta.example"]),
            Entry(id: "5", title: "Unrelated", urls: ["https://u.example"]),
            Entry(id: "6", title: "Crème"),
        ]
        func search(_ query: String) -> [String] {
            let store = Store(state: AppState(width: 80, height: 24, unlocked: true, snapshot: snapshot, lockLabel: "demo"))
            store.send(.key(.char("/")))
            for character in query { store.send(.key(.char(character))) }
            return store.state.visible.map { store.state.snapshot.entries[$0].title }
        }
        #expect(search("shop") == ["Zeta Shop", "Alpha"])  // not "Sushi Hop": the word is there
        #expect(search("sushop") == ["Sushi Hop"])         // nothing has the word: the letters in order
        #expect(search("SHOP zeta") == ["Zeta Shop"])
        #expect(search("café") == ["Café Crème"])
        #expect(search("cafe") == ["Café Crème"])     // through its site, cafe.example
        // è is a letter of its own: "Crème" has no e after its r, and Café
        // Crème matches only through the letters of cafe.example.
        #expect(search("creme") == ["Café Crème"])
        #expect(search("crè") == ["Café Crème", "Crème"])
        #expect(search("qqq") == [])
    }

    /// Typing narrows the last result instead of searching the vault again;
    /// after every keystroke (⌫ rubs one out) the list equals a search from
    /// scratch for the same query.
    @Test(arguments: ["northwind", "nor⌫⌫⌫bank", "s⌫shi⌫⌫⌫ a", "e e⌫⌫⌫ea", "1⌫a1", "city he⌫⌫⌫⌫⌫⌫⌫⌫⌫grocer", "ab⌫cd e⌫o", "bankz", "shi⌫⌫opx"])
    func typingNarrowsLikeAFreshSearch(keys: String) {
        var snapshot = SessionSnapshot()
        snapshot.entries = ChunkedArray(try! DemoSetup.entries(now: Date(timeIntervalSince1970: 1_800_000_000)))
        func fresh(_ query: String) -> [Int] {
            var state = AppState(width: 80, height: 24, unlocked: true, snapshot: snapshot, lockLabel: "demo")
            state.filter.query = query
            state.refilter()
            return state.visible
        }
        let store = Store(state: AppState(width: 80, height: 24, unlocked: true, snapshot: snapshot, lockLabel: "demo"))
        store.send(.key(.char("/")))
        for key in keys {
            store.send(.key(key == "⌫" ? .backspace : .char(key)))
            #expect(store.state.visible == fresh(store.state.filter.query), "after \(store.state.filter.query)")
        }
    }

    /// The same in every order, and with the order changed halfway: a step
    /// gone back to is put in the order asked for now.
    @Test(arguments: VaultFilter.Order.allCases)
    func aSearchGoneBackToIsInTheOrderAskedFor(order: VaultFilter.Order) {
        var snapshot = SessionSnapshot()
        snapshot.entries = ChunkedArray(try! DemoSetup.entries(now: Date(timeIntervalSince1970: 1_800_000_000)))
        func fresh(_ query: String, _ order: VaultFilter.Order) -> [Int] {
            var state = AppState(width: 80, height: 24, unlocked: true, snapshot: snapshot, lockLabel: "demo")
            state.filter.query = query
            state.filter.order = order
            state.refilter()
            return state.visible
        }
        var state = AppState(width: 80, height: 24, unlocked: true, snapshot: snapshot, lockLabel: "demo")
        state.filter.order = order
        for query in ["s", "sh", "shi", "sh", "shi"] {
            state.filter.query = query
            state.refilter()
            #expect(state.visible == fresh(query, order), "\(query) by \(order)")
        }
        // Rubbed out after the order changed: the steps were made in the other order.
        for (query, now) in [("sh", VaultFilter.Order.title), ("s", .title), ("sh", .changed), ("s", .site)] {
            state.filter.order = now
            state.filter.query = query
            state.refilter()
            #expect(state.visible == fresh(query, now), "\(query) by \(now), typed by \(order)")
        }
    }

    @Test func jkAndArrowsMoveTheSelectionWithinBounds() {
        let store = Store(state: Self.state())
        for key in [Key.char("j"), .down, .char("j")] { store.send(.key(key)) }
        #expect(store.state.list.selected == 3)
        for _ in 0..<10 { store.send(.key(.char("k"))) }
        #expect(store.state.list.selected == 0)
        store.send(.key(.up))
        #expect(store.state.list.selected == 0)
        store.send(.key(.end))
        #expect(store.state.list.selected == Self.demo.count - 1)
        store.send(.key(.char("g")))
        #expect(store.state.list.selected == 0)
    }

    @Test func questionMarkOpensHelpAndEscClosesIt() {
        let store = Store(state: Self.state())
        store.send(.key(.char("?")))
        #expect(store.state.overlayKind == .help)
        store.send(.key(.char("j")))
        #expect(store.state.list.selected == 0)
        store.send(.key(.escape))
        #expect(store.state.overlay == nil)
    }

    @Test func qQuitsWithZero() {
        let store = Store(state: Self.state())
        store.send(.key(.char("q")))
        #expect(store.exitCode == 0)
    }

    @Test func ctrlCQuitsAtOnceWhenNothingIsInFlight() {
        let store = Store(state: Self.state())
        store.send(.key(.ctrl("c")))
        #expect(store.exitCode == 0)
    }

    @Test func ctrlCAsksFirstWhileAnUpgradeIsInFlight() {
        var state = Self.state()
        state.upgrade = UpgradeUI(request: UpgradeRequest(entryID: "d02", kind: .strongPassword, origin: .entry), title: "Shiny", state: .authorising)
        let store = Store(state: state)
        store.send(.key(.ctrl("c")))
        #expect(store.exitCode == nil)
        #expect(store.state.overlayKind == .confirmQuit)
        store.send(.key(.char("n")))
        #expect(store.exitCode == nil && store.state.overlay == nil)
        store.send(.key(.char("q")))  // q is not a key while the service works
        #expect(store.state.overlay == nil && store.exitCode == nil)
        store.send(.key(.ctrl("c")))
        #expect(store.state.overlayKind == .confirmQuit)
        store.send(.key(.char("y")))
        #expect(store.exitCode == 0)
    }

    @Test func aDisabledKeySaysWhy() {
        let store = Store(state: AppState(unlocked: true))
        store.send(.key(.char("j")))
        #expect(store.state.status == "Move down: unavailable. The list is empty.")
        store.send(.key(.char("?")))
        #expect(store.state.status == nil)
    }

    @Test func tooSmallWindowStillQuitsAndKeepsState() {
        let store = Store(state: Self.state(width: 40, height: 10))
        store.send(.key(.char("j")))
        #expect(store.state.list.selected == 0)
        store.send(.resize(width: 80, height: 24))
        store.send(.key(.char("j")))
        #expect(store.state.list.selected == 1)
        store.send(.resize(width: 20, height: 5))
        store.send(.key(.char("q")))
        #expect(store.exitCode == 0)
    }

    @Test func footerHelpAndKeyHandlingComeFromOneTable() {
        let keymap = Keymaps.vault(Self.state())
        #expect(keymap.footerHints.map(\.key) == ["↑↓", "/", "f", "v", "u", "a", "s", "Tab", "?", "q"])
        // Where no service covers the entry, sign-in is off and says why (nothing would be contacted).
        var real = Self.state()
        real.snapshot.catalog = ServiceCatalog(manifests: [])
        #expect(!Keymaps.vault(real).footerHints.map(\.key).contains("s"))
        #expect(Keymaps.vault(real).binding(for: .char("s"))?.disabledReason?.hasPrefix("bulwark has no sign-in for ") == true)
        for binding in keymap.bindings {
            for key in binding.keys { #expect(keymap.binding(for: key)?.help == binding.help) }
        }
    }
}

@Suite struct IdleLockTests {
    @Test func theVaultLocksAfterTheIdleTimeButNotDuringAnUpgrade() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var state = ReducerTests.state()
        state.now = start
        state.lockAfter = 300
        let store = Store(state: state)
        store.send(.tick(start))
        store.send(.key(.char("j")))
        store.send(.tick(start.addingTimeInterval(299)))
        #expect(store.state.unlocked)
        store.send(.tick(start.addingTimeInterval(301)))
        #expect(!store.state.unlocked && store.state.snapshot.entries.isEmpty)
        #expect(store.state.status == "Locked after 5 minutes without a key.")

        var busy = ReducerTests.state()
        busy.now = start
        busy.upgrade = UpgradeUI(request: UpgradeRequest(entryID: "d02", kind: .strongPassword, origin: .entry), title: "Shiny", state: .authorising)
        let working = Store(state: busy)
        working.send(.tick(start))
        working.send(.tick(start.addingTimeInterval(900)))
        #expect(working.state.unlocked)
    }
}

/// A shown password is one entry's, for a while: moving, locking or the
/// time running out hides it.
@Suite struct RevealTests {
    @Test func revealIsPerEntryAndEnds() async throws {
        let f = try AppFixture(width: 80, height: 24)
        await f.selectEntry("Mail")
        await f.press(.char("v"))
        #expect(f.state.revealed && AppView.render(f.state).textDump().contains("qemvox-Rikfu6-dabnyt"))
        #expect(f.state.status == "Shown for 30 seconds, or until you move.")
        await f.press(.char("j"))
        #expect(!f.state.revealed && f.state.reveal == nil)
        await f.press(.char("k"))
        #expect(!f.state.revealed && !AppView.render(f.state).textDump().contains("qemvox-Rikfu6-dabnyt"))  // not back by returning
        await f.press(.char("v"))
        f.store.send(.tick(AppFixture.now.addingTimeInterval(29)))
        #expect(f.state.revealed)
        f.store.send(.tick(AppFixture.now.addingTimeInterval(30)))
        #expect(!f.state.revealed && f.state.status == "The password is hidden again.")
        await f.press(.char("v"))
        await f.press(.char("L"))
        #expect(f.state.reveal == nil)
    }

    @Test func durationsAreSaidInWords() {
        #expect(Reducer.duration(60) == "1 minute" && Reducer.duration(300) == "5 minutes")
        #expect(Reducer.duration(30) == "30 seconds" && Reducer.duration(1) == "1 second" && Reducer.duration(90) == "90 seconds")
    }
}

/// A kept search is cleared with Esc; `/` reopens it selected, so typing
/// starts a new query and an arrow edits the old one.
@Suite struct KeptSearchTests {
    @Test func escClearsAndSlashStartsANewQuery() {
        let store = Store(state: ReducerTests.state())
        let all = store.state.visible.count
        for key: Key in [.char("/"), .char("b"), .char("a"), .char("n"), .char("k"), .enter] { store.send(.key(key)) }
        #expect(store.state.filter.query == "bank" && store.state.visible.count < all && store.state.search == nil)
        store.send(.key(.char("/")))
        #expect(store.state.search?.selectedAll == true && store.state.search?.text == "bank")
        store.send(.key(.char("m")))
        #expect(store.state.search?.text == "m" && store.state.filter.query == "m")
        store.send(.key(.enter))
        store.send(.key(.char("/")))
        store.send(.key(.left))
        store.send(.key(.char("x")))
        #expect(store.state.search?.text == "xm")  // an arrow keeps the old query to edit
        store.send(.key(.enter))
        store.send(.key(.escape))
        #expect(store.state.filter.query.isEmpty && store.state.visible.count == all && store.state.status == "Showing every entry.")
        #expect(Keymaps.vault(store.state).binding(for: .escape)?.disabledReason == "No search or filter is kept")
    }

    @Test func aSelectedFieldClearsOnADeletingKey() {
        var field = TextField("old query")
        field.selectedAll = true
        field.handle(.backspace)
        #expect(field.text.isEmpty && !field.selectedAll)
    }
}

/// The quit question follows what it asks about: an upgrade that ends
/// while it is open closes it, and the result is shown.
@Suite struct QuitDialogTests {
    @Test func theQuitDialogClosesWhenTheUpgradeEnds() {
        var state = ReducerTests.state()
        state.upgrade = UpgradeUI(request: UpgradeRequest(entryID: "d02", kind: .strongPassword, origin: .entry), title: "Shiny", state: .authorising)
        let store = Store(state: state)
        store.send(.key(.ctrl("c")))
        #expect(store.state.overlayKind == .confirmQuit)
        store.send(.upgrade(.stepped(.failed(reason: "The service is down."), store.state.snapshot)))
        #expect(store.state.overlayKind == .result && store.state.banner?.text == "Shiny: The service is down. Nothing was changed.")
        #expect(store.state.result?.vault == ["Nothing was changed."] && store.state.result?.service == "The service is down.")
        #expect(store.exitCode == nil)
    }
}

/// While a secret is on the clipboard the status line counts down.
@Suite struct ClipboardCountdownTests {
    @Test func theStatusLineCountsDownUntilTheSecretIsTakenBack() {
        var state = ReducerTests.state()
        let store = Store(state: state)
        store.send(.clipboardHeld(until: state.now.addingTimeInterval(22.4)))
        #expect(AppView.statusLine(store.state).plainText == "The clipboard is cleared in 23 seconds (or on lock and quit).")
        store.send(.tick(state.now.addingTimeInterval(21.5)))
        #expect(AppView.statusLine(store.state).plainText == "The clipboard is cleared in 1 second (or on lock and quit).")
        store.send(.clipboardHeld(until: nil))
        #expect(!AppView.statusLine(store.state).plainText.contains("clipboard"))
        state.status = "Something else."
        #expect(AppView.statusLine(state).plainText == "Something else.")
    }
}
