import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The app's link to the vault, the analysis and the services. Effects
/// call it from background tasks; every call takes the lock, so one thing
/// happens at a time, as in a real password manager's core.
public final class AppSession: @unchecked Sendable {  // all state behind `lock`
    public let vaultPath: URL
    /// The services as the world knows them (after any app transfer, from the first unlock on)…
    public private(set) var catalog: ServiceCatalog
    /// …and as the manifests and sites files describe them.
    private let baseCatalog: ServiceCatalog
    private let breaches: BreachCorpus
    private let quirks: QuirksDirectory?
    private let settings: AnalysisSettings
    let clock: @Sendable () -> Date
    private let sleep: @Sendable (Int) -> Void
    /// Whose Apple ID the Sign in with Apple sheet shows: the one given, else the one the services' platform knows.
    private let appleIDOverride: AppleIDAccount?
    var appleID: AppleIDAccount { appleIDOverride ?? world?.appleID ?? AppleIDAccount(email: "", fullName: "") }
    let lock = NSLock()
    /// One sync (or conflict settled) at a time; never held with `lock` across the network.
    let syncLock = NSLock()
    /// The git that sync runs (none: sync says git is missing).
    public var syncGit: Git? = Git.find(mayPrompt: false)
    /// The upgrade's Cancel, reachable without the lock (the running step holds it).
    private let cancellation = HostCancellation()
    var vault: Vault?
    var world: ServiceWorld?
    var analyzer: SecurityAnalyzer?
    private var engine: UpgradeEngine?
    /// A "Log in with IDP" under way, and the entry it is for.
    var webSession: WebAuthenticationSession?
    var webEntryID: String?
    /// Where this machine remembers the vault's newest change (nil in tests
    /// and the throwaway demo), and the backups to take.
    private let freshness: FreshnessRecord?
    private let backupPolicy: BackupPolicy
    /// Where USB security keys are found (libfido2 in the app).
    public var securityKeyProvider: SecurityKeyProvider = NoSecurityKeys()
    /// Work the vault waits for before its first unlock (the demo writes
    /// its vault while the unlock screen is already up); its error is the unlock's.
    public var preparation: (@Sendable () throws -> Void)?
    /// What the mock services draw at random (seeded for a recorded demo).
    public var mockDraws = MockDraws.system

    public init(vaultPath: URL, catalog: ServiceCatalog, breaches: BreachCorpus, quirks: QuirksDirectory? = nil,
                settings: AnalysisSettings = AnalysisSettings(), appleID: AppleIDAccount? = nil,
                freshness: FreshnessRecord? = nil, backupPolicy: BackupPolicy = .standard,
                clock: @escaping @Sendable () -> Date = { Date() },
                sleep: @escaping @Sendable (Int) -> Void = { ms in if ms > 0 { usleep(UInt32(ms) * 1000) } }) {
        self.vaultPath = vaultPath
        self.catalog = catalog
        baseCatalog = catalog
        self.breaches = breaches
        self.quirks = quirks
        self.settings = settings
        appleIDOverride = appleID
        self.freshness = freshness
        self.backupPolicy = backupPolicy
        self.clock = clock
        self.sleep = sleep
        // The app's session is made before its threads start: malloc's arenas limited now hold (see FreeMemory).
        FreeMemory.limitArenas()
    }

    public var vaultExists: Bool { FileManager.default.fileExists(atPath: vaultPath.path) }

    /// `bulwark watch`'s list, kept up to date at each unlock of a watched
    /// vault (with the corpus files that a new password is checked against).
    public var watch: (store: WatchStore, corpora: [String])?

    // MARK: Lock

    public func unlock(masterPassword: String) throws -> SessionSnapshot {
        try unlock(with: .masterPassword(masterPassword))
    }

    /// With the master password, or the key `bulwark agent` holds (`bulwark open` after `bulwark unlock`).
    public func unlock(with credential: VaultCredential) throws -> SessionSnapshot {
        try lock.withLock {
            try preparation?()
            let opened = try Vault.open(at: vaultPath, with: credential, freshness: freshness)
            var snapshot = try attach(opened)
            snapshot.rollback = opened.rollback
            if let watch, watch.store.isWatched(vaultPath) { watch.store.refresh(opened, corpora: watch.corpora) }
            return snapshot
        }
    }

