import BulwarkCore
import BulwarkUpgrades
import Foundation

/// Everything that can happen to the app: keys, resizes, ticks, and the
/// results of effects. Keys are mapped to the other cases through keymaps.
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

    // Unlock
    case submitUnlock
    case unlocked(SessionSnapshot)
    /// A batch of a large vault's analysis done (more to come while `analysis` is set).
    case analysed(SessionSnapshot)
    case unlockFailed(String)
    /// The vault's key derivation settings, read before the unlock starts (nil: unknown).
    case keyDerivationSettingsRead(ScryptParameters?)
    /// The unlock's key derivation began at this time and takes about this long.
    case keyDerivationEstimated(started: Date, seconds: TimeInterval)
    case lock

    // Vault
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
    case openEntry
    case newEntry
    case editEntry
    case editorFocus(Int)
    case saveEntry
    case cancelEditor
    /// The answer to "discard your changes?": discard (true) or back to the form.
    case discardEdit(Bool)
    case generatePassword
    case generated(String)
    case updated(SessionSnapshot, banner: Banner?)
    case failed(String)

    // Other processes writing to the vault
    case polled(AppSession.PollResult)
    case editConflict(EditConflict, SessionSnapshot)
    case resolveConflict(ConflictChoice)
    case reviewConflict

    // Recommendations and upgrades
    case startUpgrade(UpgradeKind, UpgradeOrigin)
    case upgradeStepped(UpgradeState, SessionSnapshot)
    case setRelay(String?)
    case submitCode
    case fillCodeFromVault
    case openMessages
    case fillFromMessage
    case resendCode
    case cancelUpgrade
    /// Esc while the service works: ask the step under way to stop.
    case stopUpgrade
    case dismissResult
    case openHistory
    case revealHistoryItem
    case toggleEmail
    case continueSheet
    case savePasskey
    case startWebSignIn
    case toggleEphemeral
    case webContinue
    case webAutoFill
    case webSubmitCode
    case webFillCode
    case webConsent(Bool)
    case webCancel
    case webStepped(WebAuthenticationSession.Step, SessionSnapshot, autoFill: String?)
    case confirmPasskeySignIn
    case useVaultPasskey
    case useUSBKey
    case securityKeysFound([String])
    case showChangePasswordURL
    case askHide
    case confirmHide
    case toggleHidden
    case toggleFixableFirst
    case toggleFixableOnly
    case unhide

    // Signing in, and a service's own app
    case signIn
    case signedIn(entryID: String, AppSession.SignInResult)
    case openServiceApp
    case startInApp(UpgradeKind)

    // Signing up with Apple
    case openSignUp
    case chooseSignUpService
    case signUpSheet(SignInWithAppleSheet?, relay: String?)
    case toggleSignUpEmail
    case continueSignUp
    case signedUp(AppSession.SignUpResult)
    case cancelSignUp

    // Sync with the other machines
    case syncNow
    case synced(AppSession.SyncResult)
    case settleSyncConflict(ConflictChoice)
    case laterSyncConflict
    case syncConflictSettled(SessionSnapshot?, String, [SyncConflictView])

    // Demos: a change in the person's Apple ID settings, sent to a service
    case appleIDEvent(event: String, entryTitle: String)
    case transferApp(service: String, team: String)
}

/// What `p`, `y` and `t` copy.
public enum CopyField: String, Sendable, Equatable {
    case username, password, code
}
