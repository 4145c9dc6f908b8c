import BulwarkCore
import Foundation

/// A mock service's WebAuthn relying party, as strict as a real one: it
/// issues single-use challenges that expire, and runs the registration and
/// authentication ceremonies step by step as WebAuthn Level 3 §7.1 and §7.2
/// list them, keeping each credential's public key and counter in its own
/// SQLite file (never in the vault).
public final class MockRelyingParty {
    public let rpID: String
    public let rpName: String
    /// The origins its pages are served from.
    public let origins: [String]
    public let requireUserVerification: Bool
    private let db: SQLiteDatabase
    private let clock: @Sendable () -> Date
    public static let challengeLifetime: TimeInterval = 300

    public typealias Refusal = RelyingPartyRefusal

    public init(rpID: String, rpName: String, origins: [String], requireUserVerification: Bool = true, path: String,
                clock: @escaping @Sendable () -> Date) throws {
        self.rpID = rpID
        self.rpName = rpName
        self.origins = origins
        self.requireUserVerification = requireUserVerification
        self.clock = clock
        db = try SQLiteDatabase(path: path, create: true)
        try db.execute("""
            CREATE TABLE IF NOT EXISTS webauthn_challenges (challenge TEXT PRIMARY KEY, ceremony TEXT NOT NULL, user TEXT, handle TEXT,
                expires REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS webauthn_credentials (id TEXT PRIMARY KEY, user TEXT NOT NULL, handle TEXT NOT NULL,
                public_key BLOB NOT NULL, sign_count INTEGER NOT NULL, backup_eligible INTEGER NOT NULL, backed_up INTEGER NOT NULL);
            """)
    }

    // MARK: Registration (§7.1)

