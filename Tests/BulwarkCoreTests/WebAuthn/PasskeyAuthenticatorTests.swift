import Foundation
import Testing
@testable import BulwarkCore

/// bulwark as a WebAuthn client and authenticator, checked by hand against
/// the spec's structures; `EndToEndTests/PasskeyCommandTests` has an
/// independent relying party library check the same output.
@Suite struct PasskeyAuthenticatorTests {
    static let challenge = Array(repeating: UInt8(7), count: 32)

    static func creation(rpID: String? = "shop.example", exclude: [[UInt8]] = [], algorithms: [Int] = [-7, -257], challenge: [UInt8] = challenge) -> Data {
        var rp: [String: Any] = ["name": "Shop"]
        if let rpID { rp["id"] = rpID }
        let object: [String: Any] = [
            "rp": rp, "user": ["id": Base64URL.encode([1, 2, 3, 4]), "name": "jane", "displayName": "Jane"],
            "challenge": Base64URL.encode(challenge), "pubKeyCredParams": algorithms.map { ["type": "public-key", "alg": $0] },
            "excludeCredentials": exclude.map { ["type": "public-key", "id": Base64URL.encode($0)] },
        ]
        return try! JSONSerialization.data(withJSONObject: object)
    }

    static func json(_ text: String) -> [String: Any] { try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any] }

    @Test(arguments: [
        ("https://shop.example", nil as String?, "https://shop.example", "shop.example"),
        ("https://login.shop.example:8443", "shop.example", "https://login.shop.example:8443", "shop.example"),
        ("https://Shop.Example:443/", nil, "https://shop.example", "shop.example"),
        ("http://localhost:8080", nil, "http://localhost:8080", "localhost"),
    ])
    func originsAClientAccepts(origin: String, rpID: String?, serialised: String, effective: String) throws {
        let checked = try PasskeyAuthenticator.checkOrigin(origin, rpID: rpID)
        #expect(checked.origin == serialised && checked.rpID == effective)
    }

    @Test(arguments: [
        ("http://shop.example", nil as String?, "is not https"),
        ("https://shop.example", "other.example", "is not shop.example or a parent domain"),
        ("https://shop.example", "example", "is a public suffix"),
        ("https://evil-shop.example", "shop.example", "is not evil-shop.example or a parent domain"),
        ("https://192.168.1.10", nil, "is an IP address"),
        ("https://[::1]:8443", nil, "is an IP address"),
        ("https://shop.example/login", nil, "is not an origin"),
        ("shop.example", nil, "is not an origin"),
    ])
    func originsAClientRefuses(origin: String, rpID: String?, reason: String) {
        #expect { try PasskeyAuthenticator.checkOrigin(origin, rpID: rpID) } throws: { ($0 as? WebAuthnError)?.description.contains(reason) == true }
    }

    @Test func registrationThenAssertionVerifyByHand() throws {
        let options = try CreationOptions.parse(Self.creation())
        let created = try PasskeyAuthenticator.create(options, origin: "https://shop.example", existing: [], now: Date(timeIntervalSince1970: 1_800_000_000))
        let passkey = created.passkey
        #expect(passkey.credentialID.count == 16 && passkey.rpID == "shop.example" && passkey.userHandle == [1, 2, 3, 4] && passkey.userName == "jane")
        let response = Self.json(created.response)
        #expect(response["id"] as? String == passkey.id && response["type"] as? String == "public-key")
        let body = try #require(response["response"] as? [String: Any])
        let clientData = try #require(Base64URL.decode(body["clientDataJSON"] as! String))
        #expect(String(decoding: clientData, as: UTF8.self)
                == #"{"type":"webauthn.create","challenge":"\#(Base64URL.encode(Self.challenge))","origin":"https://shop.example","crossOrigin":false}"#)
        let attestation = try CBOR.decode(try #require(Base64URL.decode(body["attestationObject"] as! String))).value
        #expect(attestation[.text("fmt")] == .text("none") && attestation[.text("attStmt")] == .map([]))
        guard case .bytes(let authData)? = attestation[.text("authData")] else { Issue.record("no authData"); return }
        #expect(Array(authData[0..<32]) == Digest.sha256(Array("shop.example".utf8)))
        #expect(authData[32] == 0x5D)  // UP, UV, BE, BS, AT
        #expect(Array(authData[33..<37]) == [0, 0, 0, 0] && Array(authData[37..<53]) == Array(repeating: 0, count: 16))
        #expect(Int(authData[53]) << 8 | Int(authData[54]) == 16 && Array(authData[55..<71]) == passkey.credentialID)
        let (cose, used) = try CBOR.decode(Array(authData[71...]), allowTrailing: true)
        #expect(71 + used == authData.count)
        let point = try P256PrivateKey(pkcs8: passkey.privateKey).publicPoint
        #expect(cose == .map([(.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                              (.int(-2), .bytes(Array(point[1...32]))), (.int(-3), .bytes(Array(point[33...64])))]))
        #expect(body["publicKeyAlgorithm"] as? Int == -7)

        let request = try RequestOptions.parse(try JSONSerialization.data(withJSONObject: ["challenge": Base64URL.encode(Self.challenge), "rpId": "shop.example"]))
        let found = try PasskeyAuthenticator.candidates(request, origin: "https://shop.example", among: [passkey])
        #expect(found.passkeys == [passkey])
        let asserted = Self.json(try PasskeyAuthenticator.assert(request, origin: found.origin, with: passkey).response)
        let assertion = try #require(asserted["response"] as? [String: Any])
        let signedData = try #require(Base64URL.decode(assertion["authenticatorData"] as! String))
        let getClientData = try #require(Base64URL.decode(assertion["clientDataJSON"] as! String))
        let signature = try #require(Base64URL.decode(assertion["signature"] as! String))
        #expect(signedData.count == 37 && signedData[32] == 0x1D)  // UP, UV, BE, BS; no attested data
        #expect(P256PrivateKey.verify(signature, over: signedData + Digest.sha256(getClientData), publicPoint: point))
        // A changed byte anywhere is not the signed message.
        #expect(!P256PrivateKey.verify(signature, over: signedData + Digest.sha256(getClientData + [0x20]), publicPoint: point))
        #expect(assertion["userHandle"] as? String == Base64URL.encode([1, 2, 3, 4]))
    }

    @Test func whatTheRelyingPartyAsksIsHonoured() throws {
        let first = try PasskeyAuthenticator.create(try CreationOptions.parse(Self.creation()), origin: "https://shop.example", existing: [], now: Date())
        #expect { try PasskeyAuthenticator.create(try CreationOptions.parse(Self.creation(exclude: [first.passkey.credentialID])),
                                                  origin: "https://shop.example", existing: [first.passkey], now: Date()) }
            throws: { ($0 as? WebAuthnError)?.description.contains("already holds a passkey for shop.example") == true }
        #expect { try PasskeyAuthenticator.create(try CreationOptions.parse(Self.creation(algorithms: [-257, -8])), origin: "https://shop.example", existing: [], now: Date()) }
            throws: { ($0 as? WebAuthnError)?.description.contains("accepts none of bulwark's algorithms") == true }
        #expect(throws: WebAuthnError("the challenge is 8 bytes; WebAuthn asks for at least 16 random bytes")) {
            try CreationOptions.parse(Self.creation(challenge: Array(repeating: 1, count: 8)))
        }
        #expect(throws: WebAuthnError("the options are not a JSON object")) { try CreationOptions.parse(Data("[]".utf8)) }
        let allowOther = try RequestOptions.parse(try JSONSerialization.data(withJSONObject: [
            "challenge": Base64URL.encode(Self.challenge), "allowCredentials": [["type": "public-key", "id": Base64URL.encode([9, 9])]]]))
        #expect(try PasskeyAuthenticator.candidates(allowOther, origin: "https://shop.example", among: [first.passkey]).passkeys.isEmpty)
    }

    @Test func theExportedKeyIsTheRegisteredOne() throws {
        let key = try P256PrivateKey.generate()
        let reloaded = try P256PrivateKey(pkcs8: key.pkcs8)
        #expect(reloaded.publicPoint == key.publicPoint && key.publicPoint.count == 65 && key.publicPoint[0] == 4)
        #expect(throws: P256PrivateKey.Failure.self) { try P256PrivateKey(pkcs8: [0x30, 0x03, 0x02, 0x01, 0x00]) }
    }
}
