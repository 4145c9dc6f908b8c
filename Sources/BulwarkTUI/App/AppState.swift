import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The two main views; Tab switches, `r` jumps to Security Recommendations.
public enum Screen: String, Sendable, Hashable {
    case vault
    case recommendations
}

/// Signing up at a service with Apple: the services that offer it, then the
/// Sign in with Apple sheet for the one chosen.
public struct SignUpUI: Sendable, Equatable {
    public struct Service: Sendable, Equatable {
        public let id: String
        public let name: String
        public let domain: String
    }

    public var services: [Service]
    public var list = ListScroll()
    /// The accounts the vault holds at the chosen service already (id, as
    /// said): a new one would be a duplicate, so their upgrade is offered first.
    public var existing: [Existing]?

    public struct Existing: Sendable, Equatable {
        public let id: String
        public let said: String
    }
    /// A new account was asked for, duplicate or not.
    public var newAccount = false
    public var sheet: SignInWithAppleSheet?
    public var relay: String?
    public var working = false

    public var chosen: Service? { services.indices.contains(list.selected) ? services[list.selected] : nil }
}

/// An edit that met another process's change to the same entry. A class:
/// two entries inline would make every copy of `AppState` half a kilobyte
/// larger, for a dialog that is rarely open.
public final class EditConflict: Sendable, Equatable {
    /// The person's edit, as it would have been saved.
    public let mine: Entry
    /// The entry as the other process left it; nil when it deleted it.
    public let theirs: Entry?

    public init(mine: Entry, theirs: Entry?) {
        self.mine = mine
        self.theirs = theirs
    }

    public static func == (a: EditConflict, b: EditConflict) -> Bool { a.mine == b.mine && a.theirs == b.theirs }
}

/// A password shown on purpose, for one entry.
public struct Reveal: Sendable, Equatable {
    public let id: String
    public let since: Date
}

/// The unlock screen's form.
public struct UnlockForm: Sendable, Equatable {
    public var password = TextField(masked: true)
    public var repeated = TextField(masked: true)
    /// First run: no vault yet, so the password is typed twice.
    public var creating = false
    public var onRepeat = false
    public var error: String?
    public var busy = false
    /// Shown under the field (the demo's password).
    public var hint: String?
    /// `bulwark watch`'s news, said once on the lock screen.
    public var news: String?
    /// A weak new password the person was told about: Enter again with it uses it.
    public var warnedWeak: String?
    /// While the key is derived: when it began and about how long it takes.
    public var keyDerivation: KeyDerivationProgress?

    public init(creating: Bool = false, hint: String? = nil) {
        self.creating = creating
        self.hint = hint
    }
}

/// The unlock's key derivation, as far as it can be told: OpenSSL's scrypt
/// reports nothing while it runs, so the share is the time gone over the
/// time a small derivation predicted, held below 99% until it ends.
public struct KeyDerivationProgress: Sendable, Equatable {
    public var started: Date
    public var expected: TimeInterval

    public init(started: Date, expected: TimeInterval) {
        self.started = started
        self.expected = expected
    }

    public func fraction(at now: Date) -> Double {
        guard expected > 0 else { return 0.99 }
        return min(max(now.timeIntervalSince(started) / expected, 0), 0.99)
    }
}

/// An upgrade on screen: its request, the engine's state, the code field.
public struct UpgradeUI: Sendable, Equatable {
    public var request: UpgradeRequest
    public var title: String
    public var state: UpgradeState
    public var code = TextField(placeholder: "6 digits")
    /// The relay address the sheet shows for Hide My Email.
    public var relay: String?
    /// Esc was pressed while the service worked: the step under way is
    /// asked to stop, and whatever state it reaches next is cancelled.
    public var cancelling = false
    /// The account's findings when the upgrade began, for the result.
    public var before: Recommendation?
    /// USB security keys libfido2 found for a security-key step-up (nil: still looking).
    public var securityKeys: [String]?

