import Foundation

/// bulwark as a WebAuthn client and authenticator (Level 3): the client's
/// origin and RP ID checks, `clientDataJSON`, authenticator data, a `none`
/// attestation, and assertions signed over authenticatorData ‖
/// SHA-256(clientDataJSON). User verification is reported because the vault
/// was opened with the master password.
public enum PasskeyAuthenticator {
    /// The flags (§6.1): user present, user verified, backup eligible, backed up, attested data.
    static let userPresent: UInt8 = 0x01, userVerified: UInt8 = 0x04, backupEligible: UInt8 = 0x08, backedUp: UInt8 = 0x10, attested: UInt8 = 0x40
    /// COSE: EC2 key type, ES256, P-256.
    static let es256 = -7

    public struct Created: Sendable {
        public let passkey: Passkey
        /// `RegistrationResponseJSON`.
        public let response: String
    }

    public struct Asserted: Sendable {
        public let passkey: Passkey
        /// `AuthenticationResponseJSON`.
        public let response: String
    }

    /// The origin as the client serialises it, and the RP ID it may use
    /// (§5.1.3 steps 7-8): https, or http only on localhost; the RP ID the
    /// origin's host or a parent of it that is not a public suffix.
    public static func checkOrigin(_ text: String, rpID: String?) throws(WebAuthnError) -> (origin: String, rpID: String) {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty,
              url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil, url.user == nil else {
            throw WebAuthnError("\(text) is not an origin (scheme://host[:port])")
        }
        let local = host == "localhost" || host.hasSuffix(".localhost")
        guard scheme == "https" || (scheme == "http" && local) else {
            throw WebAuthnError("\(text) is not https: WebAuthn needs a secure origin (http only on localhost)")
        }
        if host.first == "[" || host.contains(":") || host.split(separator: ".").count == 4 && host.split(separator: ".").allSatisfy({ UInt8($0) != nil }) {
            throw WebAuthnError("\(host) is an IP address: an RP ID must be a domain")
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let origin = "\(scheme)://\(host)" + (url.port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
        let rp = rpID ?? host
        guard host == rp || host.hasSuffix("." + rp) else {
            throw WebAuthnError("the RP ID \(rp) is not \(host) or a parent domain of it: the origin \(origin) may not use it")
        }
        if !local {
            let site = Domain.site(of: host)
            guard rp == site || rp.hasSuffix("." + site) else {
                throw WebAuthnError("the RP ID \(rp) is a public suffix: no site may use it")
            }
        }
        return (origin, rp)
    }

    /// `navigator.credentials.create()`: a new passkey for the RP, and its registration response.
    public static func create(_ options: CreationOptions, origin: String, existing: [Passkey], now: Date) throws(WebAuthnError) -> Created {
        let (origin, rpID) = try checkOrigin(origin, rpID: options.rpID)
        guard options.algorithms.contains(es256) else {
            throw WebAuthnError("the relying party accepts none of bulwark's algorithms (ES256, COSE -7); it asked for \(options.algorithms.map(String.init).joined(separator: ", "))")
        }
        if let held = existing.first(where: { $0.rpID == rpID && options.excludeCredentials.contains($0.credentialID) }) {
            throw WebAuthnError("bulwark already holds a passkey for \(rpID) that the relying party excludes (\(held.userName)); nothing was created")
        }
        let key: P256PrivateKey
        do { key = try P256PrivateKey.generate() } catch { throw WebAuthnError("\(error)") }
        let passkey = Passkey(credentialID: SecureRandom.bytes(16), rpID: rpID, userHandle: options.userID, userName: options.userName,
                              userDisplayName: options.userDisplayName, privateKey: key.pkcs8, created: now)
        let clientData = clientDataJSON(type: "webauthn.create", challenge: options.challenge, origin: origin)
        let point = key.publicPoint
        let coseKey = CBOR.map([(.int(1), .int(2)), (.int(3), .int(Int64(es256))), (.int(-1), .int(1)),
                                (.int(-2), .bytes(Array(point[1...32]))), (.int(-3), .bytes(Array(point[33...64])))])
        var credentialData = [UInt8](repeating: 0, count: 16)  // the AAGUID: zero with a `none` attestation
        credentialData += [UInt8(passkey.credentialID.count >> 8), UInt8(passkey.credentialID.count & 0xFF)] + passkey.credentialID
        credentialData += coseKey.encoded
        let authData = authenticatorData(passkey, extra: attested) + credentialData
        let attestation = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))])
        let response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(clientData), "attestationObject": Base64URL.encode(attestation.encoded),
            "authenticatorData": Base64URL.encode(authData), "publicKey": Base64URL.encode(key.subjectPublicKeyInfo),
            "publicKeyAlgorithm": es256, "transports": ["internal"],
        ]
        return Created(passkey: passkey, response: credentialJSON(passkey, response))
    }

    /// `navigator.credentials.get()`: the passkeys that may answer (for the
    /// RP, and in `allowCredentials` when it names any).
    public static func candidates(_ options: RequestOptions, origin: String, among passkeys: [Passkey]) throws(WebAuthnError) -> (origin: String, rpID: String, passkeys: [Passkey]) {
        let (origin, rpID) = try checkOrigin(origin, rpID: options.rpID)
        let matching = passkeys.filter { $0.rpID == rpID && (options.allowCredentials.isEmpty || options.allowCredentials.contains($0.credentialID)) }
        return (origin, rpID, matching)
    }

    /// The assertion by one passkey.
    public static func assert(_ options: RequestOptions, origin: String, with passkey: Passkey) throws(WebAuthnError) -> Asserted {
        let clientData = clientDataJSON(type: "webauthn.get", challenge: options.challenge, origin: origin)
        let authData = authenticatorData(passkey, extra: 0)
        let signature: [UInt8]
        do { signature = try P256PrivateKey(pkcs8: passkey.privateKey).sign(authData + Digest.sha256(clientData)) } catch {
            throw WebAuthnError("the passkey's key cannot sign: \(error)")
        }
        let response: [String: Any] = [
            "clientDataJSON": Base64URL.encode(clientData), "authenticatorData": Base64URL.encode(authData),
            "signature": Base64URL.encode(signature), "userHandle": Base64URL.encode(passkey.userHandle),
        ]
        return Asserted(passkey: passkey, response: credentialJSON(passkey, response))
    }

    /// rpIdHash ‖ flags ‖ signCount (big-endian).
    static func authenticatorData(_ passkey: Passkey, extra: UInt8) -> [UInt8] {
        var flags = userPresent | userVerified | extra
        if passkey.backupEligible { flags |= backupEligible }
        if passkey.backupState { flags |= backedUp }
        let count = passkey.signCount
        return Digest.sha256(Array(passkey.rpID.utf8)) + [flags, UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
    }

    /// The JSON-compatible serialisation of CollectedClientData (§5.8.1.1), members in its order.
    public static func clientDataJSON(type: String, challenge: [UInt8], origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    static func credentialJSON(_ passkey: Passkey, _ response: [String: Any]) -> String {
        let object: [String: Any] = [
            "id": passkey.id, "rawId": passkey.id, "type": "public-key", "authenticatorAttachment": "platform",
            "clientExtensionResults": [String: Any](), "response": response,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
