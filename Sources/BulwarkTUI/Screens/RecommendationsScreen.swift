import BulwarkCore
import BulwarkUpgrades

/// Security Recommendations: counts at the top, then High Priority and
/// Other on the left, and the selected one's accounts, reasons and actions
/// on the right.
enum RecommendationsScreen {
    static let leftPercent = 46

    enum Row: Equatable { case header(String), item(Int) }

    /// Section headers among the items (the report is ranked, so High
    /// Priority comes first; the hidden ones last, when shown). Worked out
    /// by arithmetic for the rows on screen: a 100k list is never built.
    struct Rows {
        let high: Int, all: Int, hidden: Int

        init(_ state: AppState) {
            if let order = state.fixableOrder {
                self.init(high: order.high, all: order.all, hidden: order.hidden)
            } else {
                let report = state.snapshot.report
                self.init(high: report.highPriorityCount, all: report.recommendations.count,
                          hidden: state.showHidden ? report.hidden.count : 0)
            }
        }

        init(high: Int, all: Int, hidden: Int) {
            self.high = high
            self.all = all
            self.hidden = hidden
        }

        private var highHeader: Int { high > 0 ? 1 : 0 }
        private var otherHeader: Int { all > high ? 1 : 0 }
        private var hiddenStart: Int { highHeader + high + otherHeader + (all - high) }
        var count: Int { hiddenStart + (hidden > 0 ? 1 + hidden : 0) }

        subscript(row: Int) -> Row {
            if row < highHeader { return .header("HIGH PRIORITY (\(high))") }
            if row < highHeader + high { return .item(row - highHeader) }
            if row < hiddenStart {
                let index = row - highHeader - otherHeader
                return index < high ? .header("OTHER (\(all - high))") : .item(index)
            }
            return row == hiddenStart ? .header("HIDDEN (\(hidden))") : .item(all + row - hiddenStart - 1)
        }

        /// The row showing an item.
        func row(ofItem item: Int) -> Int {
            if item < high { return highHeader + item }
            if item < all { return highHeader + otherHeader + item }
            return hiddenStart + 1 + (item - all)
        }
    }

    static func render(_ state: AppState, chrome: Chrome, into buffer: inout Buffer) {
        let body = chrome.body
        let report = state.snapshot.report
        renderSummary(report, analysis: state.snapshot.analysis, area: Rect(x: body.x + 1, y: body.y, width: body.width - 2, height: 2), into: &buffer)
        let ruleY = body.y + 2
        buffer.put("├" + String(repeating: "─", count: max(0, chrome.outer.width - 2)) + "┤", x: chrome.outer.x, y: ruleY, style: Theme.border)
        let lower = Rect(x: body.x, y: ruleY + 1, width: body.width, height: max(0, body.maxY - ruleY - 1))
        let columns = Layout.split(lower, .horizontal, [.percent(leftPercent), .fixed(1), .fill])
        if columns[1].width == 1 {
            for y in lower.y..<lower.maxY { buffer.put("│", x: columns[1].x, y: y, style: Theme.border) }
            buffer.put("┬", x: columns[1].x, y: ruleY, style: Theme.border)
            buffer.put("┴", x: columns[1].x, y: chrome.separatorRow, style: Theme.border)
        }
        let left = columns[0].inset(horizontal: 1, vertical: 0), right = columns[2].inset(horizontal: 1, vertical: 0)
        renderList(state, area: left, into: &buffer)
        if let recommendation = state.selectedRecommendation {
            renderDetail(recommendation, state, area: right, into: &buffer)
        }
    }