    /// The settings unlocking (or creating) will derive its key with, for
    /// the unlock screen's estimate; nil when the vault cannot be read yet.
    ///
    /// Read under the session's lock, so never beside `Vault.open`: its
    /// length check opens and closes the file outside SQLite, and closing
    /// any descriptor of a file drops every POSIX lock the process holds on
    /// it, this connection's included. A connection opened then would hold
    /// no lock the system knows of, and another process closing the vault
    /// last would checkpoint and remove the log under it (the damage a
    /// many-writers test found). The app asks before it starts the unlock,
    /// which holds the lock for the whole derivation.
    public func keyDerivationParameters(creating: Bool) -> ScryptParameters? {
        creating ? .standard : lock.withLock { knownParameters ?? (try? VaultFileCheck.parameters(at: vaultPath)) }
    }

    /// The key derivation settings of the vault last opened (no file read for the next estimate).
    private var knownParameters: ScryptParameters?

    public func create(masterPassword: String, parameters: ScryptParameters = .standard) throws -> SessionSnapshot {
        try lock.withLock {
            try attach(try Vault.create(at: vaultPath, masterPassword: masterPassword, parameters: parameters, freshness: freshness))
        }
    }

    private func attach(_ opened: Vault) throws -> SessionSnapshot {
        opened.backupPolicy = backupPolicy
        // The app's changes: neither the log's folding nor a backup's copy between the key and the frame.
        try? opened.foldLogWhenIdle()
        opened.backupsAfterCommit = true
        knownParameters = opened.parameters
        // A vault that knows no service (a person's own, with no --services) gets no
        // service world at all: no mock state is made, in a temporary place or beside it.
        let knowsServices = !(baseCatalog.manifests.isEmpty && baseCatalog.providers.isEmpty)
        let world = knowsServices ? try ServiceWorld.forVault(vaultPath, entries: opened.entries, catalog: baseCatalog, clock: clock, sleep: sleep) : nil
        world?.draws = mockDraws
        catalog = world?.catalog ?? baseCatalog
        var notices: [String] = []
        if let world {
            try Reconciler.reconcile(vault: opened, world: world)
            notices = try AppleIDLifecycle.refresh(vault: opened, world: world).map(\.sentence)
        }
        let analyzer = SecurityAnalyzer(settings: settings, breaches: breaches, sharing: catalog.sharing(quirks), services: catalog,
                                        memo: opened.strengthMemo(), clock: clock)
        vault = opened
        self.world = world
        self.analyzer = analyzer
        shown = nil
        engine = world.map { UpgradeEngine(vault: opened, world: $0, appleID: appleIDOverride, quirks: quirks, cancellation: cancellation) }
        // A large vault is shown at once and analysed in batches behind it
        // (`analyseNextBatch`); a small one before its first frame.
        if opened.entries.count >= analyseInBackgroundFrom {
            pendingAnalysis = PendingAnalysis(entries: opened.entries)
            analyzer.reserve(opened.entries.count)
            var snapshot = makeSnapshot()
            snapshot.accountNotices = notices
            snapshot.syncLinked = isLinkedForSync
            return snapshot
        }
        try analyzer.load(opened.entries)
        opened.keepStrengthMemo(of: analyzer)
        var snapshot = makeSnapshot()
        snapshot.accountNotices = notices
        snapshot.syncLinked = isLinkedForSync
        snapshot.newlyBreached = takeNewlyBreached(snapshot.report)
        return snapshot
    }

    // MARK: Analysis in the background (see Session+Analysis.swift)

    /// Vaults with at least this many entries are analysed after their first frame.
    public var analyseInBackgroundFrom = 20_000
    /// Entries analysed per batch: each batch is one step of the effect, so
    /// edits made meanwhile go between batches.
    public var analysisBatch = 25_000
    /// Changed estimates after which the memo is kept (see `refresh`).
    var memoKeptAfterChanges = 256
    var pendingAnalysis: PendingAnalysis?

    /// Moves the services' state beside the vault (from a temporary world,
    /// which holds nothing of an account yet). Called with the lock held.
    func keepWorldBesideVault(_ vault: Vault) throws -> ServiceWorld {
        let kept = try ServiceWorld(directory: ServiceWorld.directory(besideVault: vaultPath), catalog: baseCatalog, clock: clock, sleep: sleep)
        kept.draws = mockDraws
        world = kept
        catalog = kept.catalog
        engine = UpgradeEngine(vault: vault, world: kept, appleID: appleIDOverride, quirks: quirks, cancellation: cancellation)
        return kept
    }

    /// Drops the decrypted vault from memory.
    public func lockVault() {
        lock.withLock {
            if let vault, let analyzer, pendingAnalysis == nil { vault.keepStrengthMemo(of: analyzer) }
            vault?.lock()
            vault = nil
            analyzer = nil
            shown = nil
            changedSinceShown = []
            pendingAnalysis = nil
            engine = nil
            webSession = nil
            webEntryID = nil
            Self.removeOpenedCopies()  // the files opened from the vault go with its key
        }
    }

