import Foundation

/// Passkeys in Bitwarden's JSON (`login.fido2Credentials`), read and written
/// as Bitwarden's own export and import do: ES256 keys on P-256 only, the
/// key as base64url PKCS#8, the user handle base64url, the counter and the
/// discoverable flag as strings, and the credential id either a GUID (a
/// 16-byte id in order) or `b64.` and its base64url.
enum BitwardenPasskeys {
    /// The passkeys of an item, and what could not be read of them (named in the summary).
    static func read(_ login: JSONObject, title: String) -> (passkeys: [Passkey], notRead: [String]) {
        var passkeys: [Passkey] = [], notRead: [String] = []
        for (index, value) in (login["fido2Credentials"] as? [Any] ?? []).enumerated() {
            let which = "the passkey \(index + 1) of \(title)"
            guard let credential = value as? JSONObject else { notRead.append("\(which) (not an object)"); continue }
            guard credential["keyAlgorithm"] as? String ?? "ECDSA" == "ECDSA", credential["keyCurve"] as? String ?? "P-256" == "P-256" else {
                notRead.append("\(which) (\(credential["keyAlgorithm"] as? String ?? "?") on \(credential["keyCurve"] as? String ?? "?"): bulwark holds ES256 keys on P-256)")
                continue
            }
            guard let id = (credential["credentialId"] as? String).flatMap(credentialID), let rpID = credential["rpId"] as? String, !rpID.isEmpty,
                  let keyText = credential["keyValue"] as? String, let pkcs8 = Base64URL.decode(keyText),
                  (try? P256PrivateKey(pkcs8: pkcs8)) != nil else {
                notRead.append("\(which) (its id, relying party or key is not one bulwark can read)")
                continue
            }
            // The same credential twice in one item (its id in both of Bitwarden's spellings) is one passkey.
            if passkeys.contains(where: { $0.credentialID == id && $0.privateKey == pkcs8 }) { continue }
            let handle = (credential["userHandle"] as? String).flatMap(Base64URL.decode) ?? []
            let counter = (credential["counter"] as? String).flatMap { UInt32($0) } ?? Importer.jsonInteger(credential["counter"]).flatMap { UInt32(exactly: $0) } ?? 0
            passkeys.append(Passkey(credentialID: id, rpID: rpID.lowercased(), userHandle: handle, userName: credential["userName"] as? String ?? "",
                                    userDisplayName: credential["userDisplayName"] as? String ?? "", privateKey: pkcs8,
                                    created: BitwardenJSON.date(credential["creationDate"]) ?? Date(), signCount: counter))
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
