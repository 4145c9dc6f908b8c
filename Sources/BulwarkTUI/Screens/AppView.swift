/// `render(state) -> Buffer`: pure, and the only way the app draws.
public enum AppView {
    public static func render(_ state: AppState, colors: Bool = true) -> Buffer {
        var buffer = Buffer(width: state.width, height: state.height)
        if state.isTooSmall {
            Overlays.renderTooSmall(state, into: &buffer)
        } else {
            let chrome = Chrome(buffer.area)
            let keymap = Keymaps.active(state)
            chrome.render(into: &buffer, title: Keymaps.screen(state).title,
                          rightTitle: "🔓 \(state.lockLabel) · \(state.entries.count) items",
                          status: statusLine(state), hints: keymap.footerHints)
            switch state.screen {
            case .vault: VaultScreen.render(state, chrome: chrome, into: &buffer)
            }
            switch state.overlay {
            case .help: Overlays.renderHelp(state, into: &buffer)
            case .confirmQuit: Overlays.renderConfirmQuit(into: &buffer)
            case nil: break
            }
        }
        if !colors { buffer.stripColors() }
        return buffer
    }

    static func statusLine(_ state: AppState) -> Line {
        if let status = state.status { return Line(status, Theme.status) }
        let position = state.entries.isEmpty ? "" : "\(state.list.selected + 1)/\(state.entries.count)  "
        return Line([Span(position, Theme.dim), Span("Press ? for the keys of this screen.", Theme.dim)])
    }

    /// Rows of the list pane at the current size, for paging.
    public static func listHeight(_ state: AppState) -> Int {
        Chrome(Rect(x: 0, y: 0, width: state.width, height: state.height)).body.height
    }
}
