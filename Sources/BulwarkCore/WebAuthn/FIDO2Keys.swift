import CFido2
import Foundation

/// USB security keys through libfido2: the keys plugged in now (its HID
/// manifest), and an assertion from one (the person touches it). bulwark
/// acts as the WebAuthn client: it makes the clientDataJSON, asks the key
/// to sign its hash for the RP ID, and builds the `AuthenticationResponseJSON`.
public struct FIDO2Keys: SecurityKeyProvider {
    public init() { fido_init(0) }

    public func devices() -> [SecurityKeyDevice] {
        let capacity = 16
        var owned = fido_dev_info_new(capacity)
        guard let list = owned else { return [] }
        defer { fido_dev_info_free(&owned, capacity) }
        var found = 0
        guard fido_dev_info_manifest(list, capacity, &found) == FIDO_OK else { return [] }
        return (0..<found).compactMap { index -> SecurityKeyDevice? in
            guard let info = fido_dev_info_ptr(list, index), let path = fido_dev_info_path(info) else { return nil }
            let product = fido_dev_info_product_string(info).map { String(cString: $0) } ?? ""
            return FIDO2Key(name: product.isEmpty ? "Security key" : TerminalText.visible(product), path: String(cString: path))
        }
    }
}

/// One key, by its device path. `io` and `transport` replace USB HID with
/// libfido2's custom hooks (the tests' software authenticator).
public struct FIDO2Key: SecurityKeyDevice, @unchecked Sendable {  // the hooks are C function pointers
    public let name: String
    let path: String
    let io: fido_dev_io_t?
    let transport: fido_dev_transport_t?

    public init(name: String, path: String, io: fido_dev_io_t? = nil, transport: fido_dev_transport_t? = nil) {
        self.name = name
        self.path = path
        self.io = io
        self.transport = transport
    }

    /// What the client does before asking the key, for either ceremony: the
    /// origin checked against the RP ID, user verification refused (a key
    /// verifies its user with a PIN, which bulwark does not ask for: said
    /// rather than failed vaguely), the clientDataJSON and its hash.
    private static func clientRequest(type: String, challenge: [UInt8], rpID: String?, userVerification: String,
                                      origin: String) throws -> (rpID: String, clientData: [UInt8], hash: [UInt8]) {
        let (origin, rpID) = try PasskeyAuthenticator.checkOrigin(origin, rpID: rpID)
        guard userVerification != "required" else {
            throw WebAuthnError("the service asks the key to verify you with its PIN, which bulwark does not ask for yet")
        }
        let clientData = PasskeyAuthenticator.clientDataJSON(type: type, challenge: challenge, origin: origin)
        return (rpID, clientData, Digest.sha256(clientData))
    }

    public func assert(_ options: RequestOptions, origin: String) throws -> String {
        let (rpID, clientData, hash) = try Self.clientRequest(type: "webauthn.get", challenge: options.challenge, rpID: options.rpID,
                                                              userVerification: options.userVerification, origin: origin)
        let device = try open()
        defer { close(device) }
        var ownedRequest = fido_assert_new()
        guard let request = ownedRequest else { throw WebAuthnError("libfido2 could not start") }
        defer { fido_assert_free(&ownedRequest) }
        try Self.check(fido_assert_set_rp(request, rpID), "name the site")
        try Self.check(fido_assert_set_clientdata_hash(request, hash, hash.count), "give the request")
        for id in options.allowCredentials { try Self.check(fido_assert_allow_cred(request, id, id.count), "name the credentials") }
        try Self.check(fido_assert_set_up(request, FIDO_OPT_TRUE), "ask for a touch")
        try Self.check(fido_assert_set_uv(request, FIDO_OPT_OMIT), "ask for a touch")
        try Self.check(fido_dev_get_assert(device, request, nil), "sign")
        guard fido_assert_count(request) >= 1 else { throw WebAuthnError("the key gave no assertion") }
        // libfido2 hands the authenticator data back CBOR-wrapped (a byte string).
        let wrapped = Self.bytes(fido_assert_authdata_ptr(request, 0), fido_assert_authdata_len(request, 0))
        guard case .bytes(let authData)? = try? CBOR.decode(wrapped).value, authData.count >= 37 else {
            throw WebAuthnError("the key's authenticator data is not readable")
        }
        let signature = Self.bytes(fido_assert_sig_ptr(request, 0), fido_assert_sig_len(request, 0))
        // A key asked with one allowed credential may leave the id out (CTAP2 §6.2): it is that one.
        var id = Self.bytes(fido_assert_id_ptr(request, 0), fido_assert_id_len(request, 0))
        if id.isEmpty, options.allowCredentials.count == 1 { id = options.allowCredentials[0] }
        guard !id.isEmpty, !signature.isEmpty else { throw WebAuthnError("the key's answer has no credential id or signature") }
        let handle = Self.bytes(fido_assert_user_id_ptr(request, 0), fido_assert_user_id_len(request, 0))
        var response: [String: Any] = ["clientDataJSON": Base64URL.encode(clientData), "authenticatorData": Base64URL.encode(authData),
                                       "signature": Base64URL.encode(signature)]
        if !handle.isEmpty { response["userHandle"] = Base64URL.encode(handle) }
        return try Self.json(id: id, response: response)
    }

