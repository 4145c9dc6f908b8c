import Foundation

/// Each dialog's state, read and written through the dialog that holds it.
/// Setting one opens its dialog; setting it to nil closes that dialog (and
/// only that one). A dialog under the help or the quit question is the one
/// these reach, so a result arriving under them lands where it belongs.
extension AppState {
    /// The kind of the dialog on top, for comparisons that ignore its state.
    public var overlayKind: Overlay.Kind? { overlay?.kind }

    /// The dialog that holds state: the top one, or the one under help or the quit question.
    var presented: Overlay? {
        get { overlay.presented }
        set { overlay.presented = newValue }
    }

    /// The upgrade feature's state (see `UpgradeReducer.Scope`).
    var upgradeScope: UpgradeReducer.Scope {
        get { UpgradeReducer.Scope(upgrade: upgrade, overlay: overlay, messageList: messageList) }
        set { (upgrade, overlay, messageList) = (newValue.upgrade, newValue.overlay, newValue.messageList) }
    }

    public var conflict: EditConflict? {
        get { if case .conflict(let value)? = presented { value } else { nil } }
        set { replace(.conflict, with: newValue.map(Overlay.conflict)) }
    }

    public var result: UpgradeResult? {
        get { if case .result(let value)? = presented { value } else { nil } }
        set { replace(.result, with: newValue.map(Overlay.result)) }
    }

    public var history: HistoryBrowser? {
        get { if case .history(let value)? = presented { value } else { nil } }
        set { replace(.history, with: newValue.map(Overlay.history)) }
    }

    public var palette: Palette? {
        get { if case .palette(let value)? = presented { value } else { nil } }
        set { replace(.palette, with: newValue.map(Overlay.palette)) }
    }

    public var files: FilesBrowser? {
        get { if case .files(let value)? = presented { value } else { nil } }
        set { replace(.files, with: newValue.map(Overlay.files)) }
    }

    public var picker: FilterPicker? {
        get { if case .filterPicker(let value)? = presented { value } else { nil } }
        set { replace(.filterPicker, with: newValue.map(Overlay.filterPicker)) }
    }

    public var signUp: SignUpUI? {
        get { if case .signUp(let value)? = presented { value } else { nil } }
        set { replace(.signUp, with: newValue.map(Overlay.signUp)) }
    }

    public var hideField: TextField? {
        get { if case .hide(let value)? = presented { value } else { nil } }
        set { replace(.hide, with: newValue.map(Overlay.hide)) }
    }

    public var rekey: RekeyForm? {
        get { if case .syncRekey(let value)? = presented { value } else { nil } }
        set { replace(.syncRekey, with: newValue.map(Overlay.syncRekey)) }
    }

    public var generatorSheet: GeneratorSheet? {
        get { if case .generator(let value)? = presented { value } else { nil } }
        set { replace(.generator, with: newValue.map(Overlay.generator)) }
    }

    /// The generator feature's state: its sheet, the form it fills, the choice remembered.
    var generatorScope: GeneratorReducer.Scope {
        get { GeneratorReducer.Scope(sheet: generatorSheet, editor: editor, remembered: generatorChoice, configPath: configPath) }
        set { (generatorSheet, editor, generatorChoice) = (newValue.sheet, newValue.editor, newValue.remembered) }
    }

    /// The editor feature's state: the form, and the question over it.
    var editorForm: EditorReducer.Form {
        get { EditorReducer.Form(editor: editor, askingDiscard: overlayKind == .confirmDiscard) }
        set {
            editor = newValue.editor
            if newValue.askingDiscard { overlay = .confirmDiscard } else if overlayKind == .confirmDiscard { overlay = nil }
        }
    }

    /// A text field in a dialog has the keyboard.
    var isTyping: Bool {
        overlayKind == .hide || overlayKind == .syncRekey || overlayKind == .palette || (overlayKind == .files && files?.prompt != nil)
    }

    /// A new value opens (or updates) the dialog; nil closes it when it is the one presented.
    private mutating func replace(_ kind: Overlay.Kind, with new: Overlay?) {
        if let new {
            presented = new
        } else if presented?.kind == kind {
            presented = nil
        }
    }
}

extension Optional where Wrapped == Overlay {
    /// The dialog that holds state: this one, or the one under the help or the quit question.
    var presented: Overlay? {
        get {
            switch self {
            case .help(let over)?, .confirmQuit(let over)?: over
            default: self
            }
        }
        set {
            switch self {
            case .help?: self = .help(over: newValue)
            case .confirmQuit?: self = .confirmQuit(over: newValue)
            default: self = newValue
            }
        }
    }
}
