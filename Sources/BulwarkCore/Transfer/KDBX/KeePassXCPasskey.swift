import Foundation

/// KeePassXC's passkey, as its browser integration keeps it in an entry's
/// strings (one per entry): the credential id and user handle in base64url,
/// the relying party, the user name, and the private key as PKCS#8 PEM.
enum KeePassXCPasskey {
    static let credentialID = "KPEX_PASSKEY_CREDENTIAL_ID", privateKey = "KPEX_PASSKEY_PRIVATE_KEY_PEM",
               relyingParty = "KPEX_PASSKEY_RELYING_PARTY", userName = "KPEX_PASSKEY_USERNAME", userHandle = "KPEX_PASSKEY_USER_HANDLE"
    static let keys: Set<String> = [credentialID, privateKey, relyingParty, userName, userHandle]

    /// The entry's passkey, when its strings hold a whole one bulwark can use (an ES256 key on P-256).
    static func read(_ strings: [String: String], created: Date) -> Passkey? {
        guard let id = strings[credentialID].flatMap(Base64URL.decode), !id.isEmpty, let rp = strings[relyingParty], !rp.isEmpty,
              let pem = strings[privateKey], let der = fromPEM(pem), (try? P256PrivateKey(pkcs8: der)) != nil else { return nil }
        return Passkey(credentialID: id, rpID: rp.lowercased(), userHandle: strings[userHandle].flatMap(Base64URL.decode) ?? [],
                       userName: strings[userName] ?? "", userDisplayName: strings[userName] ?? "", privateKey: der, created: created)
    }

    /// The strings for an entry's passkey (KeePassXC holds one: the first).
    static func strings(_ passkey: Passkey) -> [(String, String, Bool)] {
        [(credentialID, Base64URL.encode(passkey.credentialID), true), (privateKey, pem(passkey.privateKey), true),
         (relyingParty, passkey.rpID, false), (userName, passkey.userName, false), (userHandle, Base64URL.encode(passkey.userHandle), true)]
    }

    static func pem(_ der: [UInt8]) -> String {
        let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----"
    }

    static func fromPEM(_ text: String) -> [UInt8]? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "-----BEGIN PRIVATE KEY-----", lines.last == "-----END PRIVATE KEY-----", lines.count >= 3 else { return nil }
        return Data(base64Encoded: lines.dropFirst().dropLast().joined()).map(Array.init)
    }
}
