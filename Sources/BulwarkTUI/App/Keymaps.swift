import BulwarkCore
import BulwarkUpgrades

/// The key tables, one per screen and dialog. Built from the state so that
/// a binding can say why it is disabled right now.
public enum Keymaps {
    typealias B = KeyBinding<AppAction>

    /// Keys that work on both main views.
    static func global(_ state: AppState) -> [B] {
        // `r` jumps to the recommendations from elsewhere: on them it has nothing to do.
        let jump = state.screen == .recommendations ? [] : [B([.char("r")], .showRecommendations, help: "Jump to Security Recommendations")]
        return [
            B([.tab], .switchScreen, help: state.screen == .vault ? "Security Recommendations" : "Back to the vault",
              hint: state.screen == .vault ? "recommendations" : "vault"),
        ] + jump + [
            B([.char("L")], .lock, help: "Lock the vault"),
            B([.char("M")], .log(.open), help: "The message log"),
            B([.char(":"), .ctrl("p")], .palette(.open), help: "All actions, filtered as you type"),
            B([.char("S")], .sync(.now), help: "Sync with the other machines now",
              disabledReason: state.sync.phase == .off ? "The vault has no sync remote: bulwark sync init REMOTE links one" : nil),
            B([.char("?")], .showHelp, help: "Show this help", hint: "help"),
            B([.char("q")], .requestQuit, help: "Quit bulwark", hint: "quit"),
            B([.ctrl("c")], .interrupt, help: "Quit (asks first while an upgrade runs)"),
        ]
    }

    /// Sign-in and a service's app are simulated only for the services
    /// bulwark knows (the demo's, or `--services`): elsewhere nothing is contacted.
    static func noService(_ state: AppState, _ entry: Entry?, _ what: String) -> String? {
        guard let entry, !entry.site.isEmpty, state.snapshot.catalog.manifest(forHost: entry.site) == nil else { return nil }
        return "bulwark has no \(what) for \(entry.site)"
    }

    static func movement(_ count: Int, empty: String) -> [B] {
        let off = count == 0 ? empty : nil
        return [
            B([.char("k"), .up], .moveSelection(-1), help: "Move up", hint: "move", hintKey: "↑↓", disabledReason: off),
            B([.char("j"), .down], .moveSelection(1), help: "Move down", disabledReason: off),
            B([.char("g"), .home], .selectFirst, help: "First", disabledReason: off),
            B([.char("G"), .end], .selectLast, help: "Last", disabledReason: off),
            B([.pageUp], .page(-1), help: "Page up", disabledReason: off),
            B([.pageDown], .page(1), help: "Page down", disabledReason: off),
        ]
    }

    /// Upgrade keys for an entry: off with the reason when not offered.
    static func upgrades(_ state: AppState, _ entry: Entry?, origin: UpgradeOrigin) -> [B] {
        func reason(_ kind: UpgradeKind) -> String? {
            guard let entry else { return "Nothing is selected" }
            return state.offer(kind, for: entry).reason.map(\.sentenceCased)
        }
        let bindings: [UpgradeKind: B] = [
            .strongPassword: B([.char("u")], .upgrade(.start(.strongPassword, origin)), help: "Upgrade to a strong password", hint: "upgrade",
                               disabledReason: reason(.strongPassword)),
            .signInWithApple: B([.char("a")], .upgrade(.start(.signInWithApple, origin)), help: "Use Sign in with Apple", hint: "Sign in with Apple",
                                disabledReason: reason(.signInWithApple)),
            .passkey: B([.char("P")], .upgrade(.start(.passkey, origin)), help: "Upgrade to a passkey", hint: "passkey",
                        disabledReason: reason(.passkey)),
        ]
        // A passkey, where the service takes one, is the first fix offered.
        let passkeyFirst = bindings[.passkey]?.disabledReason == nil
        return (passkeyFirst ? UpgradeKind.preference : [.strongPassword, .signInWithApple, .passkey]).compactMap { bindings[$0] }
    }

