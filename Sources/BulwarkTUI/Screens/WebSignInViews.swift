import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The web authentication session's sheets: the host's alert, then the
/// provider's own pages inside bulwark's browser frame (its address as the
/// title, Esc is Cancel), with the AutoFill bar on the login page.
enum WebSignInViews {
    static func render(_ web: WebSignInUI, _ state: AppState, into buffer: inout Buffer) {
        switch web.step {
        case .alert(let app, let domain): alert(app: app, domain: domain, ephemeral: web.ephemeral, into: &buffer)
        case .loginPage(let provider, let domain, let message): login(web, provider: provider, domain: domain, message: message, into: &buffer)
        case .secondFactor(let provider, let message): secondFactor(web, state, provider: provider, message: message, into: &buffer)
        case .consent(let provider, let app): consent(web, state, provider: provider, app: app, into: &buffer)
        case .signedIn, .failed, .cancelled: break
        }
    }

    /// "“Shiny” Wants to Use “id.nimbus.example” to Sign In", asked before anything is contacted.
    static func alert(app: String, domain: String, ephemeral: Bool, into buffer: inout Buffer) {
        let width = min(buffer.width - 4, 60), textWidth = max(1, width - 6)
        let heading = TextWrap.wrap("“\(app)” Wants to Use “\(domain)” to Sign In", width: textWidth)
        let body = TextWrap.wrap("\(app) will open \(domain)'s sign-in page; the site and the app will then share who you are.", width: textWidth)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: heading.count + body.count + 8, title: Line("Sign in", Theme.title))
        var y = inner.y + 1
        for line in heading { centre(line, y: y, style: Theme.heading, inner, &buffer); y += 1 }
        y += 1
        for line in body { centre(line, y: y, style: .plain, inner, &buffer); y += 1 }
        y += 1
        Line([Span("[p] ", Theme.key), Span("Private session: " + (ephemeral ? "on (no cookie kept or used)" : "off"), Theme.dim)])
            .render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
        centre("[ Cancel ]      [ Continue ]", y: y + 2, style: Theme.heading, inner, &buffer)
    }

    /// The frame every provider page sits in: the page's address, and Esc.
    static func frame(_ web: WebSignInUI, domain: String, height: Int, into buffer: inout Buffer) -> Rect {
        Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 66), height: min(buffer.height - 2, height),
                     title: Line("https://\(domain)" + (web.ephemeral ? "  (private)" : ""), Theme.title),
                     rightTitle: Line("Esc Cancel", Theme.dim), border: .square)
    }

    static func login(_ web: WebSignInUI, provider: String, domain: String, message: String?, into buffer: inout Buffer) {
        let inner = frame(web, domain: domain, height: 13, into: &buffer)
        var y = inner.y + 1
        buffer.put(provider, x: inner.x + 1, y: y, style: Theme.heading, clip: inner)
        buffer.put("Sign in to continue to \(web.title)", x: inner.x + 1, y: y + 1, clip: inner)
        y += 3
        // The form takes typing (an account the vault does not hold); the focused field shows its cursor.
        for (row, (label, field)) in [("E-mail    ", web.email), ("Password  ", web.password)].enumerated() {
            let focused = web.passwordFocused == (row == 1)
            buffer.put(label, x: inner.x + 1, y: y + row, style: focused ? Theme.key : Theme.label, clip: inner)
            let width = max(0, min(30, inner.maxX - inner.x - 13))
            buffer.put("[", x: inner.x + 11, y: y + row, style: Theme.dim, clip: inner)
            field.render(into: &buffer, area: Rect(x: inner.x + 12, y: y + row, width: width, height: 1), focused: focused, style: Style(underline: true))
            buffer.put("]", x: inner.x + 12 + width, y: y + row, style: Theme.dim, clip: inner)
        }
        buffer.put("[ Sign in ]", x: inner.x + 11, y: y + 3, style: Theme.heading, clip: inner)
        if let message { buffer.put(message, x: inner.x + 1, y: y + 4, style: Theme.warning, clip: inner) }
        // The AutoFill bar, as a keyboard's QuickType bar offers a saved account.
        let typed = !web.email.isEmpty || !web.password.isEmpty
        let bar = typed ? [Span("[Enter] ", Theme.key), Span("Sign in with what is typed")]
            : web.autoFill.map { [Span("[Enter] ", Theme.key), Span("AutoFill: use “\($0)”")] }
            ?? [Span("The vault holds no account for \(domain): type one", Theme.dim)]
        Line(bar).render(into: &buffer, x: inner.x + 1, y: inner.maxY - 1, clip: inner)
    }

    /// The provider's second factor in the step-up screen's own frame (titled with the provider, Esc is Cancel).
    static func secondFactor(_ web: WebSignInUI, _ state: AppState, provider: String, message: String?, into buffer: inout Buffer) {
        var (inner, y) = UpgradeViews.stepUpFrame(title: provider, heading: "Confirm it's you",
                                                  prompt: "Enter the 6-digit code from your authenticator for \(provider) (\(web.providerDomain ?? provider)).",
                                                  height: 12, promptLines: 2, into: &buffer)
        var cells = Array(web.code.text).map(String.init)
        while cells.count < 6 { cells.append("_") }
        buffer.put("Code  [ " + cells.joined(separator: " ") + " ]", x: inner.x + 1, y: y, style: Theme.heading, clip: inner)
        y += 2
        let keymap = Keymaps.webSignIn(state, web)
        let off = keymap.binding(for: .char("f"))?.disabledReason != nil
        let fill = Line([Span("[f] ", off ? Theme.dim : Theme.key), Span("Fill from bulwark", off ? Theme.dim : .plain)])
        fill.render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
        buffer.addHotspot(Rect(x: inner.x + 1, y: y, width: fill.width, height: 1), .key(.char("f")))
        if let message { buffer.put(message, x: inner.x + 1, y: y + 2, style: Theme.warning, clip: inner) }
    }

    static func consent(_ web: WebSignInUI, _ state: AppState, provider: String, app: String, into buffer: inout Buffer) {
        let inner = frame(web, domain: web.providerDomain ?? provider, height: 12, into: &buffer)
        let account = web.providerDomain.flatMap { WebAuthenticationSession.loginEntry(in: state.snapshot.entries, domain: $0)?.username }
        var y = inner.y + 1
        buffer.put("\(app) wants to use your \(provider) account", x: inner.x + 1, y: y, style: Theme.heading, clip: inner)
        if let account { buffer.put(account, x: inner.x + 1, y: y + 1, style: Theme.dim, clip: inner) }
        y += 3
        buffer.put("\(app) will get:", x: inner.x + 1, y: y, clip: inner)
        buffer.put("  · your e-mail address", x: inner.x + 1, y: y + 1, clip: inner)
        buffer.put("  · an identifier for you that stays the same", x: inner.x + 1, y: y + 2, clip: inner)
        centre("[ Don't allow ]      [ Allow ]", y: inner.maxY - 2, style: Theme.heading, inner, &buffer)
    }

    private static func centre(_ text: String, y: Int, style: Style, _ inner: Rect, _ buffer: inout Buffer) {
        buffer.put(text, x: inner.x + max(0, (inner.width - DisplayWidth.of(text)) / 2), y: y, style: style, clip: inner)
    }
}
