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
        var withPasskey = Entry(id: "h", title: "Shop", urls: ["https://shop.example"], username: "jane")
        withPasskey.passkeys = [Passkey(credentialID: Array(repeating: 7, count: 16), rpID: "shop.example", userHandle: [1, 2, 3], userName: "jane",
                                        userDisplayName: "Jane", privateKey: [0x30, 1, 2], created: Date(timeIntervalSinceReferenceDate: 7), signCount: 0)]
        withPasskey.pendingChange = PendingChange(kind: .passkey, newPassword: nil, passkeyID: withPasskey.passkeys[0].id,
                                                  startedAt: Date(timeIntervalSinceReferenceDate: 8))
        var federated = Entry(id: "i", title: "Grocer", urls: ["https://grocer.example"], username: "jane", password: "p")
        federated.signsInWith = "https://id.nimbus.example"
        var federatedWithPasskey = withPasskey
        federatedWithPasskey.id = "j"
        federatedWithPasskey.signsInWith = "https://id.nimbus.example"
        var expiring = Entry(id: "k", title: "Bank", username: "jane", password: "p")
        expiring.expires = Date(timeIntervalSinceReferenceDate: 9)
        var federatedAndExpiring = federated
        federatedAndExpiring.id = "l"
        federatedAndExpiring.expires = Date(timeIntervalSinceReferenceDate: 10)
        federatedAndExpiring.snapshots = [EntrySnapshot(at: Date(timeIntervalSinceReferenceDate: 11),
                                                        values: [CustomField(name: "Title", value: "Grocer \"old\""), CustomField(name: "Password", value: "é\n1", hidden: true)])]
        return [plain, linked, notForwarding, staged, both, card, empty, withPasskey, federated, federatedWithPasskey, expiring, federatedAndExpiring]
    }

    @Test func theBoxIsTheSameBytesAsThePartsJoined() {
        for entry in Self.entries() {
            #expect(Vault.box(entry) == FieldCoding.encode(parts: PartByPart.encode(entry)), "\(entry.id)")
        }
    }

    /// A box with a named extra an older bulwark does not know still reads (its other extras kept).
    @Test func anUnknownNamedExtraIsPassedOver() throws {
        var entry = Entry(id: "m", title: "Grocer", password: "p")
        entry.signsInWith = "https://id.nimbus.example"
        var parts = try #require(FieldCoding.decode(parts: Vault.box(entry)))
        parts[parts.count - 1] = ArraySlice(FieldCoding.encode(["from-the-future", "x", "signs-in-with", "https://id.nimbus.example"]))
        #expect(Vault.decode(id: "m", parts) == entry)
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
            + (e.pendingChange.map { [$0.kind.rawValue, ($0.kind == .passkey ? $0.passkeyID : $0.newPassword) ?? "", FieldCoding.date($0.startedAt)] } ?? [])
        let passkeys = e.passkeys.flatMap { p in
            [Base64URL.encode(p.credentialID), p.rpID, Base64URL.encode(p.userHandle), p.userName, p.userDisplayName, Base64URL.encode(p.privateKey),
             FieldCoding.date(p.created), String(p.signCount), p.backupEligible ? "1" : "0", p.backupState ? "1" : "0"]
        }
        return [
            Array(e.title.utf8), Array(e.username.utf8), FieldCoding.encodeOptional(e.password),
            FieldCoding.encode(e.urls), Array(e.notes.utf8), FieldCoding.encodeOptional(e.totpURI),
            FieldCoding.encode(e.tags),
            FieldCoding.encode(e.history.flatMap { [$0.password, FieldCoding.date($0.changedAt), $0.reason] }),
            FieldCoding.encode(details),
            FieldCoding.encode([e.kind.rawValue] + e.fields.flatMap { [$0.name, $0.value, $0.hidden ? "1" : "0"] }),
        ]
            // The eleventh with the passkeys, when there are any or a twelfth follows; the twelfth with named extras.
            + (e.passkeys.isEmpty && e.signsInWith == nil && e.expires == nil && e.snapshots.isEmpty ? [] : [FieldCoding.encode(passkeys)])
            + (e.signsInWith == nil && e.expires == nil && e.snapshots.isEmpty ? []
               : [FieldCoding.encode((e.signsInWith.map { ["signs-in-with", $0] } ?? []) + (e.expires.map { ["expires", FieldCoding.date($0)] } ?? [])
                                     + e.snapshots.flatMap { ["snapshot", $0.json] })])
    }
}