    public init(request: UpgradeRequest, title: String, state: UpgradeState) {
        self.request = request
        self.title = title
        self.state = state
    }

    /// The service is working (the spinner turns).
    public var isWorking: Bool {
        switch state {
        case .authorising, .verifying, .exchanging: true
        default: false
        }
    }
}

/// The web authentication session on screen: the alert, then the
/// provider's pages in bulwark's browser frame.
public struct WebSignInUI: Sendable, Equatable {
    public var entryID: String
    public var title: String
    public var step: WebAuthenticationSession.Step
    /// `prefersEphemeralWebBrowserSession`: no cookie kept or used.
    public var ephemeral = false
    public var code = TextField(placeholder: "6 digits")
    /// What AutoFill offers on the login page (the vault's account for the provider's domain).
    public var autoFill: String?
    /// The login page's form, for an account the vault does not hold (Tab moves between them).
    public var email = TextField(placeholder: "you@example")
    public var password = TextField(masked: true)
    public var passwordFocused = false
    /// The provider's login domain, once the alert named it.
    public var providerDomain: String?

    public init(entryID: String, title: String, step: WebAuthenticationSession.Step) {
        self.entryID = entryID
        self.title = title
        self.step = step
    }
}

/// A result line shown until the next key.
public struct Banner: Sendable, Equatable {
    public var ok: Bool
    public var text: String
    /// What to say when the whole text does not fit the status row.
    public var short: String?
    public init(ok: Bool, text: String, short: String? = nil) {
        self.ok = ok
        self.text = text
        self.short = short
    }
}

/// What the vault list shows: a search, a category, an order.
public struct VaultFilter: Sendable, Equatable {
    public enum Order: String, Sendable, CaseIterable { case title, site, changed }
    public var query = ""
    public var category: AccountCategory?
    public var tag: String?
    public var order: Order = .title
    public init() {}
}

/// Text the run loop copies to the clipboard (`Effect.copy`).
public struct ClipboardRequest: Sendable, Equatable {
    public let text: String
    public let label: String
    /// Seconds before the run loop clears it (sooner on lock or quit).
    public var clearAfter: TimeInterval = 30
    /// What it is, for the status line: "the password of Shiny".
    public var subject: String = "it"
}

/// Everything the screen shows is derived from this value; `render` is a
/// pure function of it.
public struct AppState: Sendable {
    public var width: Int
    public var height: Int
    public var unlocked: Bool
    public var unlock: UnlockForm
    public var screen: Screen = .vault
    /// The dialog on top, holding its own state: closing it drops that state.
    public var overlay: Overlay?
    /// Sync with the other machines (off when the vault has no remote).
    public var sync = SyncUI()
    /// The SSH agent's questions, oldest first: the first is on screen, over everything.
    public var sshApprovals: [SSHApprovalQuestion] = []
    public var snapshot = SessionSnapshot()
    public var filter = VaultFilter()
    /// Indices into `snapshot.entries` that the filter lets through, in order.
    public var visible: [Int] = []
    /// The searches that led to `visible` (see AppState+Search).
    var searchTrail: [SearchStep] = []
    public var list = ListScroll()
    public var recommendationList = ListScroll()
    /// The hidden recommendations are listed too (after Other).
    public var showHidden = false
    /// Recommendations one key can fix come first in each section, or alone.
    public var fixableFirst = false
    public var fixableOnly = false
    /// The list's order while either is on (see AppState+Fixable).
    public internal(set) var fixableOrder: FixableOrder?
    public var messageList = ListScroll()
    /// The rows each list showed in the last frame (see AppState+Layout).
    public internal(set) var listRows: [ListID: Int] = [:]
    /// Non-nil while `/` search has the keyboard.
    public var search: TextField?
    /// The one entry whose password is shown, and since when: moving off
    /// it, locking, or `revealFor` seconds hide it again.
    public var reveal: Reveal?
    public var revealFor: TimeInterval = 30
    /// Ask before an upgrade tells a service anything (`confirm-service-changes`).
    public var confirmServiceChanges = true
    /// How long a copied secret stays on the clipboard.
    public var clipboardFor: TimeInterval = 30
    /// The generator's choices (the config's `generator`), and the config file they are remembered in (nil: not remembered).
    public var generatorChoice = GeneratorChoice()
    public var configPath: URL?
    /// Set while a demo plays itself: the footer shows the presenter's keys.
    public var presenter: Presenter?
    /// Whether the selected entry's password is shown.
    public var revealed: Bool { reveal != nil && reveal?.id == currentEntry?.id }
    public var upgrade: UpgradeUI?
    /// "Log in with IDP": the web authentication session's sheet.
    public var webSignIn: WebSignInUI?
    /// Unlocked after breach news: the selection goes to the worst newly
    /// breached account once the analysis names them (then cleared).
    public var landsOnBreachNews = false

