import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// WebAuthn Level 3's own test vectors (§16, "ES256 Credential with No
/// Attestation"): the relying party validates the spec's registration and
/// then its assertion with the credential it registered, and bulwark's client
/// writes the spec's `clientDataJSON` byte for byte.
@Suite struct WebAuthnTestVectorTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    // From the spec's section "ES256 Credential with No Attestation".
    static let registrationChallenge = bytes("00c30fb78531c464d2b6771dab8d7b603c01162f2fa486bea70f283ae556e130")
    static let credentialID = bytes("f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4")
    static let registrationClientData = bytes("7b2274797065223a22776562617574686e2e637265617465222c226368616c6c656e6765223a22414d4d507434557878475453746e63647134313759447742466938767049612d7077386f4f755657345441222c226f726967696e223a2268747470733a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73652c22657874726144617461223a22636c69656e74446174614a534f4e206d617920626520657874656e6465642077697468206164646974696f6e616c206669656c647320696e20746865206675747572652c207375636820617320746869733a20426b5165446a646354427258426941774a544c453551227d")
    static let attestationObject = bytes("a363666d74646e6f6e656761747453746d74a068617574684461746158a4bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b559000000008446ccb9ab1db374750b2367ff6f3a1f0020f91f391db4c9b2fde0ea70189cba3fb63f579ba6122b33ad94ff3ec330084be4a5010203262001215820afefa16f97ca9b2d23eb86ccb64098d20db90856062eb249c33a9b672f26df61225820930a56b87a2fca66334b03458abf879717c12cc68ed73290af2e2664796b9220")
    static let authenticationChallenge = bytes("39c0e7521417ba54d43e8dc95174f423dee9bf3cd804ff6d65c857c9abf4d408")
    static let authenticatorData = bytes("bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b51900000000")
    static let authenticationClientData = bytes("7b2274797065223a22776562617574686e2e676574222c226368616c6c656e6765223a224f63446e55685158756c5455506f334a5558543049393770767a7a59425039745a63685879617630314167222c226f726967696e223a2268747470733a2f2f6578616d706c652e6f7267222c2263726f73734f726967696e223a66616c73657d")
    static let signature = bytes("3046022100f50a4e2e4409249c4a853ba361282f09841df4dd4547a13a87780218deffcd380221008480ac0f0b93538174f575bf11a1dd5d78c6e486013f937295ea13653e331e87")

    static func json(_ response: [String: Any]) -> String {
        let id = Base64URL.encode(credentialID)
        let object: [String: Any] = ["id": id, "rawId": id, "type": "public-key", "response": response, "clientExtensionResults": [String: Any]()]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func theRelyingPartyValidatesTheSpecsRegistrationAndAssertion() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-vectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The vector's authenticator does not verify the user (its flags have UP, BE, BS): an RP that only prefers UV.
        let rp = try MockRelyingParty(rpID: "example.org", rpName: "Example", origins: ["https://example.org"], requireUserVerification: false,
                                      path: directory.appendingPathComponent("rp.db").path, clock: { Date() })
        try rp.issue(Base64URL.encode(Self.registrationChallenge), ceremony: "create", user: "user", handle: [1])
        let id = try rp.finishRegistration(Self.json(["clientDataJSON": Base64URL.encode(Self.registrationClientData),
                                                      "attestationObject": Base64URL.encode(Self.attestationObject)]))
        #expect(id == Base64URL.encode(Self.credentialID))
        try rp.issue(Base64URL.encode(Self.authenticationChallenge), ceremony: "get", user: nil, handle: nil)
        let assertion = Self.json(["clientDataJSON": Base64URL.encode(Self.authenticationClientData),
                                   "authenticatorData": Base64URL.encode(Self.authenticatorData), "signature": Base64URL.encode(Self.signature)])
        #expect(try rp.finishAuthentication(assertion) == "user")
        // The same signature over a changed byte of the authenticator data is not the spec's.
        try rp.issue(Base64URL.encode(Self.authenticationChallenge), ceremony: "get", user: nil, handle: nil)
        var changed = Self.authenticatorData
        changed[36] ^= 1
        #expect(throws: MockRelyingParty.Refusal(reason: "the signature does not verify")) {
            try rp.finishAuthentication(Self.json(["clientDataJSON": Base64URL.encode(Self.authenticationClientData),
                                                   "authenticatorData": Base64URL.encode(changed), "signature": Base64URL.encode(Self.signature)]))
        }
    }

    @Test func bulwarksClientDataAndRPIDHashAreTheSpecs() {
        #expect(PasskeyAuthenticator.clientDataJSON(type: "webauthn.get", challenge: Self.authenticationChallenge, origin: "https://example.org")
                == Self.authenticationClientData)
        #expect(Digest.sha256(Array("example.org".utf8)) == Array(Self.authenticatorData[0..<32]))
    }
}
