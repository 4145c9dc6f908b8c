import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The upgrade's dialogs: progress, the service's step-up screen inside the
/// host's frame, the Sign in with Apple sheet, and the Messages inbox.
enum UpgradeViews {
    static func render(_ upgrade: UpgradeUI, _ state: AppState, into buffer: inout Buffer) {
        switch upgrade.state {
        case .authorising: progress(working[upgrade.request.kind] ?? "", upgrade, state, into: &buffer)
        case .verifying(let screen) where screen.method == .securityKey: SecurityKeyView.render(screen, upgrade, state, verifying: true, into: &buffer)
        case .verifying(let screen): stepUp(screen, upgrade, state, verifying: true, into: &buffer)
        case .exchanging:
            progress(upgrade.request.kind == .passkey ? "Registering the passkey with the service…" : "Finishing Sign in with Apple…", upgrade, state, into: &buffer)
        case .stepUp(let screen) where screen.method == .securityKey: SecurityKeyView.render(screen, upgrade, state, verifying: false, into: &buffer)
        case .stepUp(let screen): stepUp(screen, upgrade, state, verifying: false, into: &buffer)
        case .passkeySheet(let sheet): PasskeySheetView.render(sheet, into: &buffer)
        case .sheet(let sheet):
            self.sheet(sheet, purpose: "Use your Apple ID to upgrade your \(sheet.serviceName) account.", relay: upgrade.relay, into: &buffer)
        case .completed, .failed, .cancelled: break
        }
    }

    static let working: [UpgradeKind: String] = [
        .strongPassword: "Upgrading to a strong password…", .signInWithApple: "Asking to use Sign in with Apple…", .passkey: "Asking to use a passkey…",
    ]

