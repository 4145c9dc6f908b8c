import Foundation

/// A dialog that takes the keys until it is answered, holding the state it
/// needs (as TCA's `@Presents` destination does): closing it, or a lock
/// rebuilding the state, drops that state with it. The upgrade's own
/// dialogs (progress, step-up, sheet) come from `AppState.upgrade`.
public indirect enum Overlay: Sendable, Equatable {
    /// The keys of the dialog it was opened over, which closing it goes back to.
    case help(over: Overlay?)
    /// Quit while an upgrade runs? Over the dialog that comes back on "no".
    case confirmQuit(over: Overlay?)
    case confirmDelete
    /// Esc in a form with typed changes: save, discard or back.
    case confirmDiscard
    case messages
    /// Hide a recommendation: until the date typed, or always.
    case hide(TextField)
    case signInPrompt
    case serviceApp
    /// The edit waiting for the person's choice.
    case conflict(EditConflict)
    case signUp(SignUpUI)
    /// What an upgrade did (or that nothing changed), until dismissed.
    case result(UpgradeResult)
    /// An entry's old passwords.
    case history(HistoryBrowser)
    /// `f`: the categories and tags to filter by.
    case filterPicker(FilterPicker)
    /// Signing in with the entry's passkey: the sheet that asks first.
    case passkeySignIn
    /// A same-field conflict a sync kept: keep both, mine or theirs.
    case syncConflict
    /// Another machine changed the master password: the new one, asked once.
    case syncRekey(RekeyForm)
    /// Ctrl-G in the form: the generator's choices and a sample.
    case generator(GeneratorSheet)
    /// `F`: the entry's files.
    case files(FilesBrowser)
    /// `M`: the messages of this session, scrolled up this many lines from the newest.
    case log(scrolledUp: Int)
    /// `:` or Ctrl-P: the screen's actions, filtered as typed.
    case palette(Palette)
    /// `u` about to change a password at a service: continue or cancel.
    case confirmServiceChange(ServiceChange)
    /// `s` at a service that takes both: the saved password or Sign in with Apple (WWDC19's one request for both).
    case signInChoice(appleChosen: Bool)

    /// The hide dialog's field, empty.
    public static var hide: Overlay { .hide(TextField(placeholder: "YYYY-MM-DD, or empty for always")) }

    /// Which dialog, for comparing without its state.
    public var kind: Kind {
        switch self {
        case .help: .help
        case .confirmQuit: .confirmQuit
        case .confirmDelete: .confirmDelete
        case .confirmDiscard: .confirmDiscard
        case .messages: .messages
        case .hide: .hide
        case .signInPrompt: .signInPrompt
        case .serviceApp: .serviceApp
        case .conflict: .conflict
        case .signUp: .signUp
        case .result: .result
        case .history: .history
        case .filterPicker: .filterPicker
        case .passkeySignIn: .passkeySignIn
        case .syncConflict: .syncConflict
        case .syncRekey: .syncRekey
        case .generator: .generator
        case .files: .files
        case .log: .log
        case .palette: .palette
        case .confirmServiceChange: .confirmServiceChange
        case .signInChoice: .signInChoice
        }
    }

    public enum Kind: Sendable, Hashable {
        case help, confirmQuit, confirmDelete, confirmDiscard, messages, hide, signInPrompt, serviceApp, conflict
        case signUp, result, history, filterPicker, passkeySignIn, syncConflict, syncRekey, generator, files, log, palette
        case confirmServiceChange, signInChoice
    }
}

/// The new master password another machine set, being typed.
public struct RekeyForm: Sendable, Equatable {
    public var field = TextField(masked: true)
    /// Why the last one typed did not open it.
    public var error: String?
    public init() {}
}
