import BulwarkCore
import BulwarkUpgrades

extension Dialogs {
    /// Sign up with Apple: the services that offer it, then the same sheet an upgrade shows.
    static func renderSignUp(_ state: AppState, into buffer: inout Buffer) {
        guard let signUp = state.signUp else { return }
        if let sheet = signUp.sheet {
            UpgradeViews.sheet(sheet, purpose: "Use your Apple ID to sign up at \(sheet.serviceName). No password is made.",
                               relay: signUp.relay, into: &buffer)
            return
        }
        if let existing = signUp.existing, let service = signUp.chosen {
            let width = min(buffer.width - 4, 64)
            let text = Paragraph("The vault holds an account at \(service.name) already: \(existing[0].said)"
                                 + (existing.count > 1 ? " and \(existing.count - 1) more" : "") + ". Upgrading it to Sign in with Apple "
                                 + "keeps one account; signing up again would make a second one the service cannot tell apart.")
            let lines = min(6, text.layout(width: width - 4).count)
            let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: lines + 4,
                                     title: Line("Sign up with Apple at \(service.name)", Theme.title))
            text.render(into: &buffer, area: Rect(x: inner.x, y: inner.y, width: inner.width, height: lines))
            Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                          hints: Keymaps.signUp(state).footerHints, keyStyle: Theme.key)
            return
        }
        let height = min(buffer.height - 2, max(8, signUp.services.count + 6))
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 60), height: height,
                                 title: Line("Sign up with Apple", Theme.title), rightTitle: Line("Esc cancel", Theme.dim))
        Paragraph("A new account that signs in with your Apple ID.", style: Theme.dim)
            .render(into: &buffer, area: Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: 1))
        let list = Rect(x: inner.x, y: inner.y + 3, width: inner.width, height: max(0, inner.maxY - inner.y - 4))
        ListView(count: signUp.services.count, row: { index in
            let service = signUp.services[index]
            return Line([Span(DisplayWidth.pad(service.name, to: 20), Theme.heading), Span(service.domain, Theme.dim)])
        }, scroll: signUp.list, selectionStyle: Theme.selection, emptyText: "No service offers Sign in with Apple.", id: .signUp).render(into: &buffer, area: list)
        Footer.render(into: &buffer, area: Rect(x: inner.x, y: inner.maxY - 1, width: inner.width, height: 1),
                      hints: Keymaps.signUp(state).footerHints, keyStyle: Theme.key)
    }
}