    public func snapshot() -> SessionSnapshot { lock.withLock { makeSnapshot() } }

    /// The snapshot made last, and the entries changed since: the next one
    /// is that one with those entries replaced, so a change at 100,000
    /// entries costs what it changes (see SessionSnapshot).
    private var shown: SessionSnapshot?
    private var changedSinceShown = Set<String>()

    func makeSnapshot() -> SessionSnapshot {
        guard let vault, let analyzer else { return SessionSnapshot() }
        var snapshot: SessionSnapshot
        if var last = shown, changedSinceShown.count <= 256 {
            for id in changedSinceShown { last.replace(entry: id, with: vault.entry(id: id)) }
            last.setRows(vault.rows)  // shared, with the new row versions: no copy
            snapshot = last
        } else {
            snapshot = wholeSnapshot(of: vault)
        }
        // A write that went round `refresh` would show here; the whole vault is read again then.
        if snapshot.entries.count != vault.entries.count { snapshot = wholeSnapshot(of: vault) }
        snapshot.report = analyzer.report()
        if snapshot.catalog.manifests != catalog.manifests {
            snapshot.requirements = SiteRequirements(quirks: quirks, services: catalog)
            snapshot.catalog = catalog
        }
        snapshot.messages = (try? world?.inbox.messages()) ?? []
        snapshot.analysis = pendingAnalysis?.progress
        changedSinceShown = []
        shown = snapshot
        return snapshot
    }

    /// Every entry read into a new snapshot (at unlock, and after many
    /// changes). Its rows by id are the vault's own, shared, not copies.
    func wholeSnapshot(of vault: Vault) -> SessionSnapshot {
        var snapshot = SessionSnapshot()
        snapshot.setEntries(ChunkedArray(vault.entries), rows: vault.rows)  // the vault keeps them by title (any case), then id
        snapshot.requirements = SiteRequirements(quirks: quirks, services: catalog)
        snapshot.catalog = catalog
        return snapshot
    }

    /// Re-reads changed entries into the analysis (incrementally): these,
    /// and whatever other processes changed that the vault read in.
    func refresh(_ ids: Set<String>) {
        guard let vault, let analyzer else { return }
        let all = ids.union(vault.takeExternalChanges()?.ids ?? [])
        for id in all {
            if let entry = vault.entry(id: id) { try? analyzer.update(entry) } else { analyzer.remove(id: id) }
        }
        changedSinceShown.formUnion(all)
        pendingAnalysis?.touched.formUnion(all)
        // The memo is a cache of 100k estimates, sealed: kept after many
        // changes and when the vault locks, not after each edit; and not
        // while the analysis is under way, when it would lose the estimates
        // of the entries not yet analysed (and those batches would measure
        // them all again).
        if pendingAnalysis == nil, analyzer.unkeptEstimates >= memoKeptAfterChanges { vault.keepStrengthMemo(of: analyzer) }
    }

    // MARK: Entries

    /// Runs a write, then re-analyses what it and any other process
    /// changed, whether the write succeeded or not (a refused write has
    /// still read the other process's changes).
    func settling(_ ids: Set<String>, _ write: () throws -> Void) throws {
        do { try write() } catch {
            refresh(ids)
            throw error
        }
        refresh(ids)
    }

