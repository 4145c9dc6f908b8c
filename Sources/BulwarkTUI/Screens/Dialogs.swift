import BulwarkCore
import BulwarkUpgrades

/// Small dialogs: delete, hide, the prompt after signing in, a service's app.
enum Dialogs {
    static func renderConfirmDelete(_ state: AppState, into buffer: inout Buffer) {
        guard let entry = state.currentEntry else { return }
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 56), height: 7,
                                 title: Line("Delete \(entry.title)?", Theme.warning))
        Paragraph("The entry and its password history are removed from the vault. This cannot be undone.")
            .render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: 2))
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.confirmDelete(state).footerHints, keyStyle: Theme.key)
    }

    /// The question before `u` tells a service anything: what changes,
    /// then Cancel and Continue (the one that acts on the right), their
    /// keys on the buttons and in the footer.
    static func renderConfirmServiceChange(_ change: ServiceChange, _ state: AppState, into buffer: inout Buffer) {
        let width = min(buffer.width - 4, 64)
        let detail = Paragraph(change.detail)
        // Border and padding take four columns; the rows: a blank, the text, a blank, the buttons.
        let rows = detail.layout(width: max(1, width - 4)).count
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: min(buffer.height - 4, rows + 5),
                                 title: Line(change.question, Theme.title))
        detail.render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 3)))
        let cancel = "[ Esc Cancel ]", proceed = "[ Enter Continue ]"
        let x = max(inner.x, inner.maxX - DisplayWidth.of(cancel) - 3 - DisplayWidth.of(proceed))
        let after = buffer.put(cancel, x: x, y: inner.maxY - 1, style: Theme.dim, clip: inner)
        buffer.put(proceed, x: x + after + 3, y: inner.maxY - 1, style: Theme.key, clip: inner)
    }

    static func renderConfirmDiscard(_ state: AppState, into buffer: inout Buffer) {
        guard let editor = state.editor else { return }
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 56), height: 7,
                                 title: Line("Discard your changes?", Theme.warning))
        let changed = editor.changedLabels.joined(separator: ", ")
        Paragraph("You changed \(changed). Save them, discard them, or go back to the form.")
            .render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: 2))
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.confirmDiscard(state).footerHints, keyStyle: Theme.key)
    }

    static func renderEditor(_ editor: EntryEditor, into buffer: inout Buffer) {
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 64), height: min(buffer.height - 2, 14),
                                 title: Line(editor.id == nil ? "Add an entry" : "Edit the entry", Theme.title),
                                 rightTitle: Line("Esc cancel", Theme.dim))
        let fieldWidth = min(44, max(0, inner.width - 13))
        for (index, label) in EntryEditor.labels.enumerated() {
            let y = inner.y + 1 + index
            let focused = index == editor.focus
            buffer.put(DisplayWidth.pad(label, to: 10), x: inner.x, y: y, style: focused ? Theme.key : Theme.label, clip: inner)
            buffer.put("[", x: inner.x + 10, y: y, style: Theme.dim, clip: inner)
            editor.fields[index].render(into: &buffer, area: Rect(x: inner.x + 11, y: y, width: fieldWidth, height: 1),
                                        focused: focused, style: Style(underline: true))
            buffer.put("]", x: inner.x + 11 + fieldWidth, y: y, style: Theme.dim, clip: inner)
        }
        if let error = editor.error {
            let top = inner.y + 1 + EntryEditor.labels.count + 1
            Paragraph("✗ " + error, style: Theme.danger).render(into: &buffer, area: Rect(x: inner.x, y: top, width: inner.width, height: max(0, inner.maxY - top)))
        }
    }

    static func renderFilterPicker(_ state: AppState, into buffer: inout Buffer) {
        guard let picker = state.picker else { return }
        let height = min(buffer.height - 2, picker.options.count + 4)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 44), height: height,
                                 title: Line("Filter by", Theme.title), rightTitle: Line("Esc cancel", Theme.dim))
        let listArea = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height - 2))
        ListView(count: picker.options.count, row: { index in
                     let option = picker.options[index]
                     let count = Count.grouped(option.count)
                     let width = max(0, listArea.width - DisplayWidth.of(count) - 2)
                     return Line([Span(DisplayWidth.pad(DisplayWidth.truncate(option.label, to: width), to: width) + " "),
                                  Span(count, Theme.dim)])
                 }, scroll: picker.list, selectionStyle: Theme.selection, id: .filterPicker)
            .render(into: &buffer, area: listArea)
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.filterPicker(state).footerHints, keyStyle: Theme.key, pinned: 2)
    }

    static func renderHide(_ state: AppState, into buffer: inout Buffer) {
        guard let entry = state.currentEntry else { return }
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 60), height: 10,
                                 title: Line("Hide the recommendation for \(entry.title)", Theme.title))
        // What hiding does, as the screen then shows it: the list and its counts drop it, the header counts it as hidden.
        Paragraph("It leaves the list and the counts (the header counts it as hidden; H lists hidden ones). Leave the day empty to hide it until you show it again.", style: Theme.dim)
            .render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: 3))
        let y = inner.y + 5, width = min(34, max(0, inner.width - 9))
        buffer.put("Until", x: inner.x, y: y, style: Theme.label, clip: inner)
        buffer.put("[", x: inner.x + 6, y: y, style: Theme.dim, clip: inner)
        state.hideField?.render(into: &buffer, area: Rect(x: inner.x + 7, y: y, width: width, height: 1), focused: true, style: Style(underline: true))
        buffer.put("]", x: inner.x + 7 + width, y: y, style: Theme.dim, clip: inner)
        // The day's form before anything is typed, not only after a wrong one.
        buffer.put("a day: YYYY-MM-DD, such as \(CalendarDay.string(state.now.addingTimeInterval(30 * 86_400)))", x: inner.x + 7, y: y + 1,
                   style: Theme.dim, clip: inner)
    }

    static func renderSignInPrompt(_ state: AppState, into buffer: inout Buffer) {
        guard let entry = state.entry(id: state.focusEntryID) else { return }
        let recommendation = state.snapshot.report.recommendation(forEntry: entry.id)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 64), height: 9,
                                 title: Line("Signed in to \(entry.title)", Theme.title))
        let reason = recommendation?.warnings.first?.reason ?? ""
        let question = Keymaps.signInPrompt(state).title == "Upgrade this account?" ? " Upgrade this account now?"
            : " \(state.snapshot.catalog.manifest(forHost: entry.site)?.name ?? entry.title) offers no upgrade here; change the password on its website."
        Paragraph(reason + question).render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: 4))
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.signInPrompt(state).footerHints, keyStyle: Theme.key)
    }

    /// A demo service's own app: signed in, account settings, and buttons
    /// that start in-app upgrade requests.
    static func renderServiceApp(_ state: AppState, into buffer: inout Buffer) {
        guard let entry = state.entry(id: state.focusEntryID) else { return }
        let name = state.snapshot.catalog.manifest(forHost: entry.site)?.name ?? entry.title
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 60), height: 11,
                                 title: Line("\(name) app", Theme.title), rightTitle: Line("Esc close", Theme.dim), border: .square)
        var y = inner.y + 1
        buffer.put("Account settings", x: inner.x + 1, y: y, style: Theme.heading, clip: inner)
        y += 2
        if state.appSession == nil {
            buffer.put(Spinner.frames[state.spinner % Spinner.frames.count] + " Signing in as \(entry.username)…", x: inner.x + 1, y: y, style: Theme.dim, clip: inner)
            return
        }
        buffer.put("Signed in as \(entry.username)", x: inner.x + 1, y: y, clip: inner)
        y += 2
        buffer.put("Security", x: inner.x + 1, y: y, style: Theme.label, clip: inner)
        y += 1
        for binding in Keymaps.serviceApp(state).bindings where binding.keys[0] == .char("u") || binding.keys[0] == .char("a") {
            let off = binding.disabledReason != nil
            Line([Span("[\(binding.keys[0].description)] ", off ? Theme.dim : Theme.key),
                  Span(binding.help.replacingOccurrences(of: " (in the app)", with: "") + (off ? " — " + binding.disabledReason!.lowercased() : ""), off ? Theme.dim : .plain)])
                .render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
            y += 1
        }
    }
}