    public static func vault(_ state: AppState) -> Keymap<AppAction> {
        let entry = state.selectedEntry
        let none = entry == nil ? "Nothing is selected" : nil
        let noSite = entry.map { state.changePasswordURL(for: $0) == nil ? "The entry has no website" : nil } ?? none
        return Keymap("Vault", movement(state.visible.count, empty: "The list is empty") + [
            B([.char("/")], .vault(.startSearch), help: "Search (the last query selected: typing replaces it)", hint: "search"),
            B([.escape], .vault(.clearFilter), help: "Clear the kept search and filter", hint: "clear filter",
              disabledReason: state.filter.query.isEmpty && state.filter.category == nil && state.filter.tag == nil ? "No search or filter is kept" : nil),
            B([.char("f")], .vault(.openFilterPicker), help: "Filter by a category or a tag (a list to choose from)", hint: "filter"),
            B([.char("o")], .vault(.cycleOrder), help: "Sort by title, site or age (cycles)"),
            B([.char("v")], .vault(.toggleReveal), help: state.revealed ? "Hide the password" : "Reveal the password", hint: state.revealed ? "hide" : "reveal",
              disabledReason: entry.map { $0.password == nil ? "The account has no password" : nil } ?? none),
            B([.char("p")], .vault(.copy(.password)), help: "Copy the password", disabledReason: entry.map { $0.password == nil ? "The account has no password" : nil } ?? none),
            B([.char("y")], .vault(.copy(.username)), help: "Copy the username", disabledReason: none),
            B([.char("t")], .vault(.copy(.code)), help: "Copy the verification code", disabledReason: entry.map { $0.totpURI == nil ? "The entry has no TOTP" : nil } ?? none),
        ] + upgrades(state, entry, origin: .entry) + [
            B([.char("w")], .vault(.showChangePasswordURL), help: "Copy the change-password URL", disabledReason: noSite),
            B([.char("s")], .vault(.signIn), help: "Sign in to the service", hint: "sign in", disabledReason: noSite ?? noService(state, entry, "sign-in")),
            B([.char("A")], .vault(.openServiceApp), help: "Open the service's app (account settings)", disabledReason: noSite ?? noService(state, entry, "app")),
            B([.char("l")], .webSignIn(.start), help: "Log in through the identity provider the service takes",
              disabledReason: noSite ?? entry.flatMap { state.snapshot.catalog.manifest(forHost: $0.site)?.signInWith?.isEmpty == false ? nil
                  : "\($0.site) offers no sign-in through an identity provider" }),
            B([.char("n")], .editor(.new), help: "Add an entry"),
            B([.char("N")], .signUp(.open), help: "Sign up at a service with Apple (a new account, no password)"),
            B([.char("e")], .editor(.edit), help: "Edit the entry", disabledReason: none),
            B([.char("h")], .result(.openHistory), help: "The entry's old passwords",
              disabledReason: entry.map { $0.history.isEmpty ? "The entry has no old passwords" : nil } ?? none),
            B([.char("F")], .files(.open), help: "The entry's files: save, open or attach one", disabledReason: none),
            B([.char("d")], .vault(.askDelete), help: "Delete the entry", disabledReason: none),
            B([.char("z")], .undo(.undo), help: state.undoSteps.last.map { "Undo \($0.what)" } ?? "Undo the last change (none yet)"),
        ] + global(state))
    }

    public static func recommendations(_ state: AppState) -> Keymap<AppAction> {
        let recommendation = state.selectedRecommendation
        let entry = state.entry(id: recommendation?.id)
        let none = recommendation == nil ? "Nothing to act on" : nil
        let hidden = recommendation?.hidden == true
        return Keymap("Security Recommendations", movement(state.shownRecommendationCount, empty: "Nothing to do") + [
            B([.enter], .vault(.openEntry), help: "Open the entry", hint: "open", disabledReason: none),
        ] + upgrades(state, entry, origin: .recommendation) + [
            B([.char("w")], .vault(.showChangePasswordURL), help: "Change the password on the website (copies the URL)", hint: "website",
              disabledReason: entry.map { state.changePasswordURL(for: $0) == nil ? "The entry has no website" : nil } ?? none),
            hidden ? B([.char("h")], .recommendations(.unhide), help: "Show this recommendation again", hint: "unhide")
                   : B([.char("h")], .recommendations(.askHide), help: "Hide this recommendation", hint: "hide", disabledReason: none),
            B([.char("H")], .recommendations(.toggleHidden), help: state.showHidden ? "Leave the hidden ones out of the list" : "List the hidden ones too",
              disabledReason: state.snapshot.report.hidden.isEmpty && !state.showHidden ? "Nothing is hidden" : nil),
            B([.char("o")], .recommendations(.toggleFixableFirst), help: state.fixableFirst ? "Rank by severity alone" : "One-key fixes (↑) first",
              hint: state.fixableFirst ? "by severity" : "fixable first"),
            B([.char("F")], .recommendations(.toggleFixableOnly), help: state.fixableOnly ? "List them all again" : "Only one-key fixes (↑)",
              hint: state.fixableOnly ? "all" : "only fixable"),
            B([.char("/")], .vault(.startSearch), help: "Search the vault"),
        ] + global(state))
    }