    /// Saves an edit made from row version `base` (nil: a new entry). A
    /// row that moved on throws `VaultError.conflict`; the vault has then
    /// read the other process's version, and the analysis follows it.
    public func save(_ entry: Entry, basedOn base: Int64?) throws -> SessionSnapshot {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            try settling([entry.id]) { try vault.save(entry, basedOn: base) }
            return makeSnapshot()
        }
    }

    /// An edit from the form: saved as `save` does, and a new password
    /// given to the account's other entries too. Returns their titles.
    public func saveEdit(_ entry: Entry, basedOn base: Int64?) throws -> (SessionSnapshot, alsoUpdated: [String]) {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            let before = vault.entry(id: entry.id)?.password
            let manifest = catalog.manifest(forHost: entry.site), sharing = catalog.sharing(quirks)
            // The edit and the same account's other entries it reaches: one transaction.
            var also: [Entry] = []
            try settling([entry.id]) {
                also = try vault.transaction { change in
                    try change.save(entry, basedOn: base)
                    guard before != nil, entry.password != before else { return [] }
                    return try AccountEntries.sharePassword(of: entry, in: change, manifest: manifest, sharing: sharing)
                }
            }
            if !also.isEmpty { refresh(Set(also.map(\.id))) }
            return (makeSnapshot(), also.map(\.title))
        }
    }

    public func delete(id: String, basedOn base: Int64?) throws -> SessionSnapshot {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            try settling([id]) { try vault.remove(id: id, basedOn: base) }
            return makeSnapshot()
        }
    }

    /// Hides an entry's recommendation (optionally until a day), or shows it again.
    public func setHidden(id: String, _ hidden: Bool, until: Date? = nil) throws -> SessionSnapshot {
        try lock.withLock {
            guard let vault else { throw VaultError.locked }
            try settling([id]) {
                try vault.update(id) { entry in
                    entry.hiddenFromRecommendations = hidden
                    entry.hiddenUntil = hidden ? until : nil
                }
            }
            return makeSnapshot()
        }
    }

    /// A sample of the person's choice for a site's rules (quirks, then manifests), with its bits and what the rules changed.
    public func generate(_ choice: GeneratorChoice, forSite site: String) -> GeneratedSample? {
        let text = site.isEmpty ? nil : SiteRequirements(quirks: quirks, services: catalog).passwordRules(for: Domain.normalize(site))?.rules
        let rules = text.flatMap { try? PasswordRules.parse($0) }
        guard var generator = try? SecretGenerator(choice: choice, siteRules: rules) else { return nil }
        return GeneratedSample(value: generator.next(), bits: generator.entropyBits, summary: generator.summary, notes: generator.notes)
    }

    // MARK: Upgrades

    static let noServices = "This vault knows no services: one-key fixes act on the services given with --services (bulwark demo has its own)."


    private func step(_ body: (UpgradeEngine) -> UpgradeState) -> UpgradeStep {
        lock.withLock {
            guard let engine else {
                return (.failed(reason: vault == nil ? "The vault is locked." : Self.noServices), makeSnapshot())
            }
            let state = body(engine)
            // The upgraded entry and every other entry of its account.
            var changed = Set(engine.request.map { [$0.entryID] } ?? [])
            if case .completed(let outcome) = state { changed.formUnion(outcome.alsoUpdatedIDs) }
            if !changed.isEmpty { refresh(changed) }
            return (state, makeSnapshot())
        }
    }

    public func startUpgrade(_ request: UpgradeRequest) -> UpgradeStep { step { $0.start(request) } }
    public func submitCode(_ code: String) -> UpgradeStep { step { $0.submitCode(code) } }
    public func resendCode() -> UpgradeStep { step { $0.resendCode() } }
    public func chooseEmail(hide: Bool) -> UpgradeStep { step { $0.chooseEmail(hide: hide) } }
    public func continueWithApple() -> UpgradeStep { step { $0.continueWithApple() } }
    public func cancelUpgrade() -> UpgradeStep { step { $0.cancel() } }
    public func savePasskey() -> UpgradeStep { step { $0.savePasskey() } }
    public func useVaultPasskey() -> UpgradeStep { step { $0.useVaultPasskey() } }

    /// The USB security keys plugged in now, by name.
    public func securityKeys() -> [String] { securityKeyProvider.devices().map(\.name) }

    /// Answers a security-key step-up with a USB key (the person touches it).
    public func useSecurityKey(_ name: String) -> UpgradeStep {
        step { engine in
            guard case .stepUp(let screen)? = engine.state, let text = screen.securityKeyOptions,
                  let device = securityKeyProvider.devices().first(where: { $0.name == name }) else { return engine.state ?? .cancelled }
            do {
                let options = try RequestOptions.parse(Data(text.utf8))
                return engine.submitAssertion(try device.assert(options, origin: "https://\(screen.domain)"))
            } catch {
                return engine.refuseSecurityKey("The USB key did not answer: \(error).")
            }
        }
    }
    /// Asks the step under way to stop (it answers through its own effect).
    public func requestCancel() { cancellation.request() }

    /// The relay address the sheet would show for Hide My Email.
    public func relayPreview(forEntry id: String) -> String? {
        lock.withLock {
            guard let vault, let world, let entry = vault.entry(id: id),
                  let manifest = catalog.manifest(forHost: entry.site) else { return nil }
            return try? world.identityProvider.relayAddress(appleID: appleID.email, team: manifest.teamID)
        }
    }

    // MARK: Signing in

    public enum SignInResult: Sendable, Equatable {
        case accepted(sessionToken: String)
        case refused(String)
    }

    public func signIn(id: String) -> SignInResult {
        lock.withLock {
            guard let vault, let entry = vault.entry(id: id) else { return .refused("the vault is locked") }
            guard let world else { return .refused(Self.noServices) }
            switch (try? SignInSimulator.signIn(entry, world: world, appleID: appleID)) ?? .refused("the service did not answer") {
            case .accepted(let token): return .accepted(sessionToken: token)
            case .refused(let reason): return .refused(reason)
            }
        }
    }
}
