import BulwarkCore
import Foundation
import Testing
@testable import BulwarkUpgrades

/// The mock services' relying party (WebAuthn §7.1 and §7.2) against
/// bulwark's authenticator: the round trip, and each forged or replayed
/// answer refused with its reason.
@Suite struct MockRelyingPartyTests {
    final class Clock: @unchecked Sendable { var now = Date(timeIntervalSince1970: 1_800_000_000) }  // one test's thread

    struct World {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-rp-\(UUID().uuidString)")
        let clock = Clock()
        let rp: MockRelyingParty

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let clock = self.clock
            rp = try MockRelyingParty(rpID: "shop.example", rpName: "Shop", origins: ["https://shop.example"],
                                      path: directory.appendingPathComponent("shop-webauthn.db").path, clock: { clock.now })
        }

        /// A passkey registered for jane.
        func registered() throws -> Passkey {
            let options = try CreationOptions.parse(try rp.registrationOptions(user: "jane", userHandle: [9, 9, 9]))
            let created = try PasskeyAuthenticator.create(options, origin: "https://shop.example", existing: [], now: clock.now)
            try rp.finishRegistration(created.response)
            return created.passkey
        }

        func assertion(_ passkey: Passkey, user: String? = "jane", origin: String = "https://shop.example") throws -> String {
            let options = try RequestOptions.parse(try rp.authenticationOptions(user: user))
            return try PasskeyAuthenticator.assert(options, origin: origin, with: passkey).response
        }
    }

    /// The response with a change made to its `response` object.
    static func edited(_ json: String, _ change: (inout [String: Any]) -> Void) -> String {
        var object = try! JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        var body = object["response"] as! [String: Any]
        change(&body)
        object["response"] = body
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    static func edit(_ field: String, in body: inout [String: Any], _ change: (inout [UInt8]) -> Void) {
        var bytes = Base64URL.decode(body[field] as! String)!
        change(&bytes)
        body[field] = Base64URL.encode(bytes)
    }

    static func refused(_ reason: String, _ body: () throws -> Void) {
        #expect { try body() } throws: { ($0 as? MockRelyingParty.Refusal)?.reason == reason }
    }

    @Test func createThenGetThenTheRelyingPartyVerifies() throws {
        let w = try World()
        let passkey = try w.registered()
        #expect(try w.rp.finishAuthentication(try w.assertion(passkey)) == "jane")
        #expect(try w.rp.finishAuthentication(try w.assertion(passkey, user: nil)) == "jane")  // discoverable: no allowCredentials
        // The registration told bulwark what it already holds.
        let again = try CreationOptions.parse(try w.rp.registrationOptions(user: "jane", userHandle: [9, 9, 9]))
        #expect(again.excludeCredentials == [passkey.credentialID])
    }

    @Test func forgedAndReplayedAnswersAreRefused() throws {
        let w = try World()
        let passkey = try w.registered()
        let good = try w.assertion(passkey)
        Self.refused("the challenge is not one this service issued, or it was already used") {
            try w.rp.finishAuthentication(Self.edited(good) { body in
                Self.edit("clientDataJSON", in: &body) { bytes in
                    bytes = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""challenge":""#, with: #""challenge":"x"#).utf8)
                }
            })
        }
        Self.refused("the origin https://login.shop.example is not this service's") {
            try w.rp.finishAuthentication(try w.assertion(passkey, origin: "https://login.shop.example"))
        }
        Self.refused("the RP ID hash is not shop.example's") {
            try w.rp.finishAuthentication(Self.edited(try w.assertion(passkey)) { Self.edit("authenticatorData", in: &$0) { $0[0] ^= 1 } })
        }
        Self.refused("the user was not verified, and this service requires it") {
            try w.rp.finishAuthentication(Self.edited(try w.assertion(passkey)) { Self.edit("authenticatorData", in: &$0) { $0[32] &= ~0x04 } })
        }
        Self.refused("the signature does not verify") {
            try w.rp.finishAuthentication(Self.edited(try w.assertion(passkey)) { Self.edit("signature", in: &$0) { $0[$0.count - 1] ^= 1 } })
        }
        #expect(try w.rp.finishAuthentication(good) == "jane")
        Self.refused("the challenge is not one this service issued, or it was already used") { try w.rp.finishAuthentication(good) }
        let stranger = try PasskeyAuthenticator.create(try CreationOptions.parse(try w.rp.registrationOptions(user: "joe", userHandle: [7])),
                                                       origin: "https://shop.example", existing: [], now: w.clock.now).passkey
        Self.refused("that credential is not registered here") { try w.rp.finishAuthentication(try w.assertion(stranger, user: nil)) }
        let late = try w.assertion(passkey)
        w.clock.now += MockRelyingParty.challengeLifetime + 1
        Self.refused("the challenge has expired") { try w.rp.finishAuthentication(late) }
        Self.refused("the client data's type is not webauthn.create") {
            _ = try w.rp.finishRegistration(try w.assertion(passkey))
        }
    }

    @Test func registrationChecksTheAttestation() throws {
        let w = try World()
        let options = try CreationOptions.parse(try w.rp.registrationOptions(user: "jane", userHandle: [1]))
        let created = try PasskeyAuthenticator.create(options, origin: "https://shop.example", existing: [], now: w.clock.now)
        Self.refused("the attestation object is not CBOR of fmt, attStmt and authData") {
            try w.rp.finishRegistration(Self.edited(created.response) { $0["attestationObject"] = Base64URL.encode([0xa0]) })
        }
        // The challenge was taken by the refused attempt: a second try with the right answer is a replay.
        Self.refused("the challenge is not one this service issued, or it was already used") { try w.rp.finishRegistration(created.response) }
    }

    @Test func aCounterThatDoesNotMoveIsRefused() throws {
        let w = try World()
        // bulwark's passkeys count 0 (see Passkey.signCount); one that counts is made here by hand.
        let options = try CreationOptions.parse(try w.rp.registrationOptions(user: "jane", userHandle: [1]))
        let counted = try PasskeyAuthenticator.create(options, origin: "https://shop.example", existing: [], now: w.clock.now)
        var counting = counted.passkey
        try w.rp.finishRegistration(counted.response)  // stored at 0
        counting.signCount = 3
        #expect(try w.rp.finishAuthentication(try w.assertion(counting)) == "jane")  // 3 > 0: fine, stored 3
        Self.refused("the signature counter went back: the credential may be cloned") { try w.rp.finishAuthentication(try w.assertion(counting)) }
        counting.signCount = 0
        Self.refused("the signature counter went back: the credential may be cloned") { try w.rp.finishAuthentication(try w.assertion(counting)) }
    }
}
