import BulwarkCore

/// `s` at a service that takes a saved password and Sign in with Apple:
/// one sheet with both (WWDC19, "Use your saved password to sign in?"),
/// the saved password first and chosen, Sign in with Apple beside it
/// with what choosing it does to the account.
enum SignInChoiceView {
    static func render(_ state: AppState, appleChosen: Bool, into buffer: inout Buffer) {
        guard let entry = state.entry(id: state.focusEntryID) else { return }
        let service = state.snapshot.catalog.manifest(forHost: entry.site)?.name ?? entry.title
        let width = min(buffer.width - 4, 66)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: min(buffer.height - 2, 12), title: Line("Sign In", Theme.title))
        var y = inner.y + 1
        buffer.put("Use your saved password to sign in to \(service)?", x: inner.x + 1, y: y, style: Theme.heading, clip: inner)
        y += 2
        Line([Span(appleChosen ? "( ) " : "(•) ", Theme.key), Span("Saved password  "), Span(entry.username, Theme.dim)])
            .render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
        y += 1
        buffer.put("    saved from \(entry.site)", x: inner.x + 1, y: y, style: Theme.dim, clip: inner)
        y += 1
        Line([Span(appleChosen ? "(•) " : "( ) ", Theme.key), Span("Sign in with Apple")]).render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
        y += 1
        buffer.put("    the account moves to your Apple ID; its password goes", x: inner.x + 1, y: y, style: Theme.dim, clip: inner)
        y += 2
        let buttons = "[ Cancel ]      [ Continue ]"  // as in every dialog: the one that acts on the right
        buffer.put(buttons, x: inner.x + max(0, (inner.width - DisplayWidth.of(buttons)) / 2), y: min(y, inner.maxY - 2), style: Theme.heading, clip: inner)
        buffer.put("Enter continues · Esc cancels · ↑↓ chooses", x: inner.x + 1, y: inner.maxY - 1, style: Theme.dim, clip: inner)
    }
}