    static func progress(_ text: String, _ upgrade: UpgradeUI, _ state: AppState, into buffer: inout Buffer) {
        let text = upgrade.cancelling ? "Cancelling: asking the service to stop…" : text
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 52), height: 5,
                                 title: Line(upgrade.title, Theme.title))
        Line([Span(Spinner.frames[state.spinner % Spinner.frames.count] + " ", Theme.key), Span(text)])
            .render(into: &buffer, x: inner.x, y: inner.y + 1, clip: inner)
    }

    /// The step-up screen: the service's content in a frame bulwark draws,
    /// titled with the service's name, Esc is Cancel.
    static func stepUp(_ screen: StepUpScreen, _ upgrade: UpgradeUI, _ state: AppState, verifying: Bool, into buffer: inout Buffer) {
        // An authenticator's code has one action under it, a texted one's two: the frame holds what it shows and no more.
        var (inner, y) = stepUpFrame(screen, heading: "Confirm it's you", height: screen.method == .totp ? 12 : 14, promptLines: 2, into: &buffer)
        var cells = Array(upgrade.code.text).map(String.init)
        while cells.count < 6 { cells.append("_") }
        buffer.put("Code  [ " + cells.joined(separator: " ") + " ]", x: inner.x + 1, y: y, style: Theme.heading, clip: inner)
        // A texted code expires; an authenticator's changes with its window (30 seconds, or the entry's own period).
        var left = Int(screen.expiresAt.timeIntervalSince(state.now).rounded(.down))
        var expiryText = left > 0 ? "code expires in \(left / 60):" + String(format: "%02d", left % 60) : "the code has expired"
        if screen.method == .totp {
            let period = state.entry(id: upgrade.request.entryID)?.totpURI.flatMap { try? OTPAuthURL.parse($0) }.flatMap { code -> Int? in
                if case .totp(let period) = code.kind { return period } else { return nil }
            } ?? 30
            left = period - Int(state.now.timeIntervalSince1970) % period
            expiryText = "the code changes in \(left)s"
        }
        let expiry = verifying ? Spinner.frames[state.spinner % Spinner.frames.count] + " checking…" : expiryText
        buffer.put(expiry, x: inner.maxX - DisplayWidth.of(expiry) - 1, y: y, style: left > 0 || verifying ? Theme.dim : Theme.warning, clip: inner)
        y += 2
        let keymap = Keymaps.stepUp(state, screen)
        func action(_ key: Character, _ text: String) -> Line {
            let binding = keymap.binding(for: .char(key))
            let off = binding?.disabledReason != nil
            return Line([Span("[\(key)] ", off ? Theme.dim : Theme.key), Span(text, off ? Theme.dim : .plain)])
        }
        let fromVault = state.entry(id: upgrade.request.entryID)?.totpURI != nil && screen.method == .totp
        let count = state.snapshot.messages.count { DomainBoundCode.parse(message: $0.body)?.isOffered(forSite: screen.domain) == true }
        // Each action line is a button too.
        // An authenticator's code comes from the vault; a texted one from Messages, and can be sent again.
        let actions = screen.method == .totp ? [("f", "Fill from bulwark" + (fromVault ? " (\(screen.serviceName) code)" : ""))]
            : [("m", "Fill from Messages" + (count > 0 ? " (\(count) new)" : "")), ("r", "Send a new code")]
        for (key, text) in actions {
            let line = action(Character(key), text)
            line.render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
            buffer.addHotspot(Rect(x: inner.x + 1, y: y, width: line.width, height: 1), .key(.char(Character(key))))
            y += 1
        }
        // The attempts left, once: in the service's message when it says them, else on their own line.
        if let message = screen.message {
            buffer.put(message, x: inner.x + 1, y: y, style: Theme.warning, clip: inner)
            if !message.contains("attempt") {
                y += 1
                buffer.put("\(screen.attemptsLeft) \(screen.attemptsLeft == 1 ? "attempt" : "attempts") left", x: inner.x + 1, y: y, style: Theme.dim, clip: inner)
            }
        } else {
            buffer.put("\(screen.attemptsLeft) \(screen.attemptsLeft == 1 ? "attempt" : "attempts") left", x: inner.x + 1, y: y, style: Theme.dim, clip: inner)
        }
    }

    /// The frame bulwark draws around a service's step-up screen (titled with
    /// the service, Esc is Cancel), its heading and prompt; returns the inner
    /// area and the row after the prompt's blank line.
    static func stepUpFrame(_ screen: StepUpScreen, heading: String, height: Int, promptLines: Int, into buffer: inout Buffer) -> (Rect, Int) {
        stepUpFrame(title: screen.serviceName, heading: heading, prompt: screen.prompt, height: height, promptLines: promptLines, into: &buffer)
    }

    /// The same frame for any second factor (an identity provider's, in a web sign-in).
    static func stepUpFrame(title: String, heading: String, prompt: String, height: Int, promptLines: Int, into buffer: inout Buffer) -> (Rect, Int) {
        let inner = Modal.render(into: &buffer, within: buffer.area, width: min(buffer.width - 4, 78), height: min(buffer.height - 2, height),
                                 title: Line(title, Theme.title), rightTitle: Line("Esc Cancel", Theme.dim), border: .square)
        var y = inner.y + 1
        buffer.put(heading, x: inner.x + 1, y: y, style: Theme.heading, clip: inner)
        y += 1
        for text in TextWrap.wrap(prompt, width: max(1, inner.width - 2)).prefix(promptLines) {
            buffer.put(text, x: inner.x + 1, y: y, clip: inner)
            y += 1
        }
        return (inner, y + 1)
    }

    /// The host's Sign in with Apple sheet.
    static func sheet(_ sheet: SignInWithAppleSheet, purpose: String, relay: String?, into buffer: inout Buffer) {
        let width = min(buffer.width - 4, 72)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: 12, title: Line("Sign in with Apple", Theme.title))
        var y = inner.y + 1
        buffer.put(purpose, x: inner.x + 1, y: y, clip: inner)
        y += 2
        // Only what the service asks for is on the sheet (its manifest's scopes); what it does not ask for is said once.
        if sheet.scopes.contains(.fullName) {
            Line([Span("NAME    ", Theme.label), Span(sheet.fullName)]).render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
            y += 1
        }
        if sheet.asksForEmail {
            Line([Span("EMAIL   ", Theme.label), Span(sheet.hideEmail ? "( ) " : "(•) ", Theme.key), Span("Share My Email  "), Span(sheet.sharedEmail, Theme.dim)])
                .render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
            y += 1
            // The relay address beside Hide My Email, and under it the real address the relay forwards to.
            Line([Span("        "), Span(sheet.hideEmail ? "(•) " : "( ) ", Theme.key), Span("Hide My Email   "),
                  Span(relay ?? "a private relay address", Theme.dim)])
                .render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
            y += 1
            Line([Span("            forward to: " + sheet.sharedEmail, Theme.dim)])
                .render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
            y += 1
        }
        if let unasked = Self.unasked(sheet) {
            buffer.put(unasked, x: inner.x + 1, y: y, style: Theme.dim, clip: inner)
            y += 1
        }
        y = max(y + 1, inner.y + 8)
        let buttons = "[ Cancel ]      [ Continue ]"  // as in every dialog: the one that acts on the right
        buffer.put(buttons, x: inner.x + max(0, (inner.width - DisplayWidth.of(buttons)) / 2), y: y, style: Theme.heading, clip: inner)
        buffer.put(sheet.asksForEmail ? "Enter continues · Esc cancels · ↑↓ chooses the e-mail" : "Enter continues · Esc cancels",
                   x: inner.x + 1, y: y + 1, style: Theme.dim, clip: inner)
    }

    /// What the service does not ask for, in a line; nil when it asks for both.
    static func unasked(_ sheet: SignInWithAppleSheet) -> String? {
        switch (sheet.scopes.contains(.fullName), sheet.asksForEmail) {
        case (true, true): nil
        case (false, true): "\(sheet.serviceName) does not ask for your name."
        case (true, false): "\(sheet.serviceName) does not ask for your e-mail."
        case (false, false): "\(sheet.serviceName) asks for neither your name nor your e-mail."
        }
    }

    /// The in-app Messages inbox, newest first.
    static func renderMessages(_ state: AppState, into buffer: inout Buffer) {
        let messages = state.snapshot.messages
        let width = min(buffer.width - 4, 72), height = min(buffer.height - 2, 14)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: height,
                                 title: Line("Messages", Theme.title), rightTitle: Line("Esc back", Theme.dim))
        let listArea = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: max(0, inner.height / 2 - 1))
        ListView(count: messages.count, row: { index in
            let message = messages[index]
            return Line([Span(DisplayWidth.pad(message.sender, to: 16), Theme.heading),
                         Span(message.body.split(separator: "\n").first.map(String.init) ?? "")])
        }, scroll: state.messageList, selectionStyle: Theme.selection, emptyText: "No messages.", id: .messages).render(into: &buffer, area: listArea)
        if messages.indices.contains(state.messageList.selected) {
            let body = Rect(x: inner.x, y: listArea.maxY + 1, width: inner.width, height: max(0, inner.maxY - listArea.maxY - 1))
            Paragraph(messages[state.messageList.selected].body, style: Theme.dim).render(into: &buffer, area: body)
        }
    }
}
