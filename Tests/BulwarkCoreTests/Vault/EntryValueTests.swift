import BulwarkCore
import Foundation
import Testing

/// An entry is a value although its fields live in a shared box: a copy
/// changed never changes the original (or another copy, on another thread),
/// equality is by fields, and a change to one field keeps the rest.
@Suite struct EntryValueTests {
    static func sample() -> Entry {
        var entry = Entry(id: "e1", title: "Bank", urls: ["https://bank.example"], username: "jane", password: "Old-pass-1",
                          notes: "n", tags: ["money"], created: Date(timeIntervalSince1970: 1_000_000))
        entry.fields = [CustomField(name: "PIN", value: "1234", hidden: true)]
        return entry
    }

    @Test func aChangedCopyLeavesTheOriginal() {
        let original = Self.sample()
        var copy = original
        #expect(copy == original)
        copy.changePassword(to: "New-pass-2", reason: "test", at: Date(timeIntervalSince1970: 2_000_000))
        copy.tags.append("second")
        copy.urls[0] = "https://other.example"
        copy.fields[0].value = "9999"
        #expect(original.password == "Old-pass-1" && original.history.isEmpty && original.tags == ["money"])
        #expect(original.urls == ["https://bank.example"] && original.fields[0].value == "1234")
        #expect(copy.password == "New-pass-2" && copy.history.map(\.password) == ["Old-pass-1"] && copy.tags == ["money", "second"])
        #expect(copy.urls == ["https://other.example"] && copy.fields[0].value == "9999")
        #expect(copy != original)
    }

    @Test func equalityIsByFieldsNotByBox() {
        let a = Self.sample(), b = Self.sample()
        #expect(a == b)
        var c = a
        c.title = "Bank"  // the same value written: a new box, still equal
        #expect(c == a)
        c.hiddenFromRecommendations = true
        #expect(c != a)
        var d = a
        d.signsInWith = "https://id.example"
        #expect(d != a && d.signsInWith == "https://id.example" && a.signsInWith == nil)
    }

    /// The fields most entries leave empty are kept apart: each stays beside
    /// the others when one changes, and emptied again the entry equals one
    /// that never had them.
    @Test func theRareFieldsKeepEachOtherAndEmptiedAreAsNeverSet() {
        let plain = Entry(id: "e2", title: "Shop", password: "pw", created: Date(timeIntervalSince1970: 1))
        var rich = plain
        rich.totpURI = "otpauth://totp/Shop?secret=JBSWY3DPEHPK3PXP"
        rich.hiddenUntil = Date(timeIntervalSince1970: 5)
        rich.signInWithApple = SignInWithAppleLink(user: "001.abc", email: "x@privaterelay.appleid.com", isPrivateRelay: true)
        rich.pendingChange = PendingChange(kind: .strongPassword, newPassword: "Next-1", startedAt: Date(timeIntervalSince1970: 6))
        rich.signsInWith = "https://id.example"
        rich.fields = [CustomField(name: "PIN", value: "1234", hidden: true)]
        rich.history = [PasswordHistoryItem(password: "Old-1", changedAt: Date(timeIntervalSince1970: 2), reason: "test")]
        #expect(rich.totpURI == "otpauth://totp/Shop?secret=JBSWY3DPEHPK3PXP" && rich.hiddenUntil == Date(timeIntervalSince1970: 5))
        #expect(rich.signInWithApple?.user == "001.abc" && rich.pendingChange?.newPassword == "Next-1")
        #expect(rich.signsInWith == "https://id.example" && rich.fields.count == 1 && rich.history.map(\.password) == ["Old-1"])
        #expect(plain.totpURI == nil && plain.hiddenUntil == nil && plain.signInWithApple == nil && plain.pendingChange == nil)
        #expect(plain.signsInWith == nil && plain.fields.isEmpty && plain.history.isEmpty && plain.passkeys.isEmpty)
        #expect(rich != plain)
        let kept = rich
        rich.totpURI = nil
        rich.hiddenUntil = nil
        rich.signInWithApple = nil
        rich.pendingChange = nil
        rich.signsInWith = nil
        rich.fields.removeAll()
        #expect(rich != plain && kept.totpURI != nil && kept.fields.count == 1)
        rich.history = []
        #expect(rich == plain && plain == rich)
    }