    public var banner: Banner? {
        didSet { if let banner, banner != oldValue { logged(banner.text, ok: banner.ok) } }
    }
    public var status: String? {
        didSet { if let status, status != oldValue { logged(status, ok: nil) } }
    }
    /// Every message shown this session (`M` opens them), oldest first.
    public var log: [LogLine] = []
    /// The app's own changes, newest last, that `z` takes back; and the one being written.
    public var undoSteps: [UndoStep] = []
    var pendingUndo: UndoStep?
    /// The entry a sign-in or a service's app screen is about.
    public var focusEntryID: String?
    public var appSession: String?
    /// When the secret on the clipboard is taken back: the status line counts down.
    public var clipboardClearsAt: Date?
    public var now: Date
    public var spinner = 0
    /// The lock state as the status line shows it.
    public var lockLabel: String
    /// An effect other than an upgrade is running (unlock, a save).
    public var busy = false
    /// The last key's time, and the idle time after which the vault locks.
    public var lastInput: Date?
    public var lockAfter: TimeInterval = 300
    /// The add or edit form, while open.
    public var editor: EntryEditor?
    /// A demo scenario's caption, shown in a banner while it plays.
    public var caption: String?
    /// The tour's title card, over everything while it is up.
    public var titleCard: TitleCard?
    /// A look for other processes' changes is under way.
    public var polling = false

    public init(width: Int = 80, height: Int = 24, unlocked: Bool = false, unlock: UnlockForm = UnlockForm(),
                snapshot: SessionSnapshot = SessionSnapshot(), lockLabel: String = "unlocked", now: Date = Date()) {
        self.width = width
        self.height = height
        self.unlocked = unlocked
        self.unlock = unlock
        self.lockLabel = lockLabel
        self.now = now
        apply(snapshot)
    }

    /// Takes a new snapshot, keeping the selection on the same entry.
    public mutating func apply(_ new: SessionSnapshot) {
        let selectedID = selectedEntry?.id
        let selectedRecommendation = selectedRecommendation?.id
        snapshot = new
        refilter()
        if let selectedID, let position = snapshot.index(ofEntry: selectedID), let index = visible.firstIndex(of: position) {
            list.select(index, count: visible.count)
        } else {
            list.select(min(list.selected, max(0, visible.count - 1)), count: visible.count)
        }
        refreshFixableOrder()
        let count = shownRecommendationCount
        if let selectedRecommendation, let index = shownPosition(ofRecommendation: selectedRecommendation) {
            recommendationList.select(index, count: count)
        } else {
            recommendationList.select(min(recommendationList.selected, max(0, count - 1)), count: count)
        }
    }

    public var selectedEntry: Entry? {
        visible.indices.contains(list.selected) ? snapshot.entries[visible[list.selected]] : nil
    }

    public var selectedRecommendation: Recommendation? { shownRecommendation(at: recommendationList.selected) }