    static func unlock(_ state: AppState) -> Keymap<AppAction> {
        var bindings = [B([.enter], .unlock(.submit), help: state.unlock.creating ? "Create the vault" : "Unlock", hint: state.unlock.creating ? "create" : "unlock")]
        if state.unlock.creating && state.unlock.onRepeat {
            bindings.append(B([.escape], .unlock(.failed("Type the master password again.")), help: "Start over"))
        }
        bindings.append(B([.ctrl("c")], .interrupt, help: "Quit", hint: "quit", hintKey: "Ctrl-C"))
        return Keymap(state.unlock.creating ? "Create a vault" : "Unlock", bindings)
    }

    static func search(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Search", [
            B([.enter], .vault(.endSearch(keep: true)), help: "Keep the filter", hint: "keep"),
            B([.escape], .vault(.endSearch(keep: false)), help: "Clear the search", hint: "clear"),
            B([.up], .moveSelection(-1), help: "Move up", hint: "move", hintKey: "↑↓"),
            B([.down], .moveSelection(1), help: "Move down"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func stepUp(_ state: AppState, _ screen: StepUpScreen) -> Keymap<AppAction> {
        let entry = state.entry(id: state.upgrade?.request.entryID)
        if screen.method == .securityKey { return securityKey(state, screen, entry) }
        let vaultCode = screen.method == .totp && entry?.totpURI != nil ? nil : "The vault holds no code for \(screen.serviceName)"
        let arrived = state.snapshot.messages.contains { DomainBoundCode.parse(message: $0.body)?.isOffered(forSite: entry?.site ?? screen.domain) == true }
        let texted = screen.method == .sms
        return Keymap(screen.serviceName, [
            B([.enter], .upgrade(.submitCode), help: "Verify the code (type it first)", hint: "verify"),
            B([.char("f")], .upgrade(.fillCodeFromVault), help: "Fill the code from bulwark", hint: texted ? nil : "fill from vault",
              disabledReason: texted ? "\(screen.serviceName) texts this code: it is not in the vault" : vaultCode),
            B([.char("m")], .upgrade(.openMessages), help: "Fill the code from Messages", hint: texted ? "Messages" : nil,
              disabledReason: !texted ? "This is an authenticator's code, not a text message" : arrived ? nil : "No text message for \(screen.domain) has arrived"),
            B([.char("r")], .upgrade(.resendCode), help: "Send a new code", hint: texted ? "resend" : nil,
              disabledReason: !texted ? "An authenticator's code is not sent: it changes every 30 seconds" : screen.canResend ? nil : "\(screen.serviceName) sends no new code"),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape], .upgrade(.cancel), help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit (asks first)"),
        ])
    }

    /// A step-up that asks for a security key: the vault's passkey for the service, or a USB key.
    static func securityKey(_ state: AppState, _ screen: StepUpScreen, _ entry: Entry?) -> Keymap<AppAction> {
        let holds = entry?.passkeys.contains { Domain.normalize($0.rpID) == screen.domain } == true
        let keys = state.upgrade?.securityKeys
        return Keymap(screen.serviceName, [
            B([.enter], .upgrade(.useVaultPasskey), help: "Use the passkey bulwark keeps for \(screen.domain)", hint: "use passkey",
              disabledReason: holds ? nil : "\(entry?.title ?? "The entry") holds no passkey for \(screen.domain)"),
            B([.char("s")], .upgrade(.useUSBKey), help: "Use a USB security key (touch it when it blinks)", hint: "USB key",
              disabledReason: keys == nil ? "Still looking for USB keys" : keys!.isEmpty ? "No USB security key is plugged in" : nil),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape], .upgrade(.cancel), help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit (asks first)"),
        ])
    }

