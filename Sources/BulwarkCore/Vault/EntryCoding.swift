import Foundation

/// An entry's fields as the byte strings sealed in its row's one box, in
/// `Vault.fields` order; the structured ones (lists, dates, flags) go
/// through `FieldCoding`.
extension Vault {
    /// Field names: format 1's column names, and the order of the parts in a box.
    static let fields = Field.allCases.map { "\($0)" }

    /// Positions in `Vault.fields`, the order rows are read and written in.
    enum Field: Int, CaseIterable { case title, username, password, urls, notes, totp, tags, history, details }

    /// Whether a box holds the parts an entry has: the nine fields, and
    /// since the kinds and custom fields arrived, a tenth with them, and an
    /// eleventh with its passkeys when it has any.
    /// A twelfth holds named extras (the provider it signs in through, the expiry, earlier versions).
    static func isEntryShape(_ count: Int) -> Bool { (fields.count...fields.count + 3).contains(count) }

    /// The parts of one passkey in the eleventh part.
    static let passkeyParts = 10

    static func decode(id: String, _ v: [ArraySlice<UInt8>]) -> Entry? {
        func field(_ f: Field) -> ArraySlice<UInt8> { v[f.rawValue] }
        guard isEntryShape(v.count),
              let urls = FieldCoding.decode(field(.urls)), let tags = FieldCoding.decode(field(.tags)),
              let historyParts = FieldCoding.decode(field(.history)), historyParts.count % 3 == 0,
              let details = FieldCoding.decode(field(.details)), [11, 12, 14, 15].contains(details.count),
              case .some(let password) = FieldCoding.decodeOptional(field(.password)),
              case .some(let totp) = FieldCoding.decodeOptional(field(.totp)),
              let category = AccountCategory(rawValue: details[0]),
              let created = FieldCoding.date(details[2]), let modified = FieldCoding.date(details[3]),
              let changed = FieldCoding.date(details[4]) else { return nil }
        var history: [PasswordHistoryItem] = []
        for i in stride(from: 0, to: historyParts.count, by: 3) {
            guard let date = FieldCoding.date(historyParts[i + 1]) else { return nil }
            history.append(PasswordHistoryItem(password: historyParts[i], changedAt: date, reason: historyParts[i + 2]))
        }
        var entry = Entry(id: id, title: String(decoding: field(.title), as: UTF8.self), urls: urls,
                          username: String(decoding: field(.username), as: UTF8.self), password: password,
                          notes: String(decoding: field(.notes), as: UTF8.self), totpURI: totp, tags: tags, category: category,
                          created: created, history: history)
        entry.categoryIsManual = details[1] == "1"
        entry.modified = modified
        entry.passwordChanged = changed
        entry.hiddenFromRecommendations = details[5] == "1"
        // The rare fields are set only when present: each set boxes them anew.
        if !details[6].isEmpty { entry.hiddenUntil = FieldCoding.date(details[6]) }
        if !details[7].isEmpty {
            guard let state = SignInWithAppleLink.CredentialState(rawValue: details[10]) else { return nil }
            entry.signInWithApple = SignInWithAppleLink(user: details[7], email: details[8], isPrivateRelay: details[9] == "1", state: state)
        }
        // Since the relay's forwarding was kept: one more detail after the link's.
        let hasForwarding = details.count == 12 || details.count == 15
        let pendingAt = hasForwarding ? 12 : 11
        if hasForwarding { entry.signInWithApple?.emailForwarding = details[11] != "0" }
        if details.count >= 14, !details[pendingAt].isEmpty {
            guard let kind = PendingChange.Kind(rawValue: details[pendingAt]), let started = FieldCoding.date(details[pendingAt + 2]) else { return nil }
            let detail = details[pendingAt + 1]
            entry.pendingChange = PendingChange(kind: kind, newPassword: kind == .strongPassword ? detail : nil,
                                                passkeyID: kind == .passkey && !detail.isEmpty ? detail : nil,
                                                appleCredential: kind == .signInWithApple && !detail.isEmpty ? detail : nil, startedAt: started)
        }
        if v.count >= fields.count + 1 {
            // The kind, then (name, value, hidden) for each custom field.
            guard let extras = FieldCoding.decode(v[fields.count]), let first = extras.first, let kind = EntryKind(rawValue: first),
                  (extras.count - 1) % 3 == 0 else { return nil }
            entry.kind = kind
            if extras.count > 1 { entry.fields = stride(from: 1, to: extras.count, by: 3).map { CustomField(name: extras[$0], value: extras[$0 + 1], hidden: extras[$0 + 2] == "1") } }
        }
        if v.count >= fields.count + 2 {
            // Empty only when a twelfth part follows.
            guard let parts = FieldCoding.decode(v[fields.count + 1]), !parts.isEmpty || v.count == fields.count + 3,
                  parts.count % passkeyParts == 0 else { return nil }
            for start in stride(from: 0, to: parts.count, by: passkeyParts) {
                let p = Array(parts[start..<start + passkeyParts])
                guard let credential = Base64URL.decode(p[0]), let handle = Base64URL.decode(p[2]), let key = Base64URL.decode(p[5]),
                      let created = FieldCoding.date(p[6]), let count = UInt32(p[7]) else { return nil }
                entry.passkeys.append(Passkey(credentialID: credential, rpID: p[1], userHandle: handle, userName: p[3], userDisplayName: p[4],
                                              privateKey: key, created: created, signCount: count, backupEligible: p[8] == "1", backupState: p[9] == "1"))
            }
        }
        if v.count == fields.count + 3 {
            guard let extras = FieldCoding.decode(v[fields.count + 2]), !extras.isEmpty, extras.count % 2 == 0 else { return nil }
            // Names an older bulwark does not know are passed over, never a reason to refuse the box.
            for index in stride(from: 0, to: extras.count, by: 2) {
                switch extras[index] {
                case "signs-in-with": entry.signsInWith = extras[index + 1]
                case "expires": entry.expires = FieldCoding.date(extras[index + 1])
                case "snapshot": if let snapshot = EntrySnapshot(json: extras[index + 1]) { entry.snapshots.append(snapshot) }
                case "attachment":
                    // A file the entry holds that cannot be read back is damage, not something to pass over.
                    guard let attachment = Attachment(json: extras[index + 1]) else { return nil }
                    entry.attachments.append(attachment)
                default: break
                }
            }
        }
        return entry
    }
}
