import BulwarkCore
import Foundation

/// The vault: the list of entries on the left (with a warning marker), the
/// selected entry on the right.
enum VaultScreen {
    static let leftPercent = 42

    static func hasHeader(_ state: AppState) -> Bool {
        state.search != nil || !state.filter.query.isEmpty || state.filter.category != nil || state.filter.tag != nil || state.filter.order != .title
    }

    static func render(_ state: AppState, chrome: Chrome, into buffer: inout Buffer) {
        let (left, right) = chrome.splitPanes(into: &buffer, leftPercent: leftPercent)
        var listArea = left
        if hasHeader(state) {
            renderHeader(state, area: Rect(x: left.x, y: left.y, width: left.width, height: 1), into: &buffer)
            listArea = Rect(x: left.x, y: left.y + 1, width: left.width, height: max(0, left.height - 1))
        }
        renderList(state, area: listArea, into: &buffer)
        if state.snapshot.entries.isEmpty {
            renderEmptyVault(area: right, into: &buffer)
        } else {
            EntryDetail.render(state.selectedEntry, state, area: right, into: &buffer)
        }
    }

    /// A new vault says how to fill it.
    static func renderEmptyVault(area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.put("Your vault is empty", x: area.x, y: area.y, style: Theme.heading, clip: area)
        Paragraph(lines: [
            Line([Span("n", Theme.key), Span(" adds an entry (Ctrl-G in the form makes a strong password).")]),
            Line(""),
            Line([Span("bulwark import FILE", Theme.key),
                  Span(" brings in another password manager's export: Chrome, Firefox, Safari, Bitwarden, 1Password, LastPass or a KeePass database.")]),
            Line(""),
            Line([Span("N", Theme.key), Span(" signs up at a service with Apple.")]),
        ]).render(into: &buffer, area: Rect(x: area.x, y: area.y + 2, width: area.width, height: max(0, area.height - 2)))
    }

    static func renderHeader(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        if let field = state.search {
            buffer.put("/ ", x: area.x, y: area.y, style: Theme.key, clip: area)
            field.render(into: &buffer, area: Rect(x: area.x + 2, y: area.y, width: max(0, area.width - 2), height: 1), focused: true)
            return
        }
        var parts: [String] = []
        if !state.filter.query.isEmpty { parts.append("“\(state.filter.query)”") }
        if let category = state.filter.category { parts.append(category.label) }
        if let tag = state.filter.tag { parts.append("#" + tag) }
        if state.filter.order != .title { parts.append("by \(state.filter.order.rawValue)") }
        buffer.put("Showing \(state.visible.count): " + parts.joined(separator: " · "), x: area.x, y: area.y, style: Theme.dim, clip: area)
    }

    /// Rows cut to `width` cells; the last column stays free for the scrollbar.
    static func listRow(_ entry: Entry, severity: Severity?, width: Int) -> Line {
        let usable = max(0, width - 1)
        let titleWidth = min(24, max(8, usable * 11 / 20))
        return Line([
            Span(Theme.severitySymbol(severity) + " ", severity.map(Theme.severityStyle) ?? .plain),
            Span(DisplayWidth.pad(entry.title, to: titleWidth) + " "),
            Span(DisplayWidth.truncate(entry.username, to: max(0, usable - titleWidth - 3)), Theme.dim),
        ])
    }

    static func renderList(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        let entries = state.snapshot.entries, visible = state.visible, report = state.snapshot.report
        ListView(count: visible.count, row: {
                     listRow(entries[visible[$0]], severity: report.recommendation(forEntry: entries[visible[$0]].id)?.severity, width: area.width)
                 },
                 scroll: state.list, selectionStyle: Theme.selection,
                 emptyText: entries.isEmpty ? "No entries yet." : "Nothing matches.", id: .vault)
            .render(into: &buffer, area: area)
    }
}

/// One entry's fields, its code, its history and what is wrong with it.
enum EntryDetail {
    static let labelWidth = 11

