import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// One account saved in two entries (Shiny and Shiny Store share one
/// backend): every change of its sign-in reaches both, and other people's
/// entries at the same sites are left alone.
@Suite struct AccountAsAWholeTests {
    /// The fixture plus a second entry of jane's Shiny account, and one of another person's.
    static func fixture() throws -> UpgradeFixture {
        let f = try UpgradeFixture()
        try f.vault.save([
            Entry(id: "store", title: "Shiny Store", urls: ["https://www.shinystore.example/login"], username: "jane", password: "shiny-old-1"),
            Entry(id: "store-old", title: "Shiny Store (old)", urls: ["https://shinystore.example"], username: "jane", password: "shiny-older-0"),
            Entry(id: "bob", title: "Shiny (Bob)", urls: ["https://shiny.example"], username: "bob", password: "bob-own-pass"),
            Entry(id: "note", title: "Shiny note", urls: ["https://shiny.example"], username: "jane", kind: .secureNote),
        ])
        return f
    }

    @Test func aStrongPasswordReachesEveryEntryOfTheAccount() throws {
        let f = try Self.fixture()
        guard case .completed(let outcome) = f.start("shiny", .strongPassword) else { Issue.record("not completed"); return }
        #expect(outcome.alsoUpdated == ["Shiny Store", "Shiny Store (old)"])
        #expect(outcome.summary == "Shiny now uses a strong password, saved in bulwark. Also updated, the same account: Shiny Store, Shiny Store (old).")
        let password = try #require(f.entry("shiny").password)
        for id in ["store", "store-old"] {
            #expect(f.entry(id).password == password)
            #expect(try f.agrees(id))
            #expect(f.entry(id).history.first?.reason == "upgraded to a strong password (the same account as Shiny)")
        }
        // Each keeps its own history: the older entry's older password is the one it keeps.
        #expect(f.entry("store-old").history.first?.password == "shiny-older-0")
        #expect(f.entry("bob").password == "bob-own-pass" && f.entry("note").password == nil && f.entry("note").history.isEmpty)
    }

    @Test func aConversionLeavesNoPasswordInAnyEntryOfTheAccount() throws {
        let f = try Self.fixture()
        guard case .sheet = f.start("store", .signInWithApple) else { Issue.record("no sheet"); return }
        guard case .completed(let outcome) = f.engine.continueWithApple() else { Issue.record("not completed"); return }
        #expect(outcome.alsoUpdated == ["Shiny", "Shiny Store (old)"])
        for id in ["shiny", "store", "store-old"] {
            let entry = f.entry(id)
            #expect(entry.password == nil && entry.history.isEmpty, "\(id) keeps a password")
            #expect(entry.signInWithApple?.user == f.entry("store").signInWithApple?.user)
            #expect(try f.agrees(id))
        }
        #expect(f.entry("bob").password == "bob-own-pass")
    }

    /// A crash after the service committed: the restart settles the whole account in one write.
    @Test func theReconcilerSettlesTheWholeAccount() throws {
        let f = try Self.fixture()
        try f.vault.update("shiny") { $0.pendingChange = PendingChange(kind: .strongPassword, newPassword: "Fresh-Strong-Pass-9", startedAt: f.clock.now) }
        _ = try f.world.backend(for: f.entry("shiny"))!.commitPassword(user: "jane", newPassword: "Fresh-Strong-Pass-9")
        #expect(try Reconciler.reconcile(vault: f.vault, world: f.world) == [.settledNewPassword(entry: "Shiny")])
        #expect(f.entry("shiny").password == "Fresh-Strong-Pass-9" && f.entry("store").password == "Fresh-Strong-Pass-9")
        #expect(try f.entry("shiny").pendingChange == nil && f.agrees("store"))
        #expect(f.entry("bob").password == "bob-own-pass")
    }

    @Test func userNamesMatchAsTheServiceWould() {
        #expect(AccountEntries.normalizedUser(" Jane@Mail.Example ") == "jane@mail.example")
        #expect(AccountEntries.normalizedUser("@Jane") == "@Jane")
        #expect(AccountEntries.normalizedUser("Jane") == "Jane")
    }

    /// The comparison by the key each entry keeps of its name says what
    /// comparing the normalized names says, for every pair of these.
    @Test func theQuickComparisonAgreesWithTheNormalizedNames() {
        let names = [" Jane@Mail.Example ", "jane@mail.example", "JANE@MAIL.EXAMPLE\t", "Jane", "jane", " Jane", "@Jane", "@jane",
                     "jane@mail.exampl", "jané@mail.example", "JANÉ@MAIL.EXAMPLE", "", " ", "j@ne", "J@NE", "user10@mail.example",
                     "user1@mail.example", "Jane\u{00A0}", "\u{00A0}Jane", "\u{3000}jane@mail.example", "jane@mail.example\u{2003}"]
        for raw in names {
            let entry = Entry(title: "T", username: raw)
            for other in names {
                let normalized = AccountEntries.normalizedUser(other)
                let same = AccountEntries.normalizedUser(raw) == normalized
                #expect(AccountEntries.sameUser(entry, UserNameKey.of(normalized), normalized) == same,
                        "\(raw.debugDescription) and \(other.debugDescription)")
            }
        }
    }

    /// The key is the same for one account's ways of writing its name,
    /// unknown for names outside ASCII, and never written anywhere.
    @Test func userNameKeysFollowTheAccountsNames() {
        #expect(UserNameKey.of(" Jane@Mail.Example\t") == UserNameKey.of("jane@mail.example"))
        #expect(UserNameKey.of("Jane") != UserNameKey.of("jane"))
        #expect(UserNameKey.of("@Jane") != UserNameKey.of("@jane"))
        #expect(UserNameKey.of("jané") == UserNameKey.unknown && UserNameKey.of("") != UserNameKey.unknown)
        var entry = Entry(title: "T", username: "Jane@Mail.Example")
        #expect(entry.userNameKey == UserNameKey.of("jane@mail.example"))
        entry.username = "bob"
        #expect(entry.userNameKey == UserNameKey.of("bob"))
    }
}