    /// The first URL is held apart from the rest: none, one and several
    /// read back as set, an empty URL is still a URL, and the site and the
    /// first URL come from the first.
    @Test func urlsReadBackAsSetWhateverTheirNumber() {
        var entry = Self.sample()
        for urls in [[], ["https://a.example"], [""], ["http://b.example", "https://c.example", "https://d.example"]] as [[String]] {
            let before = entry
            entry.urls = urls
            #expect(entry.urls == urls)
            #expect(entry.firstURL == urls.first && entry.urlsAfterTheFirst == Array(urls.dropFirst()))
            #expect(entry.site == (urls.first.map(Domain.normalize) ?? ""))
            #expect((entry == before) == (before.urls == urls))
        }
        var other = entry
        other.urls.append("https://e.example")
        #expect(entry.urls.count == 3 && other.urls.count == 4)
        #expect(entry != other)
        other.urls.removeLast()
        #expect(entry == other)
        var none = Self.sample()
        none.urls = []
        var empty = none
        empty.urls = [""]
        #expect(none != empty)
    }

    /// The URL, user name, password and notes share one allocation: each
    /// reads back as written (none, empty, long, not ASCII) whatever the
    /// others hold, a change to one keeps the rest, and text that reads the
    /// same in other bytes (é as one code point or as e and an accent) is
    /// equal, as Strings are.
    @Test func theTextsPackedTogetherReadBackAsWritten() {
        let long = String(repeating: "Long-Pässwörd-", count: 40)
        let values: [String?] = [nil, "", "a", "ü-ñ-é 🔑", long]
        for url in values {
            for password in values {
                for name in values.compactMap({ $0 }) {
                    var entry = Entry(id: "e", title: "T", urls: url.map { [$0] } ?? [], username: name, password: password, notes: name + "!")
                    #expect(entry.firstURL == url && entry.password == password && entry.username == name && entry.notes == name + "!")
                    let before = entry
                    entry.password = "changed"
                    #expect(entry.firstURL == url && entry.username == name && entry.notes == name + "!" && entry.password == "changed")
                    #expect(before.password == password && (before == entry) == (password == "changed"))
                    entry.username = long
                    entry.notes = ""
                    #expect(entry.firstURL == url && entry.password == "changed" && entry.username == long && entry.notes == "")
                }
            }
        }
        let composed = Entry(id: "e", title: "T", username: "caf\u{E9}", password: "\u{E9}t\u{E9}", created: Date(timeIntervalSince1970: 1))
        let decomposed = Entry(id: "e", title: "T", username: "cafe\u{301}", password: "e\u{301}te\u{301}", created: Date(timeIntervalSince1970: 1))
        #expect(composed == decomposed)
        var other = decomposed
        other.password = "ete"
        #expect(composed != other)
    }

    @Test func keyPathsWriteThroughTheBox() {
        var entry = Self.sample()
        let copy = entry
        entry[keyPath: \Entry.notes] = "changed"
        #expect(entry.notes == "changed" && copy.notes == "n")
    }

    @Test func copiesChangedOnManyThreadsStayApart() async {
        let shared = Self.sample()
        let titles = await withTaskGroup(of: String.self) { group in
            for i in 0..<64 {
                group.addTask {
                    var mine = shared
                    for _ in 0..<100 { mine.title = "Bank \(i)"; mine.history.append(PasswordHistoryItem(password: "p\(i)", changedAt: Date(), reason: "r")) }
                    return "\(mine.title) \(mine.history.count)"
                }
            }
            var all: [String] = []
            for await title in group { all.append(title) }
            return all
        }
        #expect(Set(titles) == Set((0..<64).map { "Bank \($0) 100" }))
        #expect(shared == Self.sample())
    }
}
