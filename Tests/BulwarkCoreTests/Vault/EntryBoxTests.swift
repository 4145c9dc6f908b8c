import Foundation
import Testing
@testable import BulwarkCore

/// The one-buffer box writer and the part-by-part encoding are the same bytes,
/// for every shape an entry's box can take; and every box reads back.
@Suite struct EntryBoxTests {
    static func entries() -> [Entry] {
        var plain = Entry(id: "a", title: "Mail", urls: ["https://mail.example", "https://m.example"], username: "jane",
                          password: "pässwörd 🔑", notes: "line one\nline two", totpURI: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP",
                          tags: ["work", ""], created: Date(timeIntervalSinceReferenceDate: 123.456))
        plain.history = [PasswordHistoryItem(password: "old", changedAt: Date(timeIntervalSinceReferenceDate: 99), reason: "edited")]
        plain.hiddenUntil = Date(timeIntervalSinceReferenceDate: 1e9)
        var linked = Entry(id: "b", title: "Shiny", urls: ["https://shiny.example"], username: "jane@icloud.example",
                           signInWithApple: SignInWithAppleLink(user: "001.x.1", email: "r@privaterelay.appleid.example", isPrivateRelay: true))
        var notForwarding = linked
        notForwarding.id = "c"
        notForwarding.signInWithApple?.emailForwarding = false
        notForwarding.signInWithApple?.state = .revoked
        var staged = plain
        staged.id = "d"
        staged.pendingChange = PendingChange(kind: .strongPassword, newPassword: "New-Pass-1", startedAt: Date(timeIntervalSinceReferenceDate: 5))
        var both = notForwarding
        both.id = "e"
        both.pendingChange = PendingChange(kind: .signInWithApple, newPassword: nil, startedAt: Date(timeIntervalSinceReferenceDate: 6))
        linked.categoryIsManual = true
        let card = Entry(id: "f", title: "Card", kind: .card, fields: [CustomField(name: "Number", value: "4111", hidden: true), CustomField(name: "", value: "")])
        let empty = Entry(id: "g", title: "")
        return [plain, linked, notForwarding, staged, both, card, empty]
    }

    @Test func theBoxIsTheSameBytesAsThePartsJoined() {
        for entry in Self.entries() {
            #expect(Vault.box(entry) == FieldCoding.encode(parts: PartByPart.encode(entry)), "\(entry.id)")
        }
    }

    @Test func everyShapeReadsBack() throws {
        for entry in Self.entries() {
            let parts = try #require(FieldCoding.decode(parts: Vault.box(entry)))
            let back = try #require(Vault.decode(id: entry.id, parts))
            #expect(back == entry, "\(entry.id)")
        }
    }
}

/// The encoding as it was written part by part before the box writer: the
/// oracle the writer's bytes are held to.
enum PartByPart {
    /// The plaintext of each field, in `Vault.fields` order.
    static func encode(_ e: Entry) -> [[UInt8]] {
        let link = e.signInWithApple
        let details = [e.category.rawValue, e.categoryIsManual ? "1" : "0", FieldCoding.date(e.created), FieldCoding.date(e.modified),
                       FieldCoding.date(e.passwordChanged), e.hiddenFromRecommendations ? "1" : "0",
                       e.hiddenUntil.map(FieldCoding.date) ?? "", link?.user ?? "", link?.email ?? "",
                       link?.isPrivateRelay == true ? "1" : "0", link?.state.rawValue ?? ""]
            // Written only when off, so that vaults without it keep their shape for older versions.
            + (link?.emailForwarding == false ? ["0"] : [])
            + (e.pendingChange.map { [$0.kind.rawValue, $0.newPassword ?? "", FieldCoding.date($0.startedAt)] } ?? [])
        return [
            Array(e.title.utf8), Array(e.username.utf8), FieldCoding.encodeOptional(e.password),
            FieldCoding.encode(e.urls), Array(e.notes.utf8), FieldCoding.encodeOptional(e.totpURI),
            FieldCoding.encode(e.tags),
            FieldCoding.encode(e.history.flatMap { [$0.password, FieldCoding.date($0.changedAt), $0.reason] }),
            FieldCoding.encode(details),
            FieldCoding.encode([e.kind.rawValue] + e.fields.flatMap { [$0.name, $0.value, $0.hidden ? "1" : "0"] }),
        ]
    }
}