    static func render(_ entry: Entry?, _ state: AppState, area: Rect, into buffer: inout Buffer) {
        guard let entry, !area.isEmpty else { return }
        var y = area.y
        buffer.put(DisplayWidth.truncate(entry.title, to: area.width), x: area.x, y: y, style: Theme.heading, clip: area)
        y += 2
        func field(_ label: String, _ value: Line) {
            guard y < area.maxY else { return }
            // A value longer than the pane ends in "…" rather than cut short without a sign.
            var value = value
            if value.width > area.width - labelWidth, value.spans.count == 1 {
                value = Line(DisplayWidth.truncate(value.plainText, to: max(0, area.width - labelWidth)), value.spans[0].style)
            }
            // A long custom field name is cut so that it never runs into its value.
            buffer.put(DisplayWidth.pad(DisplayWidth.truncate(label, to: labelWidth - 1), to: labelWidth), x: area.x, y: y, style: Theme.label, clip: area)
            value.render(into: &buffer, x: area.x + labelWidth, y: y, clip: area)
            y += 1
        }
        // A note, a card or an identity shows a username or website only when it has one.
        if entry.kind == .login || !entry.username.isEmpty { field("Username", Line(entry.username.isEmpty ? "—" : entry.username)) }
        if entry.kind == .login || !entry.urls.isEmpty { field("Website", Line(entry.urls.first ?? "—")) }
        if let link = entry.signInWithApple {
            // Short enough for an 80-column detail: "signed out" is what matters.
            field("Sign-in", link.isSignedOut ? Line("Apple, signed out (\(link.state.rawValue))", Theme.warning)
                                              : Line("Sign in with Apple (\(link.state.rawValue))", Theme.success))
            field("E-mail", Line(link.email + (link.isPrivateRelay ? " (hidden)" : "")))
            if !link.emailForwarding {
                field("Relay", Line("not forwarding: turned off in the Apple ID's settings", Theme.warning))
            }
        } else if let password = entry.password {
            field("Password", state.revealed ? Line(password) : Line(String(repeating: "•", count: 10) + "  v reveals", Theme.dim))
        }
        if let uri = entry.totpURI, let config = try? OTPAuthURL.parse(uri) {
            let seconds = Int64(state.now.timeIntervalSince1970)
            if case .totp(let period) = config.kind {
                let remaining = OneTimePassword.secondsRemaining(at: seconds, period: period)
                let code = config.code(at: seconds)
                let bar = ProgressBar.text(ratio: Double(remaining) / Double(period), width: 10)
                var spans = [Span(spaced(code), Theme.heading), Span("  \(bar) \(remaining)s", Theme.dim)]
                if remaining <= 5, let next = config.nextCode(at: seconds) { spans.append(Span("  next \(spaced(next))", Theme.dim)) }
                field("Code", Line(spans))
            } else {
                field("Code", Line(spaced(config.code(at: seconds)), Theme.heading))
            }
        }
        // The site first: at 80 columns a long user name is what gets cut.
        for passkey in entry.passkeys { field("Passkey", Line("\(passkey.rpID) · \(passkey.userName)")) }
        if let issuer = entry.signsInWith {
            let name = state.snapshot.catalog.provider(issuer: issuer)?.name
            field("Signs in", Line("through " + (name ?? Domain.normalize(issuer))))
        }
        if entry.kind != .login { field("Kind", Line(entry.kind.label)) }
        for custom in entry.fields {
            // Hidden fields stay masked: the reveal key shows the password only.
            field(custom.name, custom.hidden ? Line(String(repeating: "•", count: 8), Theme.dim) : Line(custom.value))
        }
        field("Category", Line(entry.category.label))
        if !entry.tags.isEmpty { field("Tags", Line(entry.tags.joined(separator: ", "))) }
        field("Changed", Line(Self.day(entry.passwordChanged)))
        if let expires = entry.expires {
            field("Expires", expires <= state.now ? Line(Self.day(expires) + " (expired)", Theme.warning) : Line(Self.day(expires)))
        }
        if !entry.notes.isEmpty { field("Notes", Line(entry.notes.split(separator: "\n").first.map(String.init) ?? "")) }
        // Each file the entry holds, by name and size (`bulwark attachment get` saves one).
        for file in entry.attachments { field("File", Line([Span(file.name), Span("  " + ByteSize.text(file.size), Theme.dim)])) }
        if !entry.history.isEmpty {
            // Short enough for an 80-column detail: the dates and reasons are in the history view.
            let count = entry.history.count
            field("History", Line([Span("\(count) old password\(count == 1 ? "" : "s")  "), Span("h", Theme.key),
                                   Span(" shows \(count == 1 ? "it" : "them")", Theme.dim)]))
        }
        if let recommendation = state.snapshot.report.recommendation(forEntry: entry.id) {
            y += 1
            for warning in recommendation.warnings where y < area.maxY {
                let mark = Span(Theme.severitySymbol(recommendation.severity) + " ", Theme.severityStyle(recommendation.severity))
                let lines = TextWrap.wrap(warning.reason, width: max(1, area.width - 2))
                for (index, text) in lines.enumerated() where y < area.maxY {
                    Line([index == 0 ? mark : Span("  "), Span(text)]).render(into: &buffer, x: area.x, y: y, clip: area)
                    y += 1
                }
            }
        }
    }

    static func spaced(_ code: String) -> String {
        code.count == 6 ? String(code.prefix(3)) + " " + String(code.suffix(3)) : code
    }

    static func day(_ date: Date) -> String { CalendarDay.string(date) }
}
