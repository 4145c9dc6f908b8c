import BulwarkCore
import BulwarkUpgrades
import Foundation
import Synchronization
import Testing
@testable import BulwarkTUI

/// The reducers reach the world only through the environment's clients.
/// Here each test provides the one client its flow should reach (a test
/// value written for it); every other is unprovided, and reaching one
/// fails the test. The tests assert the actions that come back.
@Suite struct ClientsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A vault client that keeps what it was asked and answers as told.
    final class FakeVault: VaultClient, @unchecked Sendable {
        let calls = Mutex<[String]>([])
        var afterDelete = SessionSnapshot()
        var conflictOnSave = false
        var theirs: Entry?

        func keyDerivationParameters(creating: Bool) -> ScryptParameters? { nil }
        func unlock(masterPassword: String) throws -> SessionSnapshot { SessionSnapshot() }
        func create(masterPassword: String, parameters: ScryptParameters) throws -> SessionSnapshot { SessionSnapshot() }
        func analyseNextBatch() -> SessionSnapshot { SessionSnapshot() }
        func lockVault() { calls.withLock { $0.append("lock") } }
        func snapshot() -> SessionSnapshot { calls.withLock { $0.append("snapshot") }; return afterDelete }
        func saveEdit(_ entry: Entry, basedOn base: Int64?) throws -> (SessionSnapshot, alsoUpdated: [String]) {
            calls.withLock { $0.append("save \(entry.id) \(entry.title)") }
            if conflictOnSave { throw VaultError.conflict(title: entry.title, deleted: false) }
            return (SessionSnapshot(), [])
        }
        func delete(id: String, basedOn base: Int64?) throws -> SessionSnapshot {
            calls.withLock { $0.append("delete \(id)") }
            return afterDelete
        }
        func setHidden(id: String, _ hidden: Bool, until: Date?) throws -> SessionSnapshot { SessionSnapshot() }
        func generate(_ choice: GeneratorChoice, forSite site: String) -> GeneratedSample? { nil }
        func current(id: String) -> Entry? { calls.withLock { $0.append("current \(id)") }; return theirs }
        func pollExternalChanges() -> AppSession.PollResult { calls.withLock { $0.append("poll") }; return .unchanged }
        func tidyWhileIdle() { calls.withLock { $0.append("tidy") } }
        func resolveConflict(mine: Entry, choice: ConflictChoice) throws -> (SessionSnapshot, String) { (SessionSnapshot(), "") }
        func saveAttachment(entryID: String, name: String, to path: String) throws -> String {
            calls.withLock { $0.append("save-file \(entryID) \(name) \(path)") }
            return "Saved \(name) to \(path)."
        }
        var afterAttach = SessionSnapshot()
        func attachFile(entryID: String, path: String) throws -> (SessionSnapshot, String) {
            calls.withLock { $0.append("attach \(entryID) \(path)") }
            return (afterAttach, "Attached it.")
        }
        func removeAttachment(entryID: String, name: String) throws -> (SessionSnapshot, String) {
            calls.withLock { $0.append("remove \(entryID) \(name)") }
            return (afterAttach, "Removed it.")
        }
        func openAttachment(entryID: String, name: String) throws -> String {
            calls.withLock { $0.append("open \(entryID) \(name)") }
            return "Opened \(name)."
        }
        func restoreEntry(_ entry: Entry) throws -> (SessionSnapshot, lostFiles: [String]) {
            calls.withLock { $0.append("restore \(entry.id)") }
            return (SessionSnapshot(), [])
        }
        func completePath(_ partial: String) -> String {
            calls.withLock { $0.append("complete \(partial)") }
            return partial + "ments/"
        }
    }

    static func entries() -> [Entry] {
        [Entry(id: "a", title: "Alpha", urls: ["https://alpha.example"], username: "jane", password: "correct horse battery"),
         Entry(id: "b", title: "Bravo", urls: ["https://bravo.example"], username: "jane", password: "staple gun orbit")]
    }

    static func store(vault: FakeVault, report: @escaping @Sendable (String) -> Void = { Issue.record(Comment(rawValue: $0)) }) -> Store {
        var snapshot = SessionSnapshot()
        snapshot.entries = ChunkedArray(entries())
        var environment = AppEnvironment.unprovided(now: { now }, report: report)
        environment.vault = vault
        return Store(state: AppState(width: 80, height: 24, unlocked: true, snapshot: snapshot, lockLabel: "test", now: now),
                     environment: environment, keepsReceived: true)
    }

    /// The first entry's site made one of the demo's services, so `s` signs in there.
    static func atADemoService(_ store: Store) throws {
        let catalog = try ServiceCatalog.builtIn()
        let domain = try #require(catalog.manifests.first?.primaryDomain)
        var snapshot = store.state.snapshot
        snapshot.catalog = catalog
        snapshot.entries = ChunkedArray([Entry(id: "a", title: "Alpha", urls: ["https://\(domain)"], username: "jane", password: "correct horse battery")])
        store.send(.unlock(.unlocked(snapshot)))
    }

    /// Each idle tick looks for other writers; the vault's log is folded in
    /// and the next backup made ahead only after two seconds without a key,
    /// never beside typing.
    @Test func theIdleWorkWaitsForTwoSecondsWithoutAKey() async {
        let vault = FakeVault()
        let store = Self.store(vault: vault)
        store.send(.key(.char("j")))
        store.send(.tick(Self.now.addingTimeInterval(1)))
        await store.settle()
        #expect(vault.calls.withLock { $0 } == ["poll"])
        store.send(.tick(Self.now.addingTimeInterval(2.5)))
        await store.settle()
        #expect(vault.calls.withLock { $0 } == ["poll", "poll", "tidy"])
    }

    @Test func deletingAsksTheVaultAndReceivesTheVaultAsItIsNow() async {
        let vault = FakeVault()
        vault.afterDelete.entries = ChunkedArray([Self.entries()[1]])
        let store = Self.store(vault: vault)
        store.send(.key(.char("d")))
        store.send(.key(.char("y")))
        await store.settle()
        #expect(vault.calls.withLock { $0 } == ["delete a"])
        #expect(store.takeReceived() == [.vault(.updated(vault.afterDelete, banner: Banner(ok: true, text: "Deleted Alpha.")))])
        #expect(store.state.snapshot.entries.map(\.title) == ["Bravo"])
    }

    /// F on an entry: Enter saves the file to the path typed (its name
    /// first), o opens it once asked, a attaches a file (Tab completes).
    @Test func theFilesDialogSavesOpensAndAttachesThroughTheVault() async throws {
        let vault = FakeVault()
        let store = Self.store(vault: vault)
        var snapshot = store.state.snapshot
        var alpha = Self.entries()[0]
        alpha.attachments = [Attachment(blob: "b", name: "codes.pdf", size: 1_000, mediaType: "application/pdf",
                                        created: Self.now, modified: Self.now, chunks: 1)]
        snapshot.entries = ChunkedArray([alpha, Self.entries()[1]])
        store.send(.unlock(.unlocked(snapshot)))
        store.send(.key(.char("F")))
        #expect(store.state.overlayKind == .files)
        store.send(.key(.enter))
        #expect(store.state.files?.field.text == "codes.pdf" && store.state.files?.prompt == .save("codes.pdf"))
        store.send(.key(.home))
        for c in "/tmp/" { store.send(.key(.char(c))) }
        store.send(.key(.enter))
        await store.settle()
        #expect(store.takeReceived() == [.files(.said(Banner(ok: true, text: "Saved codes.pdf to /tmp/codes.pdf.")))])
        #expect(store.state.banner == Banner(ok: true, text: "Saved codes.pdf to /tmp/codes.pdf.") && store.state.files?.prompt == nil)
        // o asks first; n leaves it, y opens.
        store.send(.key(.char("o")))
        #expect(store.state.files?.confirmOpen == "codes.pdf")
        store.send(.key(.char("n")))
        #expect(store.state.files?.confirmOpen == nil && store.state.overlayKind == .files)
        store.send(.key(.char("o")))
        store.send(.key(.char("y")))
        await store.settle()
        _ = store.takeReceived()
        // a: a path typed, Tab completes it, Enter attaches.
        store.send(.key(.char("a")))
        for c in "~/Docu" { store.send(.key(.char(c))) }
        store.send(.key(.tab))
        await store.settle()
        #expect(store.state.files?.field.text == "~/Documents/")
        for c in "id.png" { store.send(.key(.char(c))) }
        store.send(.key(.enter))
        await store.settle()
        #expect(vault.calls.withLock { $0 } == ["save-file a codes.pdf /tmp/codes.pdf", "open a codes.pdf", "complete ~/Docu",
                                                 "attach a ~/Documents/id.png"])
        #expect(store.state.banner == Banner(ok: true, text: "Attached it."))
    }

    @Test func anEditThatMeetsAnotherWritersChangeComesBackAsAConflict() async throws {
        let vault = FakeVault()
        vault.conflictOnSave = true
        vault.theirs = Entry(id: "a", title: "Alpha (theirs)")
        let store = Self.store(vault: vault)
        store.send(.key(.char("e")))
        store.send(.key(.char("X")))  // typed at the end of the title
        store.send(.key(.enter))
        await store.settle()
        #expect(vault.calls.withLock { $0 } == ["save a AlphaX", "current a", "snapshot"])
        let received = store.takeReceived()
        #expect(received.count == 1)
        guard case .otherWriters(.editConflict(let conflict, _))? = received.first else {
            Issue.record("expected an edit conflict, received \(received)")
            return
        }
        #expect(conflict.mine.title == "AlphaX")
        #expect(conflict.theirs?.title == "Alpha (theirs)")
        #expect(store.state.overlayKind == .conflict)
    }

    /// Signing in needs the sign-in client, which this test did not
    /// provide: the flow reaches it, and the test is told.
    @Test func aClientTheTestDidNotProvideFailsTheTest() async throws {
        let reported = Mutex<[String]>([])
        let store = Self.store(vault: FakeVault(), report: { message in reported.withLock { $0.append(message) } })
        try Self.atADemoService(store)
        store.send(.key(.char("s")))
        await store.settle()
        #expect(reported.withLock { $0 } == ["SignInClient.signIn was reached, but the test did not provide it."])
        // And through the default report, the test itself fails.
        let failing = Self.store(vault: FakeVault())
        try Self.atADemoService(failing)
        await withKnownIssue {
            failing.send(.key(.char("s")))
            await failing.settle()
        }
    }
}

/// A finished effect wakes the run loop (it waits for keys with a time-out
/// of up to a second): the inbox calls its hook once per effect, after the
/// action is in, so the loop finds it when it looks.
@Suite struct InboxWakeTests {
    @Test func eachFinishedEffectWakesTheLoopWithItsActionIn() async {
        let woken = Mutex<[Int]>([])
        var state = AppState(width: 80, height: 24, unlock: UnlockForm(hint: ""))
        state.unlock.password = TextField("typed", masked: true)
        let store = Store(state: state)
        let inbox = store.inbox
        inbox.whenFinished { woken.withLock { $0.append(inbox.drainCount) } }
        // Reading the key settings hands back an action (one wake, the action in); with no vault
        // attached, the unlock it starts hands back a refusal (another).
        store.send(.unlock(.submit))
        await store.settle()
        #expect(woken.withLock { $0.first } == 1)
        #expect(woken.withLock { $0.count } >= 2)
        #expect(store.state.unlock.error == "No vault is attached.")
    }
}