    /// `s` where the service takes a saved password or Sign in with Apple.
    static func signInChoice(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Sign in", [
            B([.up, .down, .tab, .char(" ")], .vault(.toggleSignInChoice), help: "The saved password / Sign in with Apple", hint: "choose", hintKey: "↑↓"),
            B([.enter], .vault(.confirmSignInChoice), help: "Continue with the one chosen", hint: "continue"),
            B([.escape], .closeOverlay, help: "Cancel: nothing is sent", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func passkeySignIn(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Sign in with a passkey", [
            B([.enter], .vault(.confirmPasskeySignIn), help: "Sign in with the passkey", hint: "sign in"),
            B([.escape], .closeOverlay, help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func passkeySheet(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Passkey", [
            B([.enter], .upgrade(.savePasskey), help: "Save the passkey", hint: "save"),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape], .upgrade(.cancel), help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit (asks first)"),
        ])
    }

    static func editor(_ state: AppState) -> Keymap<AppAction> {
        Keymap(state.editor?.id == nil ? "Add an entry" : "Edit the entry", [
            B([.enter], .editor(.save), help: "Save", hint: "save"),
            B([.tab, .down], .editor(.focus(1)), help: "Next field", hint: "next", hintKey: "Tab"),
            B([.backTab, .up], .editor(.focus(-1)), help: "Previous field"),
            B([.ctrl("g")], .editor(.generatePassword), help: "Generate a password: choose its kind, length and characters", hint: "generate"),
            B([.escape], .editor(.cancel), help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func sheet(_ state: AppState) -> Keymap<AppAction> {
        let asksForEmail: Bool
        if case .sheet(let sheet)? = state.upgrade?.state { asksForEmail = sheet.asksForEmail } else { asksForEmail = true }
        return Keymap("Sign in with Apple", (asksForEmail ? [
            B([.up, .down, .tab, .char(" ")], .upgrade(.toggleEmail), help: "Share My Email / Hide My Email", hint: "choose e-mail", hintKey: "↑↓"),
        ] : []) + [
            B([.enter], .upgrade(.continueSheet), help: "Continue", hint: "continue"),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape], .upgrade(.cancel), help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit (asks first)"),
        ])
    }

    /// Signing up with Apple: the services, then the sheet.
    static func signUp(_ state: AppState) -> Keymap<AppAction> {
        if state.signUp?.existing != nil {
            return Keymap("An account there already", [
                B([.char("u"), .enter], .signUp(.upgradeExisting), help: "Upgrade that account to Sign in with Apple (one account, no duplicate)",
                  hint: "upgrade it"),
                B([.char("n")], .signUp(.newAccount), help: "Make a new account all the same (the service will see two)", hint: "new account"),
                B([.escape], .signUp(.cancel), help: "Cancel", hint: "cancel"),
                B([.ctrl("c")], .interrupt, help: "Quit"),
            ])
        }
        guard state.signUp?.sheet != nil else {
            return Keymap("Sign up with Apple", movement(state.signUp?.services.count ?? 0, empty: "No service offers Sign in with Apple") + [
                B([.enter], .signUp(.chooseService), help: "Sign up at this service", hint: "choose",
                  disabledReason: state.signUp?.chosen == nil ? "No service offers Sign in with Apple" : nil),
                B([.escape], .signUp(.cancel), help: "Cancel", hint: "cancel"),
                B([.ctrl("c")], .interrupt, help: "Quit"),
            ])
        }
        return Keymap("Sign in with Apple", (state.signUp?.sheet?.asksForEmail == false ? [] : [
            B([.up, .down, .tab, .char(" ")], .signUp(.toggleEmail), help: "Share My Email / Hide My Email", hint: "choose e-mail", hintKey: "↑↓"),
        ]) + [
            B([.enter], .signUp(.proceed), help: "Continue", hint: "continue"),
            B([.escape], .signUp(.cancel), help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func working(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Upgrading", [
            B([.escape], .upgrade(.stop), help: "Cancel the upgrade (nothing changes unless the service has already made the change)",
              hint: "cancel", disabledReason: state.upgrade?.cancelling == true ? "Already cancelling" : nil),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.ctrl("c")], .interrupt, help: "Quit (asks first)", hint: "quit", hintKey: "Ctrl-C"),
        ])
    }

    static func messages(_ state: AppState) -> Keymap<AppAction> {
        let bound = UpgradeReducer.boundCode(of: state.messageList.selected, upgrade: state.upgrade, AppContext(state)) != nil
        return Keymap("Messages", movement(state.snapshot.messages.count, empty: "No messages") + [
            B([.enter], .upgrade(.fillFromMessage), help: "Fill this code", hint: "fill",
              disabledReason: bound ? nil : "This message's code is not for this site"),
            B([.char("?")], .showHelp, help: "Show the keys", hint: "help"),
            B([.escape], .closeOverlay, help: "Back", hint: "back"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    /// Before `u` tells a service to take a new password.
    static func confirmServiceChange(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Change the password at the service?", [
            B([.escape, .char("n")], .upgrade(.confirm(false)), help: "Cancel: nothing is sent", hint: "cancel"),
            B([.enter, .char("y")], .upgrade(.confirm(true)), help: "Continue: the service is told", hint: "continue"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func confirmDelete(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Delete?", [
            B([.char("y")], .vault(.confirmDelete(true)), help: "Delete the entry", hint: "delete"),
            B([.char("n"), .escape], .vault(.confirmDelete(false)), help: "Keep it", hint: "keep"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func confirmDiscard(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Discard your changes?", [
            B([.char("s"), .enter], .editor(.save), help: "Save the changes", hint: "save"),
            B([.char("d")], .editor(.discard(true)), help: "Discard the changes", hint: "discard"),
            B([.char("b"), .escape], .editor(.discard(false)), help: "Back to the form", hint: "back"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func conflict(_ state: AppState) -> Keymap<AppAction> {
        let deleted = state.conflict?.theirs == nil
        return Keymap("Changed elsewhere", [
            B([.char("t")], .otherWriters(.resolveConflict(.theirs)), help: deleted ? "Let it go, as the other bulwark deleted it" : "Keep theirs (yours kept in its history and marked fields)",
              hint: deleted ? "let it go" : "keep theirs"),
            B([.char("m")], .otherWriters(.resolveConflict(.mine)), help: deleted ? "Keep mine (restores the entry)" : "Keep mine (theirs kept in its history and marked fields)",
              hint: "keep mine"),
            B([.char("b")], .otherWriters(.resolveConflict(.both)), help: "Keep both (yours as a copy)", hint: "keep both",
              disabledReason: deleted ? "It was deleted there: keep mine restores it" : nil),
            B([.escape], .otherWriters(.reviewConflict), help: "Back to your edit, over their version", hint: "back to my edit"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func hide(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Hide", [
            B([.enter], .recommendations(.confirmHide), help: "Hide the recommendation", hint: "hide"),
            B([.escape], .closeOverlay, help: "Cancel", hint: "cancel"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    /// After a sign-in with a weak or breached password: the upgrades the
    /// service offers, or, when it offers none, its change-password page
    /// (never a question with no answer).
    static func signInPrompt(_ state: AppState) -> Keymap<AppAction> {
        let entry = state.entry(id: state.focusEntryID)
        let upgrades = upgrades(state, entry, origin: .signInPrompt)
        let noPage: String? = entry.map { state.changePasswordURL(for: $0) == nil ? "The entry has no website" : nil } ?? "Nothing is selected"
        let changePage = B([.char("w")], .vault(.showChangePasswordURL), help: "Change Password on Website (copies its address)",
                           hint: "change password on website", disabledReason: noPage)
        let offersUpgrade = upgrades.contains { $0.disabledReason == nil }
        return Keymap(offersUpgrade ? "Upgrade this account?" : "Change this password?", (offersUpgrade ? upgrades : [changePage]) + [
            B([.escape], .closeOverlay, help: "Not now", hint: "not now"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    static func serviceApp(_ state: AppState) -> Keymap<AppAction> {
        let entry = state.entry(id: state.focusEntryID)
        let signedIn = state.appSession == nil ? "Still signing in" : nil
        func off(_ kind: UpgradeKind) -> String? {
            signedIn ?? entry.flatMap { state.offer(kind, for: $0).reason }.map(\.sentenceCased)
        }
        return Keymap("App", [
            B([.char("u")], .upgrade(.startInApp(.strongPassword)), help: "Upgrade to a strong password (in the app)", hint: "upgrade", disabledReason: off(.strongPassword)),
            B([.char("a")], .upgrade(.startInApp(.signInWithApple)), help: "Use Sign in with Apple (in the app)", hint: "Sign in with Apple", disabledReason: off(.signInWithApple)),
            B([.escape], .closeOverlay, help: "Close the app", hint: "close"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    public static func help(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Help", [
            B([.escape, .char("?"), .char("q")], .closeOverlay, help: "Close help", hint: "close"),
            B([.ctrl("c")], .interrupt, help: "Quit"),
        ])
    }

    public static func confirmQuit(_ state: AppState) -> Keymap<AppAction> {
        Keymap("Quit?", [
            B([.char("y")], .confirmQuit(true), help: "Quit and abandon the upgrade", hint: "quit"),
            B([.char("n"), .escape], .confirmQuit(false), help: "Keep going", hint: "stay"),
            B([.ctrl("c")], .confirmQuit(true), help: "Quit"),
        ])
    }

    /// The SSH agent's question: y or n, nothing else (a key meant for the
    /// screen beneath is not an answer, and Enter is not one either).
    public static func sshApproval(_ state: AppState) -> Keymap<AppAction> {
        Keymap("SSH signature", [
            B([.char("y")], .sshApproval(.answer(true)), help: "Approve this signature", hint: "approve"),
            B([.char("n"), .escape], .sshApproval(.answer(false)), help: "Decline it: nothing is signed", hint: "decline"),
            B([.ctrl("c")], .interrupt, help: "Quit (the question is declined)"),
        ])
    }

    /// The table in charge of the keyboard right now.
    public static func active(_ state: AppState) -> Keymap<AppAction> {
        if !state.sshApprovals.isEmpty { return sshApproval(state) }
        switch state.overlay {
        case .help: return help(state)
        case .confirmQuit: return confirmQuit(state)
        case .messages: return messages(state)
        case .confirmDelete: return confirmDelete(state)
        case .confirmDiscard: return confirmDiscard(state)
        case .hide: return hide(state)
        case .signInPrompt: return signInPrompt(state)
        case .serviceApp: return serviceApp(state)
        case .conflict: return conflict(state)
        case .signUp: return signUp(state)
        case .result: return result(state)
        case .history: return history(state)
        case .filterPicker: return filterPicker(state)
        case .passkeySignIn: return passkeySignIn(state)
        case .syncConflict: return syncConflict(state)
        case .syncRekey: return syncRekey(state)
        case .generator: return generator(state)
        case .files: return files(state)
        case .log: return log(state)
        case .palette: return palette(state)
        case .confirmServiceChange: return confirmServiceChange(state)
        case .signInChoice: return signInChoice(state)
        case nil: break
        }
        if !state.unlocked { return unlock(state) }
        if state.editor != nil { return editor(state) }
        if let web = state.webSignIn { return webSignIn(state, web) }
        switch state.upgrade?.state {
        case .stepUp(let screen)?: return stepUp(state, screen)
        case .sheet?: return sheet(state)
        case .passkeySheet?: return passkeySheet(state)
        case .authorising?, .verifying?, .exchanging?: return working(state)
        default: break
        }
        if state.search != nil { return search(state) }
        return screen(state)
    }

    /// What the help overlay lists: the keys of whatever it was opened over
    /// (a dialog, the step-up screen, the sheet, or the screen).
    public static func beneathHelp(_ state: AppState) -> Keymap<AppAction> {
        var below = state
        if case .help(let over)? = state.overlay { below.overlay = over }
        return active(below)
    }

    public static func screen(_ state: AppState) -> Keymap<AppAction> {
        if !state.unlocked { return unlock(state) }
        switch state.screen {
        case .vault: return vault(state)
        case .recommendations: return recommendations(state)
        }
    }
}