    /// How many the list shows, and the one at a position, without joining
    /// the visible and hidden lists (the screens ask on every frame).
    public var shownRecommendationCount: Int {
        fixableOrder?.positions.count ?? snapshot.report.recommendations.count + (showHidden ? snapshot.report.hidden.count : 0)
    }

    public func shownRecommendation(at index: Int) -> Recommendation? {
        if let order = fixableOrder {
            return order.positions.indices.contains(index) ? ranked(at: order.positions[index]) : nil
        }
        return ranked(at: index)
    }

    /// A position in the ranked list: the recommendations, then the hidden ones when shown.
    func ranked(at index: Int) -> Recommendation? {
        let report = snapshot.report
        if report.recommendations.indices.contains(index) { return report.recommendations[index] }
        let hiddenIndex = index - report.recommendations.count
        return showHidden && report.hidden.indices.contains(hiddenIndex) ? report.hidden[hiddenIndex] : nil
    }

    /// Where an entry's recommendation is in the list as shown.
    func shownPosition(ofRecommendation id: String) -> Int? {
        guard let ranked = snapshot.report.rankedPosition(ofEntry: id) else { return nil }
        if let order = fixableOrder { return order.positions.firstIndex(of: ranked) }
        return ranked < snapshot.report.recommendations.count || showHidden ? ranked : nil
    }

    /// The recommendations the list shows: ranked, then the hidden ones when asked for.
    public var shownRecommendations: [Recommendation] {
        if let order = fixableOrder { return order.positions.compactMap(ranked(at:)) }
        return showHidden ? Array(snapshot.report.recommendations) + Array(snapshot.report.hidden) : Array(snapshot.report.recommendations)
    }

    public func entry(id: String?) -> Entry? { id.flatMap(snapshot.entry(id:)) }

    /// Whether an upgrade is offered for an entry, and if not, why.
    public func offer(_ kind: UpgradeKind, for entry: Entry) -> Availability { snapshot.catalog.availability(kind, for: entry) }

    /// Whether `s` asks first: the entry has a password and its service
    /// would take Sign in with Apple instead (WWDC19: one request for both).
    public func offersSignInChoice(for entry: Entry) -> Bool {
        entry.password != nil && entry.signInWithApple == nil && offer(.signInWithApple, for: entry).reason == nil
    }

    /// The RP ID of the entry's service when the entry holds a passkey for it.
    public func passkeyRelyingParty(for entry: Entry) -> String? {
        guard let rpID = snapshot.catalog.passkeyRelyingParty(for: entry.site) else { return nil }
        return entry.passkeys.contains { Domain.normalize($0.rpID) == rpID } ? rpID : nil
    }

    /// Where to change an entry's password by hand; nil without a website.
    public func changePasswordURL(for entry: Entry) -> String? {
        entry.site.isEmpty ? nil : snapshot.requirements.changePasswordURL(for: entry.site).url
    }

    /// The entry the keys act on: the recommendation's on that screen.
    public var currentEntry: Entry? {
        screen == .recommendations ? entry(id: selectedRecommendation?.id) : selectedEntry
    }

    /// The smallest window the app draws into; below it, a notice.
    public static let minimumWidth = 60
    public static let minimumHeight = 16
    public var isTooSmall: Bool { width < Self.minimumWidth || height < Self.minimumHeight }

    /// True when a text field owns the keyboard, so `q` types a letter.
    public var textFieldFocused: Bool {
        !unlocked || search != nil || isTyping || (editor != nil && overlayKind != .confirmDiscard)
    }

    /// Set while an upgrade talks to a service: quitting then asks first.
    public var upgradeInFlight: Bool {
        guard let state = upgrade?.state else { return false }
        return !state.isFinished
    }

    /// The service is working (the spinner turns).
    public var upgradeWorking: Bool { upgrade?.isWorking == true }
}
