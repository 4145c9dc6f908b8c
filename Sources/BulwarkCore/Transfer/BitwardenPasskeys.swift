import Foundation

/// Passkeys in Bitwarden's JSON (`login.fido2Credentials`), read and written
/// as Bitwarden's own export and import do: ES256 keys on P-256 only, the
/// key as base64url PKCS#8, the user handle base64url, the counter and the
/// discoverable flag as strings, and the credential id either a GUID (a
/// 16-byte id in order) or `b64.` and its base64url.
enum BitwardenPasskeys {
    private static let names = JSONTape.Names(["keyAlgorithm", "keyCurve", "credentialId", "rpId", "keyValue", "userHandle", "counter",
                                               "userName", "userDisplayName", "creationDate"])

    /// The passkeys of an item (its login's `fido2Credentials`, read in
    /// place), and what could not be read of them (named in the summary).
    static func read(_ tape: JSONTape, _ list: Int?, title: String) -> (passkeys: [Passkey], notRead: [String]) {
        var passkeys: [Passkey] = [], notRead: [String] = []
        let credentials: [Int] = list.map { tape.elements($0) } ?? []
        for (index, credential) in credentials.enumerated() {
            let which = "the passkey \(index + 1) of \(title)"
            guard tape.kind(credential) == .object else { notRead.append("\(which) (not an object)"); continue }
            let member = tape.members(credential, names)
            func text(_ at: Int) -> String? { member[at].flatMap(tape.string) }
            guard text(0) ?? "ECDSA" == "ECDSA", text(1) ?? "P-256" == "P-256" else {
                notRead.append("\(which) (\(text(0) ?? "?") on \(text(1) ?? "?"): bulwark holds ES256 keys on P-256)")
                continue
            }
            guard let id = text(2).flatMap(credentialID), let rpID = text(3), !rpID.isEmpty,
                  let pkcs8 = text(4).flatMap(Base64URL.decode), (try? P256PrivateKey(pkcs8: pkcs8)) != nil else {
                notRead.append("\(which) (its id, relying party or key is not one bulwark can read)")
                continue
            }
            // The same credential twice in one item (its id in both of Bitwarden's spellings) is one passkey.
            if passkeys.contains(where: { $0.credentialID == id && $0.privateKey == pkcs8 }) { continue }
            let handle = text(5).flatMap(Base64URL.decode) ?? []
            let counter = text(6).flatMap { UInt32($0) } ?? member[6].flatMap(tape.integer).flatMap { UInt32(exactly: $0) } ?? 0
            passkeys.append(Passkey(credentialID: id, rpID: rpID.lowercased(), userHandle: handle, userName: text(7) ?? "",
                                    userDisplayName: text(8) ?? "", privateKey: pkcs8,
                                    created: BitwardenItem.date(tape, member[9]) ?? Date(), signCount: counter))
        }
        return (passkeys, notRead)
    }

    /// Bitwarden's two spellings of a credential id.
    static func credentialID(_ text: String) -> [UInt8]? {
        if text.hasPrefix("b64.") { return Base64URL.decode(String(text.dropFirst(4))) }
        let hex = text.replacingOccurrences(of: "-", with: "")
        guard text.count == 36, hex.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// `fido2Credentials` for an entry: `b64.` ids, which Bitwarden reads whatever the id's length.
    static func write(_ passkeys: [Passkey], entry: Entry, into json: inout JSONWriter) {
        json.beginArray()
        for passkey in passkeys {
            json.beginObject()
            json.key("credentialId"); json.string("b64." + Base64URL.encode(passkey.credentialID))
            json.key("keyType"); json.string("public-key")
            json.key("keyAlgorithm"); json.string("ECDSA")
            json.key("keyCurve"); json.string("P-256")
            json.key("keyValue"); json.string(Base64URL.encode(passkey.privateKey))
            json.key("rpId"); json.string(passkey.rpID)
            json.key("userHandle"); json.string(Base64URL.encode(passkey.userHandle))
            json.key("userName"); json.string(passkey.userName)
            json.key("counter"); json.string(String(passkey.signCount))
            json.key("rpName"); json.string(entry.title)
            json.key("userDisplayName"); json.string(passkey.userDisplayName)
            json.key("discoverable"); json.string("true")
            json.key("creationDate"); json.string(BitwardenJSON.text(passkey.created))
            json.endObject()
        }
        json.endArray()
    }
}
