import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// bulwark's USB path through libfido2, with a software CTAP2 device behind
/// libfido2's custom transport hooks: libfido2's real open, CTAPHID_INIT,
/// getInfo and getAssertion, and the relying party's verdict on the result.
@Suite(.serialized) struct USBSecurityKeyTests {
    /// A key holding one credential for `rpID`, and that credential as a passkey (for its key and id).
    static func attach(rpID: String) throws -> (SoftwareAuthenticator, Passkey) {
        let options = try CreationOptions.parse(Data(#"{"rp": {"id": "\#(rpID)", "name": "X"}, "user": {"id": "AQID", "name": "jane", "displayName": "Jane"}, "challenge": "AAAAAAAAAAAAAAAAAAAAAA", "pubKeyCredParams": [{"type": "public-key", "alg": -7}]}"#.utf8))
        let passkey = try PasskeyAuthenticator.create(options, origin: "https://\(rpID)", existing: [], now: Date()).passkey
        let device = SoftwareAuthenticator()
        device.add(.init(id: passkey.credentialID, rpID: rpID, handle: passkey.userHandle, key: try P256PrivateKey(pkcs8: passkey.privateKey)))
        SoftwareAuthenticator.attached.withLock { $0 = device }
        return (device, passkey)
    }

    @Test func anAssertionThroughLibfido2VerifiesAgainstTheKeysPublicKey() throws {
        let (device, passkey) = try Self.attach(rpID: "harbor.example")
        defer { SoftwareAuthenticator.attached.withLock { $0 = nil } }
        let options = try RequestOptions.parse(Data(#"{"challenge": "c2VjdXJpdHkta2V5LWNoYWxsZW5nZQ", "rpId": "harbor.example", "allowCredentials": [{"type": "public-key", "id": "\#(passkey.id)"}], "userVerification": "discouraged"}"#.utf8))
        let json = try device.key.assert(options, origin: "https://harbor.example")
        #expect(device.commands == [0x04, 0x02])  // libfido2 asked getInfo on open, then getAssertion
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let response = try #require(object["response"] as? [String: Any])
        #expect(object["id"] as? String == passkey.id && object["authenticatorAttachment"] as? String == "cross-platform")
        let authData = try #require(Base64URL.decode(response["authenticatorData"] as! String))
        let clientData = try #require(Base64URL.decode(response["clientDataJSON"] as! String))
        let signature = try #require(Base64URL.decode(response["signature"] as! String))
        #expect(String(decoding: clientData, as: UTF8.self) == #"{"type":"webauthn.get","challenge":"c2VjdXJpdHkta2V5LWNoYWxsZW5nZQ","origin":"https://harbor.example","crossOrigin":false}"#)
        #expect(Array(authData.prefix(32)) == Digest.sha256(Array("harbor.example".utf8)) && authData[32] == 0x01 && Array(authData[33..<37]) == [0, 0, 0, 1])
        let point = try P256PrivateKey(pkcs8: passkey.privateKey).publicPoint
        #expect(P256PrivateKey.verify(signature, over: authData + Digest.sha256(clientData), publicPoint: point))
        #expect(response["userHandle"] as? String == Base64URL.encode(passkey.userHandle))
    }

    @Test func aKeyWithoutTheCredentialOrNoTouchIsSaidPlainly() throws {
        let (device, _) = try Self.attach(rpID: "other.example")
        defer { SoftwareAuthenticator.attached.withLock { $0 = nil } }
        let options = try RequestOptions.parse(Data(#"{"challenge": "AAAAAAAAAAAAAAAAAAAAAA", "rpId": "harbor.example", "userVerification": "discouraged"}"#.utf8))
        #expect(throws: WebAuthnError("the key holds no credential this service knows")) { try device.key.assert(options, origin: "https://harbor.example") }
        device.touches = false
        let other = try RequestOptions.parse(Data(#"{"challenge": "AAAAAAAAAAAAAAAAAAAAAA", "rpId": "other.example", "userVerification": "discouraged"}"#.utf8))
        #expect(throws: WebAuthnError("the key was not touched in time")) { try device.key.assert(other, origin: "https://other.example") }
        let required = try RequestOptions.parse(Data(#"{"challenge": "AAAAAAAAAAAAAAAAAAAAAA", "rpId": "harbor.example", "userVerification": "required"}"#.utf8))
        #expect(throws: WebAuthnError("the service asks the key to verify you with its PIN, which bulwark does not ask for yet")) {
            try device.key.assert(required, origin: "https://harbor.example")
        }
        #expect(throws: WebAuthnError("http://harbor.example is not https: WebAuthn needs a secure origin (http only on localhost)")) {
            try device.key.assert(options, origin: "http://harbor.example")
        }
    }

    /// The whole path: Harbor's step-up answered by the USB key, its credential registered there.
    @Test func aUSBKeyPassesTheSecurityKeyStepUp() throws {
        let f = try UpgradeFixture()
        // Registered at the bank; the key holds it, the vault does not.
        let passkey = try SecurityKeyStepUpTests.harbor(f, inVault: false)
        let device = SoftwareAuthenticator()
        device.add(.init(id: passkey.credentialID, rpID: "harbor.example", handle: passkey.userHandle, key: try P256PrivateKey(pkcs8: passkey.privateKey)))
        SoftwareAuthenticator.attached.withLock { $0 = device }
        defer { SoftwareAuthenticator.attached.withLock { $0 = nil } }
        guard case .stepUp(let screen) = f.start("harbor", .strongPassword) else { Issue.record("no step-up"); return }
        #expect(!f.engine.vaultPasskeyAnswers(screen))
        let answer = try device.key.assert(try RequestOptions.parse(Data(screen.securityKeyOptions!.utf8)), origin: "https://harbor.example")
        guard case .completed(let outcome) = f.engine.submitAssertion(answer) else { Issue.record("not completed: \(String(describing: f.engine.state))"); return }
        #expect(outcome.kind == .strongPassword && f.entry("harbor").password != "harbor-old-1")
        #expect(try f.agrees("harbor"))
    }

    /// A key registered at the bank through libfido2's makeCredential (as
    /// `services enroll ENTRY --security-key` does), then used for its step-up.
    @Test func aKeyRegisteredThroughLibfido2PassesTheStepUp() throws {
        let f = try UpgradeFixture()
        let entry = Entry(id: "harbor", title: "Harbor Credit Union", urls: ["https://harbor.example"], username: "jane", password: "harbor-old-1")
        try f.vault.save(entry)
        _ = try f.world.enroll(entry)
        let rp = try #require(try f.world.relyingParty(for: f.world.catalog.manifest(id: "harbor")!))
        let device = SoftwareAuthenticator()
        SoftwareAuthenticator.attached.withLock { $0 = device }
        defer { SoftwareAuthenticator.attached.withLock { $0 = nil } }
        let options = try CreationOptions.parse(try rp.registrationOptions(user: "jane", userHandle: rp.userHandle(of: "jane"), secondFactor: true))
        #expect(options.userVerification == "discouraged")
        let registration = try device.key.register(options, origin: "https://harbor.example")
        #expect(device.commands == [0x04, 0x01])
        try rp.finishRegistration(registration)
        // Registered once: the same key again is excluded by the key itself.
        let again = try CreationOptions.parse(try rp.registrationOptions(user: "jane", userHandle: rp.userHandle(of: "jane"), secondFactor: true))
        #expect(throws: WebAuthnError("the key is already registered for this account")) { try device.key.register(again, origin: "https://harbor.example") }
        // A passkey registration (user verification required) is refused by bulwark, not sent to a key without a PIN.
        let passkeyOptions = try CreationOptions.parse(try rp.registrationOptions(user: "jane", userHandle: rp.userHandle(of: "jane")))
        #expect(throws: WebAuthnError("the service asks the key to verify you with its PIN, which bulwark does not ask for yet")) {
            try device.key.register(passkeyOptions, origin: "https://harbor.example")
        }
        guard case .stepUp(let screen) = f.start("harbor", .strongPassword) else { Issue.record("no step-up"); return }
        let answer = try device.key.assert(try RequestOptions.parse(Data(screen.securityKeyOptions!.utf8)), origin: "https://harbor.example")
        guard case .completed = f.engine.submitAssertion(answer) else { Issue.record("not completed: \(String(describing: f.engine.state))"); return }
        #expect(f.entry("harbor").password != "harbor-old-1" && f.entry("harbor").passkeys.isEmpty)
    }
}
