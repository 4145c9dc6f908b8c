import Foundation
import Testing
@testable import BulwarkCore

/// Two machines changed one entry: each side's own changes stand; a field
/// both changed takes the later change and keeps the other value.
@Suite struct FieldMergeTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func base() -> Entry {
        var entry = Entry(id: "e1", title: "Mail", urls: ["https://mail.example"], username: "jane", password: "first-password-1",
                          notes: "recovery codes in the safe", created: t0)
        entry.modified = t0
        return entry
    }

    @Test func changesToDifferentFieldsBothStand() {
        var local = base(), remote = base()
        local.notes = "new notes"
        local.modified = t0 + 10
        remote.username = "jane.doe"
        remote.tags = ["work"]
        remote.modified = t0 + 20
        let merged = FieldMerge.merge(base: base(), local: local, remote: remote, localName: "laptop", remoteName: "desktop", now: t0 + 30)
        #expect(merged.entry.notes == "new notes")
        #expect(merged.entry.username == "jane.doe")
        #expect(merged.entry.tags == ["work"])
        #expect(merged.entry.modified == t0 + 20)
        #expect(merged.kept == "")
        #expect(merged.entry.fields.isEmpty)
    }

    @Test func theSameFieldTakesTheLaterChangeAndKeepsTheOther() {
        var local = base(), remote = base()
        local.changePassword(to: "laptop-password-2", reason: "changed", at: t0 + 10)
        local.modified = t0 + 10
        local.notes = "laptop's notes"
        remote.changePassword(to: "desktop-password-2", reason: "changed", at: t0 + 20)
        remote.modified = t0 + 20
        remote.notes = "desktop's notes"
        let merged = FieldMerge.merge(base: base(), local: local, remote: remote, localName: "laptop", remoteName: "desktop", now: t0 + 30)
        #expect(merged.entry.password == "desktop-password-2")
        #expect(merged.entry.notes == "desktop's notes")
        // The earlier change's password is in history, once; the first password too, once.
        #expect(merged.entry.history.map(\.password).sorted() == ["first-password-1", "laptop-password-2"])
        #expect(merged.entry.fields == [CustomField(name: "Notes (from laptop)", value: "laptop's notes", hidden: false)])
        #expect(merged.kept == "the change made on desktop was kept; laptop's password is in its history; laptop's notes are in a field marked (from laptop)")
    }

    @Test func withNoCommonAncestorEveryDifferenceIsAConflictAndNothingIsLost() {
        var local = base(), remote = base()
        local.title = "Mail (work)"
        local.modified = t0 + 50
        remote.title = "Mail (home)"
        remote.modified = t0 + 20
        let merged = FieldMerge.merge(base: nil, local: local, remote: remote, localName: "laptop", remoteName: "desktop", now: t0 + 60)
        #expect(merged.entry.title == "Mail (work)")
        #expect(merged.entry.fields.map(\.value) == ["Mail (home)"])
        #expect(merged.kept.hasPrefix("the change made on laptop was kept; desktop's title is in a field marked (from desktop)"))
    }

    @Test func twoMachinesMergingTheSamePairReachTheSameEntry() {
        var one = base(), two = base()
        one.notes = "one"
        two.notes = "two"
        one.modified = t0 + 5
        two.modified = t0 + 5   // the same second: the tie is broken the same way everywhere
        let here = FieldMerge.merge(base: base(), local: one, remote: two, localName: "a", remoteName: "b", now: t0)
        let there = FieldMerge.merge(base: base(), local: two, remote: one, localName: "b", remoteName: "a", now: t0)
        #expect(here.entry.notes == there.entry.notes)
        #expect(here.entry.fields == there.entry.fields)
    }

    /// Files: what either side attached stays, what either side took away
    /// goes, and two files of one name are both kept (the other renamed).
    @Test func filesAddedOnEitherSideStayAndRemovedOnesGo() {
        func file(_ blob: String, _ name: String) -> BulwarkCore.Attachment {
            BulwarkCore.Attachment(blob: blob, name: name, size: 1, mediaType: "text/plain", created: t0, modified: t0, chunks: 1)
        }
        let kept = file("k", "kept.txt"), removed = file("r", "removed.txt")
        #expect(FieldMerge.attachments(base: [kept, removed], [kept, removed, file("a", "a.txt")], [kept, file("b", "b.txt")])
                == [kept, file("a", "a.txt"), file("b", "b.txt")])
        #expect(FieldMerge.attachments(base: [], [file("x", "same.txt")], [file("y", "same.txt")])
                == [file("x", "same.txt"), file("y", "same.txt (2)")])
        #expect(FieldMerge.attachments(base: nil, [kept], [removed, kept]) == [kept, removed])
    }
}
