import BulwarkCore
import BulwarkUpgrades
import Foundation

/// `render(state) -> Buffer`: pure, and the only way the app draws.
public enum AppView {
    public static func render(_ state: AppState, colors: Bool = true, glyphs: GlyphSupport = .unicode) -> Buffer {
        var buffer = Buffer(width: state.width, height: state.height)
        if state.isTooSmall {
            Overlays.renderTooSmall(state, into: &buffer)
        } else {
            let chrome = Chrome(buffer.area)
            let keymap = Keymaps.active(state)
            let items = "\(Count.grouped(state.snapshot.entries.count)) \(state.snapshot.entries.count == 1 ? "item" : "items")"
            chrome.render(into: &buffer, title: Keymaps.screen(state).title,
                          rightTitle: state.unlocked ? "\(state.lockLabel) · \(items)" + (state.sync.label.map { " · \($0)" } ?? "") : "locked",
                          status: statusLine(state, keymap: keymap), hints: state.presenter?.hints ?? keymap.footerHints)
            if !state.unlocked {
                UnlockScreen.render(state, chrome: chrome, into: &buffer)
            } else {
                switch state.screen {
                case .vault: VaultScreen.render(state, chrome: chrome, into: &buffer)
                case .recommendations: RecommendationsScreen.render(state, chrome: chrome, into: &buffer)
                }
                if let upgrade = state.upgrade { UpgradeViews.render(upgrade, state, into: &buffer) }
                if let web = state.webSignIn { WebSignInViews.render(web, state, into: &buffer) }
                if let editor = state.editor { Dialogs.renderEditor(editor, into: &buffer) }
            }
            switch state.overlay {
            case .help: Overlays.renderHelp(state, into: &buffer)
            case .confirmQuit: Overlays.renderConfirmQuit(into: &buffer)
            case .messages: UpgradeViews.renderMessages(state, into: &buffer)
            case .confirmDelete: Dialogs.renderConfirmDelete(state, into: &buffer)
            case .confirmDiscard: Dialogs.renderConfirmDiscard(state, into: &buffer)
            case .hide: Dialogs.renderHide(state, into: &buffer)
            case .signInPrompt: Dialogs.renderSignInPrompt(state, into: &buffer)
            case .serviceApp: Dialogs.renderServiceApp(state, into: &buffer)
            case .conflict: ConflictDialog.render(state, into: &buffer)
            case .syncConflict: SyncConflictDialog.render(state, into: &buffer)
            case .syncRekey: SyncConflictDialog.renderRekey(state, into: &buffer)
            case .signUp: Dialogs.renderSignUp(state, into: &buffer)
            case .result: ResultPanel.render(state, into: &buffer)
            case .history: ResultPanel.renderHistory(state, into: &buffer)
            case .filterPicker: Dialogs.renderFilterPicker(state, into: &buffer)
            case .files: FilesView.render(state, into: &buffer)
            case .log: LogView.render(state, into: &buffer)
            case .palette: PaletteView.render(state, into: &buffer)
            case .confirmServiceChange(let change): Dialogs.renderConfirmServiceChange(change, state, into: &buffer)
            case .passkeySignIn: PasskeySheetView.renderSignIn(state, into: &buffer)
            case .signInChoice(let apple): SignInChoiceView.render(state, appleChosen: apple, into: &buffer)
            case .generator: GeneratorView.render(state, into: &buffer)
            case nil: break
            }
            SSHApprovalView.render(state, into: &buffer)
            if let card = state.titleCard { TitleCardView.render(card, chrome: chrome, into: &buffer) }
            if let caption = state.caption {
                renderCaption(caption, paused: state.presenter?.paused == true, chrome: chrome, into: &buffer)
            } else if state.presenter?.paused == true {
                renderCaption("Space resumes", paused: true, chrome: chrome, into: &buffer)
            }
        }
        if !colors { buffer.stripColors() }
        buffer.restrictGlyphs(to: glyphs)
        return buffer
    }

    /// A demo's caption: a reversed band on the body's last row.
    static func renderCaption(_ caption: String, paused: Bool = false, chrome: Chrome, into buffer: inout Buffer) {
        let row = Rect(x: chrome.outer.x + 1, y: chrome.body.maxY - 1, width: chrome.outer.width - 2, height: 1)
        let band = Style(foreground: .cyan, bold: true, reverse: true)
        buffer.fill(row, style: band)
        buffer.put((paused ? " Paused · " : " ▶ ") + caption, x: row.x, y: row.y, style: band, clip: row)
    }

    /// A message cut to the row, ending in "… M for more" (the log holds it whole).
    static func more(_ text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        let hint = "… M for more"
        guard width > DisplayWidth.of(hint) + 8 else { return DisplayWidth.truncate(text, to: width) }
        let cut = DisplayWidth.truncate(text, to: width - DisplayWidth.of(hint), ellipsis: false)
        return cut.trimmingCharacters(in: .whitespaces) + hint
    }

    /// `keymap`: the frame's own table (built once a frame), else the one in charge.
    static func statusLine(_ state: AppState, keymap: Keymap<AppAction>? = nil) -> Line {
        // The status row is the window less its borders and margins.
        let row = max(0, state.width - 4)
        if let banner = state.banner {
            let fits = DisplayWidth.of(banner.text) + 2 <= row
            let short = banner.short.flatMap { DisplayWidth.of($0) + 2 <= row ? $0 : nil }
            let text = fits ? banner.text : short ?? more(banner.text, width: row - 2)
            return Line([Span(banner.ok ? "✓ " : "✗ ", banner.ok ? Theme.success : Theme.danger), Span(text, banner.ok ? .plain : Theme.warning)])
        }
        if let status = state.status { return Line(more(status, width: row), Theme.status) }
        guard state.unlocked else { return Line("", Theme.dim) }
        if let until = state.clipboardClearsAt, until > state.now {
            // `now` moves with the ticks: never more than the clipboard's time.
            let seconds = min(Int(until.timeIntervalSince(state.now).rounded(.up)), Int(state.clipboardFor.rounded(.up)))
            return Line("The clipboard is cleared in \(Reducer.duration(TimeInterval(seconds))) (or on lock and quit).", Theme.status)
        }
        // Where ? is a character (a form that takes any key), the line does not offer it.
        let helpable = (keymap ?? Keymaps.active(state)).binding(for: .char("?")) != nil
        switch state.screen {
        case .vault:
            let position = state.visible.isEmpty ? "" : "\(Count.grouped(state.list.selected + 1))/\(Count.grouped(state.visible.count))  "
            return Line([Span(position, Theme.dim), Span(helpable ? "Press ? for the keys of this screen." : "", Theme.dim)])
        case .recommendations:
            let report = state.snapshot.report
            let count = report.recommendations.count
            let sofar = state.snapshot.analysis == nil ? "" : " so far"
            return Line("\(Count.grouped(count)) \(count == 1 ? "recommendation" : "recommendations"), \(Count.grouped(report.highPriorityCount)) high priority\(sofar).\(helpable ? " Press ? for the keys." : "")", Theme.dim)
        }
    }
}
