import BulwarkCore
import BulwarkUpgrades
import Foundation

/// The host's passkey sheet: a service asked for a passkey, and the person
/// saves it (or not). Drawn by bulwark, as a browser draws its own.
enum PasskeySheetView {
    static func render(_ sheet: PasskeySheet, into buffer: inout Buffer) {
        let width = min(buffer.width - 4, 66), textWidth = max(1, width - 6)
        // Every line of it wraps; the sheet is as tall as its words (the buttons never cut off).
        let heading = TextWrap.wrap("Save a passkey for \(sheet.userName) on \(sheet.rpID)?", width: textWidth)
        let why = TextWrap.wrap("\(sheet.serviceName) will sign \(sheet.userName) in with it instead of the password, which stops working there. bulwark keeps the passkey in this vault, sealed like a password.", width: textWidth)
        // Rows: a blank, the heading, a blank, the words, a blank, user, site, a blank, the buttons.
        // Where the window is too short the first blank goes, then the words are cut, never the buttons.
        let room = buffer.height - 4  // inside the frame, with the footer left visible
        let top = heading.count + why.count + 7 > room ? 0 : 1
        let overflow = max(0, heading.count + why.count + 6 + top - room)
        let words = Array(why.prefix(max(1, why.count - overflow)))
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: heading.count + words.count + 6 + top + 2,
                                 title: Line("Passkey", Theme.title))
        var y = inner.y + top
        for text in heading { buffer.put(text, x: inner.x + 1, y: y, style: Theme.heading, clip: inner); y += 1 }
        y += 1
        for text in words { buffer.put(text, x: inner.x + 1, y: y, clip: inner); y += 1 }
        y += 1
        let name = sheet.userDisplayName.isEmpty || sheet.userDisplayName == sheet.userName ? sheet.userName : "\(sheet.userName) (\(sheet.userDisplayName))"
        Line([Span("USER    ", Theme.label), Span(name)]).render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
        Line([Span("SITE    ", Theme.label), Span(sheet.rpID)]).render(into: &buffer, x: inner.x + 1, y: y + 1, clip: inner)
        let buttons = "[ Cancel ]      [ Save ]"  // as in every dialog: the one that acts on the right
        buffer.put(buttons, x: inner.x + max(0, (inner.width - DisplayWidth.of(buttons)) / 2), y: y + 3, style: Theme.heading, clip: inner)
    }
}

extension PasskeySheetView {
    /// Signing in with a passkey: the sheet names the site and the account first.
    static func renderSignIn(_ state: AppState, into buffer: inout Buffer) {
        guard let entry = state.entry(id: state.focusEntryID), let rpID = state.passkeyRelyingParty(for: entry) else { return }
        let passkey = entry.passkeys.first { Domain.normalize($0.rpID) == rpID }
        let width = min(buffer.width - 4, 66)
        let inner = Modal.render(into: &buffer, within: buffer.area, width: width, height: 9, title: Line("Passkey", Theme.title))
        buffer.put("Sign in to \(rpID) with your passkey?", x: inner.x + 1, y: inner.y + 1, style: Theme.heading, clip: inner)
        Line([Span("USER    ", Theme.label), Span(passkey?.userName ?? entry.username)]).render(into: &buffer, x: inner.x + 1, y: inner.y + 3, clip: inner)
        Line([Span("SAVED   ", Theme.label), Span("in \(entry.title), " + (passkey.map { EntryDetail.day($0.created) } ?? ""))])
            .render(into: &buffer, x: inner.x + 1, y: inner.y + 4, clip: inner)
        let buttons = "[ Cancel ]      [ Sign in ]"
        buffer.put(buttons, x: inner.x + max(0, (inner.width - DisplayWidth.of(buttons)) / 2), y: inner.y + 6, style: Theme.heading, clip: inner)
    }
}

/// A security-key step-up inside the host's frame (titled with the
/// service, Esc is Cancel): the passkey the vault keeps for the service,
/// or a USB key through libfido2.
enum SecurityKeyView {
    static func render(_ screen: StepUpScreen, _ upgrade: UpgradeUI, _ state: AppState, verifying: Bool, into buffer: inout Buffer) {
        var (inner, y) = UpgradeViews.stepUpFrame(screen, heading: "Confirm it's you with a security key", height: 12, promptLines: 3, into: &buffer)
        let keymap = Keymaps.stepUp(state, screen)
        let entry = state.entry(id: upgrade.request.entryID)
        let usb = upgrade.securityKeys.map { $0.first.map { "Use the USB key (\($0))" } ?? "Use a USB security key (none is plugged in)" }
            ?? "Use a USB security key (looking…)"
        for (key, label, text) in [(Key.enter, "Enter", "Use the passkey in bulwark" + (entry.map { " (\($0.username))" } ?? "")),
                                   (Key.char("s"), "s", usb)] {
            let off = keymap.binding(for: key)?.disabledReason != nil
            let line = Line([Span("[\(label)] ", off ? Theme.dim : Theme.key), Span(text, off ? Theme.dim : .plain)])
            line.render(into: &buffer, x: inner.x + 1, y: y, clip: inner)
            buffer.addHotspot(Rect(x: inner.x + 1, y: y, width: line.width, height: 1), .key(key))
            y += 1
        }
        y += 1
        let status = verifying ? Spinner.frames[state.spinner % Spinner.frames.count] + " checking the key…"
            : "\(screen.attemptsLeft) \(screen.attemptsLeft == 1 ? "attempt" : "attempts") left"
        buffer.put(status, x: inner.x + 1, y: y, style: Theme.dim, clip: inner)
        if let message = screen.message {
            for text in TextWrap.wrap(message, width: max(1, inner.width - 2)).prefix(2) {
                y += 1
                buffer.put(text, x: inner.x + 1, y: y, style: Theme.warning, clip: inner)
            }
        }
    }
}
