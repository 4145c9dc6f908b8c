/// An entry's plaintext box written straight into one buffer: the same
/// bytes as its fields encoded one by one with `FieldCoding` and joined (a
/// test holds them equal to that), without the dozens of small arrays that
/// way makes. Sealing 100,000 entries spent most of its time on those.
struct EntryBoxWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// A length-prefixed part whose body `body` writes; the length is patched in after.
    mutating func part(_ body: (inout EntryBoxWriter) -> Void) {
        let start = bytes.count
        // Four appends, not an array literal: that was an allocation a part, some thirty an entry.
        bytes.append(0)
        bytes.append(0)
        bytes.append(0)
        bytes.append(0)
        body(&self)
        let n = UInt32(bytes.count - start - 4)
        bytes[start] = UInt8(n & 0xFF)
        bytes[start + 1] = UInt8((n >> 8) & 0xFF)
        bytes[start + 2] = UInt8((n >> 16) & 0xFF)
        bytes[start + 3] = UInt8(n >> 24)
    }

    mutating func part(_ text: String) { part { $0.raw(text) } }
    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `FieldCoding.encodeOptional`: a marker byte, then the text.
    mutating func optional(_ text: String?) {
        part { writer in
            guard let text else { writer.bytes.append(0); return }
            writer.bytes.append(1)
            writer.raw(text)
        }
    }

    /// `FieldCoding.encode([String])` as one part.
    mutating func list(_ items: [String]) { part { writer in for item in items { writer.part(item) } } }
}

extension Vault {
    /// The plaintext of an entry's box, in `Vault.fields` order (`decode` reads it).
    static func box(_ e: Entry) -> [UInt8] {
        var w = EntryBoxWriter(capacity: 256 + e.notes.utf8.count + e.history.count * 48 + e.fields.count * 32)
        w.part(e.title)
        w.part(e.username)
        w.optional(e.password)
        w.list(e.urls)
        w.part(e.notes)
        w.optional(e.totpURI)
        w.list(e.tags)
        w.part { writer in
            for item in e.history {
                writer.part(item.password)
                writer.part(FieldCoding.date(item.changedAt))
                writer.part(item.reason)
            }
        }
        let link = e.signInWithApple
        w.part { writer in
            writer.part(e.category.rawValue)
            writer.part(e.categoryIsManual ? "1" : "0")
            writer.part(FieldCoding.date(e.created))
            writer.part(FieldCoding.date(e.modified))
            writer.part(FieldCoding.date(e.passwordChanged))
            writer.part(e.hiddenFromRecommendations ? "1" : "0")
            writer.part(e.hiddenUntil.map(FieldCoding.date) ?? "")
            writer.part(link?.user ?? "")
            writer.part(link?.email ?? "")
            writer.part(link?.isPrivateRelay == true ? "1" : "0")
            writer.part(link?.state.rawValue ?? "")
            if link?.emailForwarding == false { writer.part("0") }
            if let pending = e.pendingChange {
                writer.part(pending.kind.rawValue)
                writer.part(pending.detail)
                writer.part(FieldCoding.date(pending.startedAt))
            }
        }
        w.part { writer in
            writer.part(e.kind.rawValue)
            for field in e.fields {
                writer.part(field.name)
                writer.part(field.value)
                writer.part(field.hidden ? "1" : "0")
            }
        }
        // Only when there are passkeys (or a twelfth part follows): every other box stays as it was.
        let namedExtras = e.signsInWith != nil || e.expires != nil || !e.snapshots.isEmpty || !e.attachments.isEmpty
        if !e.passkeys.isEmpty || namedExtras {
            w.part { writer in
                for passkey in e.passkeys {
                    writer.part(Base64URL.encode(passkey.credentialID))
                    writer.part(passkey.rpID)
                    writer.part(Base64URL.encode(passkey.userHandle))
                    writer.part(passkey.userName)
                    writer.part(passkey.userDisplayName)
                    writer.part(Base64URL.encode(passkey.privateKey))
                    writer.part(FieldCoding.date(passkey.created))
                    writer.part(String(passkey.signCount))
                    writer.part(passkey.backupEligible ? "1" : "0")
                    writer.part(passkey.backupState ? "1" : "0")
                }
            }
        }
        // The twelfth: named extras, only when there are any.
        if namedExtras {
            w.part { writer in
                if let issuer = e.signsInWith {
                    writer.part("signs-in-with")
                    writer.part(issuer)
                }
                if let expires = e.expires {
                    writer.part("expires")
                    writer.part(FieldCoding.date(expires))
                }
                for snapshot in e.snapshots {
                    writer.part("snapshot")
                    writer.part(snapshot.json)
                }
                for attachment in e.attachments {
                    writer.part("attachment")
                    writer.part(attachment.json)
                }
            }
        }
        return w.bytes
    }
}