    /// `PublicKeyCredentialCreationOptionsJSON` for an account; the challenge is kept for one answer.
    /// As a `secondFactor` (a security key for step-ups) the credential need
    /// not be discoverable nor the user verified: the key is asked only to be present.
    public func registrationOptions(user: String, userHandle: [UInt8], secondFactor: Bool = false) throws -> Data {
        let challenge = try newChallenge(ceremony: secondFactor ? "create-step-up" : "create", user: user, handle: userHandle)
        let exclude = try credentials(of: user).map { ["type": "public-key", "id": $0] }
        let options: [String: Any] = [
            "rp": ["id": rpID, "name": rpName], "user": ["id": Base64URL.encode(userHandle), "name": user, "displayName": user],
            "challenge": challenge, "pubKeyCredParams": [["type": "public-key", "alg": -7]], "timeout": 300_000,
            "excludeCredentials": exclude, "attestation": "none",
            "authenticatorSelection": secondFactor
                ? ["residentKey": "discouraged", "requireResidentKey": false, "userVerification": "discouraged"]
                : ["residentKey": "required", "requireResidentKey": true, "userVerification": requireUserVerification ? "required" : "preferred"],
        ]
        return try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys])
    }

    /// Checks a `RegistrationResponseJSON` and keeps the credential for its account; returns the credential id.
    @discardableResult
    public func finishRegistration(_ json: String) throws(Refusal) -> String {
        let (id, body) = try Self.credential(json)
        let clientData = try checkClientData(body, type: "webauthn.create")
        let (user, handle, ceremony) = try takeChallenge(clientData.challenge, ceremonies: ["create", "create-step-up"])
        guard let attestationText = body["attestationObject"] as? String, let attestationBytes = Base64URL.decode(attestationText) else {
            throw Refusal(reason: "the response has no attestationObject")
        }
        guard let attestation = try? CBOR.decode(attestationBytes).value, case .text(let format)? = attestation[.text("fmt")],
              case .bytes(let authData)? = attestation[.text("authData")], let statement = attestation[.text("attStmt")] else {
            throw Refusal(reason: "the attestation object is not CBOR of fmt, attStmt and authData")
        }
        let flags = try checkAuthenticatorData(authData, requireVerified: requireUserVerification && ceremony == "create")
        guard flags & 0x40 != 0, authData.count >= 55 else { throw Refusal(reason: "the authenticator data has no attested credential") }
        guard format == "none", statement == .map([]) else { throw Refusal(reason: "attestation \(format) is not one this service accepts (none)") }
        let length = Int(authData[53]) << 8 | Int(authData[54])
        guard length > 0, length <= 1023, authData.count >= 55 + length else { throw Refusal(reason: "the credential id's length is out of range") }
        let credentialID = Array(authData[55..<55 + length])
        guard Base64URL.encode(credentialID) == id else { throw Refusal(reason: "the credential id differs from the response's id") }
        guard let (cose, used) = try? CBOR.decode(Array(authData[(55 + length)...]), allowTrailing: true),
              55 + length + used == authData.count || flags & 0x80 != 0 else { throw Refusal(reason: "the credential public key is not CBOR") }
        guard cose[.int(1)] == .int(2), cose[.int(3)] == .int(-7), cose[.int(-1)] == .int(1),
              case .bytes(let x)? = cose[.int(-2)], case .bytes(let y)? = cose[.int(-3)], x.count == 32, y.count == 32 else {
            throw Refusal(reason: "the credential's key is not ES256 on P-256 (COSE kty 2, alg -7, crv 1)")
        }
        guard (try? db.query("SELECT 1 FROM webauthn_credentials WHERE id = ?", [.text(id)]))?.isEmpty == true else {
            throw Refusal(reason: "that credential is already registered")
        }
        let count = Int64(authData[33]) << 24 | Int64(authData[34]) << 16 | Int64(authData[35]) << 8 | Int64(authData[36])
        do {
            try db.query("INSERT INTO webauthn_credentials VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [.text(id), .text(user), .text(handle), .blob([4] + x + y), .integer(count),
                          .integer(flags & 0x08 != 0 ? 1 : 0), .integer(flags & 0x10 != 0 ? 1 : 0)])
        } catch { throw Refusal(reason: "the service could not keep the credential") }
        return id
    }

    // MARK: Authentication (§7.2)

    /// `PublicKeyCredentialRequestOptionsJSON`: for an account (its credentials
    /// allowed), or discoverable (none named) when `user` is nil. As a
    /// `secondFactor` (a security-key step-up after the password) the key
    /// need only be present: user verification is not asked for, as a
    /// security key would need its PIN for it.
    public func authenticationOptions(user: String?, secondFactor: Bool = false) throws -> Data {
        let challenge = try newChallenge(ceremony: secondFactor ? "step-up" : "get", user: user, handle: nil)
        let allow = try user.map { try credentials(of: $0).map { ["type": "public-key", "id": $0] } } ?? []
        let verification = secondFactor ? "discouraged" : requireUserVerification ? "required" : "preferred"
        let options: [String: Any] = ["challenge": challenge, "rpId": rpID, "allowCredentials": allow, "timeout": 300_000,
                                      "userVerification": verification]
        return try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys])
    }

    /// Checks an `AuthenticationResponseJSON`; returns the account it signs in.
    @discardableResult
    public func finishAuthentication(_ json: String) throws(Refusal) -> String {
        let (id, body) = try Self.credential(json)
        guard let authText = body["authenticatorData"] as? String, let authData = Base64URL.decode(authText),
              let signatureText = body["signature"] as? String, let signature = Base64URL.decode(signatureText) else {
            throw Refusal(reason: "the response has no authenticatorData or signature")
        }
        let clientData = try checkClientData(body, type: "webauthn.get")
        let taken = try takeChallenge(clientData.challenge, ceremonies: ["get", "step-up"])
        let named = taken.user
        guard let row = try? db.query("SELECT user, handle, public_key, sign_count, backup_eligible FROM webauthn_credentials WHERE id = ?",
                                      [.text(id)]).first,
              let user = row[0].text, let handle = row[1].text, let point = row[2].blob, let stored = row[3].integer else {
            throw Refusal(reason: "that credential is not registered here")
        }
        if !named.isEmpty, named != user { throw Refusal(reason: "that credential belongs to another account") }
        if let given = body["userHandle"] as? String, !given.isEmpty, given != handle { throw Refusal(reason: "the user handle is not the credential's") }
        let flags = try checkAuthenticatorData(authData, requireVerified: requireUserVerification && taken.ceremony == "get")
        if row[4].integer == 0, flags & 0x08 != 0 { throw Refusal(reason: "the credential's backup eligibility changed") }
        guard P256PrivateKey.verify(signature, over: authData + Digest.sha256(clientData.bytes), publicPoint: point) else {
            throw Refusal(reason: "the signature does not verify")
        }
        let count = Int64(authData[33]) << 24 | Int64(authData[34]) << 16 | Int64(authData[35]) << 8 | Int64(authData[36])
        // §7.2 step 22: a counter that does not move past the stored one may be a cloned authenticator.
        if count != 0 || stored != 0, count <= stored { throw Refusal(reason: "the signature counter went back: the credential may be cloned") }
        try? db.query("UPDATE webauthn_credentials SET sign_count = ?, backed_up = ? WHERE id = ?",
                      [.integer(count), .integer(flags & 0x10 != 0 ? 1 : 0), .text(id)])
        return user
    }

    // MARK: The steps both ceremonies share

    struct ClientData { let bytes: [UInt8]; let challenge: String }

    /// §7.1 steps 5-10 / §7.2 steps 10-15: type, challenge, origin, no cross-origin.
    private func checkClientData(_ body: [String: Any], type: String) throws(Refusal) -> ClientData {
        guard let text = body["clientDataJSON"] as? String, let bytes = Base64URL.decode(text),
              let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            throw Refusal(reason: "the clientDataJSON is not JSON")
        }
        guard object["type"] as? String == type else { throw Refusal(reason: "the client data's type is not \(type)") }
        guard let challenge = object["challenge"] as? String else { throw Refusal(reason: "the client data has no challenge") }
        guard let origin = object["origin"] as? String, origins.contains(origin) else {
            throw Refusal(reason: "the origin \(object["origin"] as? String ?? "(none)") is not this service's")
        }
        if object["crossOrigin"] as? Bool == true { throw Refusal(reason: "a cross-origin request is not accepted") }
        return ClientData(bytes: bytes, challenge: challenge)
    }

    /// The RP ID hash, user present, user verified when required, BS only with BE; returns the flags.
    private func checkAuthenticatorData(_ data: [UInt8], requireVerified: Bool) throws(Refusal) -> UInt8 {
        guard data.count >= 37 else { throw Refusal(reason: "the authenticator data is too short") }
        guard Array(data[0..<32]) == Digest.sha256(Array(rpID.utf8)) else { throw Refusal(reason: "the RP ID hash is not \(rpID)'s") }
        let flags = data[32]
        guard flags & 0x01 != 0 else { throw Refusal(reason: "the user was not present") }
        if requireVerified, flags & 0x04 == 0 { throw Refusal(reason: "the user was not verified, and this service requires it") }
        if flags & 0x10 != 0, flags & 0x08 == 0 { throw Refusal(reason: "backed up without being backup eligible") }
        return flags
    }

    /// A challenge is answered once: taken (deleted) whatever the outcome; expired ones are refused.
    private func takeChallenge(_ challenge: String, ceremonies: Set<String>) throws(Refusal) -> (user: String, handle: String, ceremony: String) {
        guard let row = try? db.query("SELECT ceremony, user, expires, handle FROM webauthn_challenges WHERE challenge = ?", [.text(challenge)]).first else {
            throw Refusal(reason: "the challenge is not one this service issued, or it was already used")
        }
        try? db.query("DELETE FROM webauthn_challenges WHERE challenge = ?", [.text(challenge)])
        guard let ceremony = row[0].text, ceremonies.contains(ceremony) else { throw Refusal(reason: "the challenge was issued for another ceremony") }
        guard let expires = row[2].real, clock().timeIntervalSince1970 < expires else { throw Refusal(reason: "the challenge has expired") }
        return (row[1].text ?? "", row[3].text ?? "", ceremony)
    }

    private func newChallenge(ceremony: String, user: String?, handle: [UInt8]?) throws -> String {
        let challenge = Base64URL.encode(SecureRandom.bytes(32))
        try issue(challenge, ceremony: ceremony, user: user, handle: handle)
        return challenge
    }

    /// Keeps a challenge for one answer (the tests give WebAuthn's test vectors' own).
    func issue(_ challenge: String, ceremony: String, user: String?, handle: [UInt8]?) throws {
        try db.query("INSERT INTO webauthn_challenges VALUES (?, ?, ?, ?, ?)",
                     [.text(challenge), .text(ceremony), user.map { .text($0) } ?? .null, handle.map { .text(Base64URL.encode($0)) } ?? .null,
                      .real(clock().timeIntervalSince1970 + Self.challengeLifetime)])
    }

    /// The account's user handle: the one its credentials already carry, else a new random one.
    public func userHandle(of user: String) throws -> [UInt8] {
        let known = try db.query("SELECT handle FROM webauthn_credentials WHERE user = ? LIMIT 1", [.text(user)]).first?.first?.text
        return known.flatMap(Base64URL.decode) ?? SecureRandom.bytes(16)
    }

    /// Whether a credential (by its base64url id) is registered here.
    public func isRegistered(_ id: String) throws -> Bool {
        !(try db.query("SELECT 1 FROM webauthn_credentials WHERE id = ?", [.text(id)])).isEmpty
    }

    func credentials(of user: String) throws -> [String] {
        try db.query("SELECT id FROM webauthn_credentials WHERE user = ? ORDER BY id", [.text(user)]).compactMap { $0.first?.text }
    }

    /// The credential's id and its `response` object, from the JSON a browser's `toJSON()` gives.
    private static func credential(_ json: String) throws(Refusal) -> (String, [String: Any]) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
              object["type"] as? String == "public-key", let id = object["id"] as? String, object["rawId"] as? String == id,
              let body = object["response"] as? [String: Any] else { throw Refusal(reason: "the response is not a public-key credential") }
        return (id, body)
    }
}

extension SQLiteDatabase.Value {
    var real: Double? { if case .real(let value) = self { return value }; return nil }
}