    static func renderSummary(_ report: RecommendationsReport, analysis: SessionSnapshot.AnalysisProgress?, area: Rect, into buffer: inout Buffer) {
        var spans: [Span] = []
        for severity in Severity.allCases.reversed() {
            spans.append(Span("\(report.count(severity)) \(severity.label)", report.count(severity) > 0 ? Theme.severityStyle(severity) : Theme.dim))
            spans.append(Span("  "))
        }
        Line(spans).render(into: &buffer, x: area.x, y: area.y, clip: area)
        // A large vault's analysis under way: how far, in place of the kinds (the list fills in meanwhile).
        if let analysis {
            let percent = analysis.total == 0 ? 100 : analysis.done * 100 / analysis.total
            let text = "Analysing… \(Count.grouped(analysis.done)) of \(Count.grouped(analysis.total)) accounts (\(percent)%); the list fills in as it goes"
            buffer.put(text, x: area.x, y: area.y + 1, style: Theme.warning, clip: area)
            return
        }
        let kinds = "breached \(report.count(.breached)) · reused \(report.count(.reused)) · weak \(report.count(.weak))"
            + " · other \(report.otherKindsOnly) · hidden \(report.hidden.count)"
        buffer.put(kinds, x: area.x, y: area.y + 1, style: Theme.dim, clip: area)
    }

    /// A row's short reason: the worst warning in a few words.
    static func shortReason(_ r: Recommendation) -> String {
        let words = r.warnings.prefix(2).map { warning -> String in
            switch warning {
            case .breached(let count, _): count > 0 ? "breached" : "common password"
            case .weak(_, "common-password", _) where r.kinds.contains(.breached): "weak"
            case .reused(let group): "reused (\(group.otherCount + 1))"
            case .weak(_, let pattern, _): "weak: " + pattern.replacingOccurrences(of: "-", with: " ")
            case .insecureURL: "insecure (http)"
            case .old(_, let days): days >= 730 ? "old (\(days / 365) years)" : "old (\(days / 30) months)"
            case .noTwoFactor: "no 2FA code"
            case .passkeyAvailable: "passkey available"
            case .identityProvider(let accounts): "signs in \(accounts.count) other\(accounts.count == 1 ? "" : "s")"
            }
        }
        return words.joined(separator: ", ")
    }

    static func renderList(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        let report = state.snapshot.report
        guard state.shownRecommendationCount > 0 else {
            let empty = state.snapshot.analysis != nil ? "Analysing the vault's passwords; what is found appears here."
                : state.fixableOnly && !report.recommendations.isEmpty
                ? "None of these can be fixed with one key here. F lists them all again."
                : "Nothing to do: no breached, reused or weak passwords."
            Paragraph(empty, style: Theme.dim).render(into: &buffer, area: area)
            return
        }
        let rows = Rows(state)
        let selectedRow = rows.row(ofItem: state.recommendationList.selected)
        // Keep the selection in view, the window moved as little as it must
        // (its offset counts rows, section headings included).
        var offset = ListScroll(selected: selectedRow, offset: state.recommendationList.offset).visibleOffset(height: area.height, count: rows.count)
        // The first item of a section is seen under its heading.
        if offset == selectedRow, offset > 0, case .header = rows[offset - 1] { offset -= 1 }
        buffer.listWindows[.recommendations] = ListWindow(offset: offset, rows: area.height)
        let titleWidth = min(20, max(8, (area.width - 8) / 2))
        for line in 0..<min(area.height, max(0, rows.count - offset)) {
            let y = area.y + line
            switch rows[offset + line] {
            case .header(let text):
                buffer.put(text, x: area.x, y: y, style: Theme.heading, clip: area)
            case .item(let index):
                guard let r = state.shownRecommendation(at: index) else { continue }
                let text = Line([
                    Span(Theme.severityMark(r.severity) + " ", Theme.severityStyle(r.severity)),
                    Span(state.isFixable(r) ? Theme.fixableMark + " " : "  ", Theme.key),
                    Span(DisplayWidth.pad(r.entry.title, to: titleWidth) + " "),
                    Span(DisplayWidth.truncate(shortReason(r), to: max(0, area.width - titleWidth - 10)), Theme.dim),
                ])
                text.render(into: &buffer, x: area.x, y: y, clip: area)
                buffer.addHotspot(Rect(x: area.x, y: y, width: area.width, height: 1), .row(.recommendations, index))
                if index == state.recommendationList.selected {
                    buffer.applyStyle(Theme.selection, to: Rect(x: area.x, y: y, width: area.width, height: 1))
                }
            }
        }
    }