    /// Registers a new credential on the key for the service (the key keeps
    /// its private part): a `RegistrationResponseJSON` with a `none`
    /// attestation, as a browser sends when the service asks for none.
    public func register(_ options: CreationOptions, origin: String) throws -> String {
        guard options.algorithms.contains(-7) else { throw WebAuthnError("the service takes no ES256 key, the one kind bulwark asks a key for") }
        let (rpID, clientData, hash) = try Self.clientRequest(type: "webauthn.create", challenge: options.challenge, rpID: options.rpID,
                                                              userVerification: options.userVerification, origin: origin)
        let device = try open()
        defer { close(device) }
        var ownedCredential = fido_cred_new()
        guard let credential = ownedCredential else { throw WebAuthnError("libfido2 could not start") }
        defer { fido_cred_free(&ownedCredential) }
        try Self.check(fido_cred_set_type(credential, COSE_ES256), "ask for an ES256 key")
        try Self.check(fido_cred_set_clientdata_hash(credential, hash, hash.count), "give the request")
        try Self.check(fido_cred_set_rp(credential, rpID, options.rpName), "name the site")
        try Self.check(fido_cred_set_user(credential, options.userID, options.userID.count, options.userName, options.userDisplayName, nil), "name the account")
        for id in options.excludeCredentials { try Self.check(fido_cred_exclude(credential, id, id.count), "name the credentials it has") }
        try Self.check(fido_dev_make_cred(device, credential, nil), "register")
        var authData = Self.bytes(fido_cred_authdata_raw_ptr(credential), fido_cred_authdata_raw_len(credential))
        let id = Self.bytes(fido_cred_id_ptr(credential), fido_cred_id_len(credential))
        guard authData.count >= 55, authData[32] & 0x40 != 0, !id.isEmpty else { throw WebAuthnError("the key's answer holds no new credential") }
        // Attestation "none": the AAGUID is zeroed, as a client replacing the key's own attestation does (§5.4.7).
        for index in 37..<53 { authData[index] = 0 }
        let attestation = CBOR.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authData))])
        let response: [String: Any] = ["clientDataJSON": Base64URL.encode(clientData), "attestationObject": Base64URL.encode(attestation.encoded),
                                       "transports": ["usb"]]
        return try Self.json(id: id, response: response)
    }

    private func open() throws -> OpaquePointer {
        guard let device = fido_dev_new() else { throw WebAuthnError("libfido2 could not start") }
        do {
            if var io { try Self.check(fido_dev_set_io_functions(device, &io), "attach the key") }
            if var transport { try Self.check(fido_dev_set_transport_functions(device, &transport), "attach the key") }
            try Self.check(fido_dev_open(device, path), "open the key")
        } catch {
            var owned: OpaquePointer? = device
            fido_dev_free(&owned)
            throw error
        }
        return device
    }

    private func close(_ device: OpaquePointer) {
        fido_dev_close(device)
        var owned: OpaquePointer? = device
        fido_dev_free(&owned)
    }

    private static func json(id: [UInt8], response: [String: Any]) throws -> String {
        let object: [String: Any] = ["id": Base64URL.encode(id), "rawId": Base64URL.encode(id), "type": "public-key",
                                     "authenticatorAttachment": "cross-platform", "clientExtensionResults": [String: Any](), "response": response]
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    private static func bytes(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    private static func check(_ code: Int32, _ what: String) throws {
        guard code != FIDO_OK else { return }
        let reason = fido_strerr(code).map { String(cString: $0) } ?? "error \(code)"
        throw WebAuthnError(code == FIDO_ERR_NO_CREDENTIALS ? "the key holds no credential this service knows"
                            : code == FIDO_ERR_USER_ACTION_TIMEOUT ? "the key was not touched in time"
                            : code == FIDO_ERR_CREDENTIAL_EXCLUDED ? "the key is already registered for this account"
                            : code == FIDO_ERR_RX || code == FIDO_ERR_TX ? "the key stopped answering (\(reason))" : "could not \(what): \(reason)")
    }
}
