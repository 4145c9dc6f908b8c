import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Everything that can happen to the app. The cases here belong to the app
/// as a whole (keys, resizes, ticks, lists, overlays, quitting); each
/// feature's own actions are one case holding that feature's enum, which
/// only its reducer reads (as TCA scopes a child feature's actions).
public enum AppAction: Sendable, Equatable {
    case key(Key)
    case resize(width: Int, height: Int)
    case tick(Date)
    case moveSelection(Int)
    /// A row clicked in the list in charge.
    case selectRow(ListID, Int)
    case selectFirst
    case selectLast
    case page(Int)
    case showHelp
    case closeOverlay
    case requestQuit          // q: quits unless something needs confirming
    case interrupt            // Ctrl-C: quits, asking first if an upgrade is in flight
    case confirmQuit(Bool)
    case setStatus(String?)
    /// A secret is on the clipboard until then (nil: taken back), for the countdown.
    case clipboardHeld(until: Date?)
    case setCaption(String?)
    case setTitleCard(TitleCard?)
    case setPresenter(Presenter?)
    case switchScreen
    case showRecommendations
    /// L, the idle time, or a demo: drops everything decrypted.
    case lock

    case unlock(UnlockAction)
    case vault(VaultAction)
    case editor(EditorAction)
    case recommendations(RecommendationsAction)
    case upgrade(UpgradeAction)
    case result(ResultAction)
    case webSignIn(WebSignInAction)
    case signUp(SignUpAction)
    case appleID(AppleIDAction)
    case otherWriters(OtherWritersAction)
    case sync(SyncAction)
    case generator(GeneratorAction)
    case files(FilesAction)
    case log(LogAction)
    case palette(PaletteAction)
    case undo(UndoAction)
    case sshApproval(SSHApprovalAction)
}

/// `bulwark ssh-agent` asking, through the open app, before a signature.
public enum SSHApprovalAction: Sendable, Equatable {
    case asked(SSHApprovalQuestion)
    /// The agent stopped waiting (its time ran out, or it ended).
    case withdrawn(UInt64)
    /// The person's answer to the question on screen.
    case answer(Bool)
}

/// The unlock screen and what its key derivation hands back.
public enum UnlockAction: Sendable, Equatable {
    case submit
    case unlocked(SessionSnapshot)
    /// A batch of a large vault's analysis done (more to come while `analysis` is set).
    case analysed(SessionSnapshot)
    case failed(String)
    /// The vault's key derivation settings, read before the unlock starts (nil: unknown).
    case keyDerivationSettingsRead(ScryptParameters?)
    /// The unlock's key derivation began at this time and takes about this long.
    case keyDerivationEstimated(started: Date, seconds: TimeInterval)
    /// `bulwark watch`'s news for the lock screen (the demo's `news` step stands in for the watch).
    case watchNews(String)
}

/// The vault list and the selected entry: search, filter, order, reveal,
/// copy, delete, signing in; and the answer of any write the app made.
public enum VaultAction: Sendable, Equatable {
    case startSearch
    case endSearch(keep: Bool)
    case clearFilter
    case openFilterPicker
    case choosePickerOption
    case cycleOrder
    case toggleReveal
    case copy(CopyField)
    case askDelete
    case confirmDelete(Bool)
    /// From a recommendation to its entry in the vault.
    case openEntry
    case showChangePasswordURL
    case signIn
    case confirmPasskeySignIn
    /// On the sign-in sheet: the other credential, and going on with the one chosen.
    case toggleSignInChoice
    case confirmSignInChoice
    case signedIn(entryID: String, AppSession.SignInResult)
    case openServiceApp
    /// Show an entry in the vault and start its upgrade, as `a` there would.
    case upgradeInVault(entryID: String, UpgradeKind)
    /// A write finished: the vault as it is now, and what to say.
    case updated(SessionSnapshot, banner: Banner?)
    case failed(String)
}

/// The form that adds or edits an entry.
public enum EditorAction: Sendable, Equatable {
    case new
    case edit
    case focus(Int)
    case save
    case cancel
    /// The answer to "discard your changes?": discard (true) or back to the form.
    case discard(Bool)
    case generatePassword
}

/// The Security Recommendations list's own choices.
public enum RecommendationsAction: Sendable, Equatable {
    case askHide
    case confirmHide
    case toggleHidden
    case toggleFixableFirst
    case toggleFixableOnly
    case unhide
}

/// An upgrade on screen: starting it, the step-up, the Messages inbox,
/// the Sign in with Apple and passkey sheets, stopping it.
public enum UpgradeAction: Sendable, Equatable {
    case start(UpgradeKind, UpgradeOrigin)
    /// The answer to "change this at the service?": go on, or send nothing.
    case confirm(Bool)
    /// From inside a service's own app (its session token is the origin).
    case startInApp(UpgradeKind)
    case stepped(UpgradeState, SessionSnapshot)
    case setRelay(String?)
    case submitCode
    case fillCodeFromVault
    case openMessages
    case fillFromMessage
    case resendCode
    case cancel
    /// Esc while the service works: ask the step under way to stop.
    case stop
    case toggleEmail
    case continueSheet
    case savePasskey
    case useVaultPasskey
    case useUSBKey
    case securityKeysFound([String])
}

/// The panel an upgrade leaves, and the password history it opens.
public enum ResultAction: Sendable, Equatable {
    case dismiss
    case openHistory
    case revealHistoryItem
    /// The old password selected made the entry's password again.
    case restoreHistoryItem
}

/// A sign-in through an identity provider's web page.
public enum WebSignInAction: Sendable, Equatable {
    case start
    case toggleEphemeral
    case proceed
    case autoFill
    /// Enter on the login page: what was typed, or AutoFill when nothing was.
    case submitLogin
    /// Tab on the login page: the other field.
    case switchLoginField
    case submitCode
    case fillCode
    case consent(Bool)
    case cancel
    /// The provider's alert for an entry: the session on screen begins.
    case began(entryID: String, title: String, WebAuthenticationSession.Step, SessionSnapshot)
    case stepped(WebAuthenticationSession.Step, SessionSnapshot, autoFill: String?)
}

/// Making a new account with Sign in with Apple.
public enum SignUpAction: Sendable, Equatable {
    case open
    case chooseService
    case sheet(SignInWithAppleSheet?, relay: String?)
    case toggleEmail
    case proceed
    case signedUp(AppSession.SignUpResult)
    case cancel
    /// At a service where the vault holds an account: upgrade that one instead.
    case upgradeExisting
    /// Or make a new account all the same.
    case newAccount
}

/// Demos: a change in the person's Apple ID settings, sent to a service.
public enum AppleIDAction: Sendable, Equatable {
    case event(event: String, entryTitle: String)
    case transferApp(service: String, team: String)
}

/// Another process writing to the vault while the app has it open.
public enum OtherWritersAction: Sendable, Equatable {
    case polled(AppSession.PollResult)
    case editConflict(EditConflict, SessionSnapshot)
    case resolveConflict(ConflictChoice)
    case reviewConflict
}

/// Sync with the other machines.
public enum SyncAction: Sendable, Equatable {
    case now
    case synced(AppSession.SyncResult)
    case settleConflict(ConflictChoice)
    case later
    case conflictSettled(SessionSnapshot?, String, [SyncConflictView])
    /// Enter in the dialog that asks for the master password another machine set.
    case followRekey
    case rekeyFollowed(AppSession.RekeyResult)
    /// Esc in that dialog: the sync waits until the password is given.
    case cancelRekey
}

/// What `p`, `y` and `t` copy.
public enum CopyField: String, Sendable, Equatable {
    case username, password, code
}