    static func renderDetail(_ r: Recommendation, _ state: AppState, area: Rect, into buffer: inout Buffer) {
        var y = area.y
        let word: String = switch r.severity {
        case .critical: "‼ CRITICAL"
        case .high: "! HIGH"
        case .medium: "· MEDIUM"
        case .low: "· LOW"
        }
        Line([Span(word + "  ", Theme.severityStyle(r.severity)),
              Span(DisplayWidth.truncate(r.entry.title, to: max(0, area.width - DisplayWidth.of(word) - 2)), Theme.heading)])
            .render(into: &buffer, x: area.x, y: y, clip: area)
        y += 1
        let hiddenNote = r.hidden ? "hidden" + (r.hiddenUntil.map { " until " + EntryDetail.day($0) } ?? "") : ""
        // Values too wide for the pane end in "…", never cut mid-word without a mark.
        buffer.put(DisplayWidth.truncate([r.username, r.entry.site, hiddenNote].filter { !$0.isEmpty }.joined(separator: " · "), to: area.width),
                   x: area.x, y: y, style: Theme.dim, clip: area)
        y += 2
        // The actions, from the same table that handles the keys, keep their
        // rows at the bottom when the pane has room for them and two lines
        // of findings; findings that do not fit above them end in a line
        // that says so, never out of sight without a word.
        let actions = Keymaps.recommendations(state).bindings.filter { [.char("P"), .char("u"), .char("a"), .char("w"), .char("h"), .enter].contains($0.keys[0]) }
        let reserved = area.maxY - y >= actions.count + 3
        // Too low for that: the findings, then the actions that fit, the last row kept to say where the rest are.
        let findingsEnd = reserved ? area.maxY - actions.count - 1 : area.maxY - 1
        var cut = false
        for warning in r.warnings {
            for text in TextWrap.wrap(warning.reason, width: max(1, area.width)) {
                guard y < findingsEnd else { cut = true; break }
                buffer.put(text, x: area.x, y: y, clip: area)
                y += 1
            }
            if case .reused(let group) = warning {
                let room = max(0, min(findingsEnd - y, area.maxY - y - 6))
                if group.others.count > room { cut = true }
                for other in group.others.prefix(room) {
                    buffer.put(DisplayWidth.truncate("  " + other.title + (other.site.isEmpty ? "" : " · " + other.site), to: area.width),
                               x: area.x, y: y, style: Theme.dim, clip: area)
                    y += 1
                }
            }
            y += 1
        }
        if cut, reserved {
            let row = findingsEnd - 1
            buffer.fill(Rect(x: area.x, y: row, width: area.width, height: 1))
            buffer.put(DisplayWidth.truncate("… more: Enter opens the entry", to: area.width), x: area.x, y: row, style: Theme.dim, clip: area)
        }
        y = reserved ? area.maxY - actions.count : min(y, findingsEnd)
        let labels: [Key: String] = [.enter: "Open the entry", .char("P"): "Upgrade to a passkey", .char("u"): "Upgrade to strong password",
                                     .char("a"): "Use Sign in with Apple",
                                     .char("w"): "Change password on website", .char("h"): r.hidden ? "Show it again" : "Hide this recommendation"]
        let shown = area.maxY - y >= actions.count ? actions.count : max(0, area.maxY - y - 1)
        if shown < actions.count, y < area.maxY {
            buffer.put(DisplayWidth.truncate(cut ? "… Enter shows the rest" : "… ? shows every key", to: area.width),
                       x: area.x, y: area.maxY - 1, style: Theme.dim, clip: area)
        }
        for binding in actions.prefix(shown) {
            let key = "[\(binding.keys[0].description)] "
            let label = labels[binding.keys[0]] ?? binding.help
            if binding.disabledReason != nil {
                // The reason is in the help overlay, and in the status line when the key is pressed.
                Line([Span(key, Theme.dim), Span(label + " (n/a)", Theme.dim)]).render(into: &buffer, x: area.x, y: y, clip: area)
            } else {
                Line([Span(key, Theme.key), Span(label)]).render(into: &buffer, x: area.x, y: y, clip: area)
                buffer.addHotspot(Rect(x: area.x, y: y, width: DisplayWidth.of(key + label), height: 1), .key(binding.keys[0]))
            }
            y += 1
        }
    }
}
