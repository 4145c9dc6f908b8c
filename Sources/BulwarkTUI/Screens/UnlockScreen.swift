/// The unlock screen: the master password, masked; on first run, typed twice.
enum UnlockScreen {
    static func render(_ state: AppState, chrome: Chrome, into buffer: inout Buffer) {
        let form = state.unlock
        let width = min(chrome.body.width - 4, 60)
        let area = chrome.body.centered(width: width, height: 11)
        var y = area.y
        let heading = form.creating ? "Create your vault" : "Unlock your vault"
        buffer.put(heading, x: area.x, y: y, style: Theme.heading, clip: area)
        y += 2
        let label = 18
        let fieldWidth = max(4, min(30, width - label - 2))
        /// A bracketed, underlined field: visible with colour or without.
        func field(_ text: TextField, _ name: String, focused: Bool) {
            buffer.put(name, x: area.x, y: y, style: Theme.label, clip: area)
            buffer.put("[", x: area.x + label - 1, y: y, style: Theme.dim, clip: area)
            text.render(into: &buffer, area: Rect(x: area.x + label, y: y, width: fieldWidth, height: 1), focused: focused,
                        style: Style(underline: true))
            buffer.put("]", x: area.x + label + fieldWidth, y: y, style: Theme.dim, clip: area)
        }
        field(form.password, form.creating ? "New password" : "Master password", focused: !form.onRepeat && !form.busy)
        if form.creating {
            y += 1
            field(form.repeated, "Repeat it", focused: form.onRepeat && !form.busy)
        }
        y += 2
        if form.busy {
            let spinner = Spinner.frames[state.spinner % Spinner.frames.count]
            if let derivation = form.keyDerivation {
                // The key derivation's share by the clock (OpenSSL tells nothing while it runs).
                let fraction = derivation.fraction(at: state.now)
                buffer.put(spinner + (form.creating ? " Creating the vault: deriving its key…" : " Unlocking: deriving the key from your password…"),
                           x: area.x, y: y, style: Theme.status, clip: area)
                let barWidth = max(4, min(30, area.width - 6))
                ProgressBar.render(into: &buffer, area: Rect(x: area.x, y: y + 1, width: barWidth, height: 1), ratio: fraction, style: Theme.status)
                buffer.put(String(format: "%3d%%", Int(fraction * 100)), x: area.x + barWidth + 1, y: y + 1, style: Theme.dim, clip: area)
            } else {
                buffer.put(spinner + (form.creating ? " Creating the vault…" : " Unlocking…"), x: area.x, y: y, style: Theme.status, clip: area)
            }
        } else if let error = form.error {
            // Wrapped: the weak-password advice is a sentence or two.
            Paragraph("✗ " + error, style: Theme.danger).render(into: &buffer, area: Rect(x: area.x, y: y, width: area.width, height: 3))
        } else if let news = form.news {
            Paragraph("! " + news, style: Theme.danger).render(into: &buffer, area: Rect(x: area.x, y: y, width: area.width, height: 3))
        }
        if let hint = form.hint {
            buffer.put(hint, x: area.x, y: y + 4, style: Theme.dim, clip: area)
        }
    }
}
