import Foundation
import Testing
@testable import BulwarkCore

/// Passkeys through Bitwarden's JSON, in its own field names and encodings
/// (its clients' `Fido2CredentialExport` and `parseCredentialId`): a passkey
/// made here can be moved to another manager and back.
@Suite struct BitwardenPasskeyTests {
    static func madeHere() throws -> (Entry, [UInt8]) {
        let options = try CreationOptions.parse(PasskeyAuthenticatorTests.creation())
        let created = try PasskeyAuthenticator.create(options, origin: "https://shop.example", existing: [], now: Date(timeIntervalSince1970: 1_800_000_000.5))
        var entry = Entry(title: "Shop", urls: ["https://shop.example"], username: "jane", password: "pw")
        entry.passkeys = [created.passkey]
        let body = PasskeyAuthenticatorTests.json(created.response)["response"] as! [String: Any]
        let spki = Base64URL.decode(body["publicKey"] as! String)!
        return (entry, spki)
    }

    @Test func exportedInBitwardensShapeAndTheKeyIsTheRegisteredOne() throws {
        let (entry, spki) = try Self.madeHere()
        let exported = try JSONSerialization.jsonObject(with: Exporter.write([entry], format: .bitwardenJSON)) as! [String: Any]
        let login = (exported["items"] as! [[String: Any]])[0]["login"] as! [String: Any]
        let credential = try #require((login["fido2Credentials"] as? [[String: Any]])?.first)
        #expect(Set(credential.keys) == ["credentialId", "keyType", "keyAlgorithm", "keyCurve", "keyValue", "rpId", "userHandle", "userName",
                                         "counter", "rpName", "userDisplayName", "discoverable", "creationDate"])
        #expect(credential["credentialId"] as? String == "b64." + entry.passkeys[0].id)
        #expect(credential["keyType"] as? String == "public-key" && credential["keyAlgorithm"] as? String == "ECDSA" && credential["keyCurve"] as? String == "P-256")
        #expect(credential["counter"] as? String == "0" && credential["discoverable"] as? String == "true" && credential["rpId"] as? String == "shop.example")
        #expect(credential["creationDate"] as? String == "2027-01-15T08:00:00.500Z")
        // keyValue: base64url PKCS#8 of a P-256 key whose public key is the one the relying party registered.
        let key = try P256PrivateKey(pkcs8: try #require(Base64URL.decode(credential["keyValue"] as! String)))
        #expect(key.subjectPublicKeyInfo == spki)
    }

    @Test func roundTripKeepsEveryPasskeyField() throws {
        let (entry, _) = try Self.madeHere()
        let back = try Importer.read(Exporter.write([entry], format: .bitwardenJSON), format: .bitwardenJSON, existing: [])
        #expect(back.entries.first?.passkeys == entry.passkeys)
        #expect(back.notHeld.isEmpty)
    }

    @Test func bitwardensGUIDIdsAndKeysItCannotHoldAreSaid() throws {
        let key = try P256PrivateKey.generate()
        let item: (String, String) -> String = { id, curve in
            #"{"type":1,"name":"Site","login":{"username":"jane","password":"pw","fido2Credentials":[{"credentialId":"\#(id)","keyType":"public-key","keyAlgorithm":"ECDSA","keyCurve":"\#(curve)","keyValue":"\#(Base64URL.encode(key.pkcs8))","rpId":"site.example","userHandle":"AQID","userName":"jane","counter":"5","rpName":"Site","userDisplayName":"Jane","discoverable":"true","creationDate":"2024-01-02T03:04:05.000Z"}]}}"#
        }
        let file = #"{"encrypted":false,"items":[\#(item("e5a4b1c2-0d3e-4f56-8a9b-0c1d2e3f4a5b", "P-256")),\#(item("b64.AAEC", "P-384"))]}"#
        let read = try Importer.read(Data(file.utf8), format: .bitwardenJSON, existing: [])
        let passkey = try #require(read.entries.first?.passkeys.first)
        #expect(passkey.credentialID == [0xe5, 0xa4, 0xb1, 0xc2, 0x0d, 0x3e, 0x4f, 0x56, 0x8a, 0x9b, 0x0c, 0x1d, 0x2e, 0x3f, 0x4a, 0x5b])
        #expect(passkey.rpID == "site.example" && passkey.userHandle == [1, 2, 3] && passkey.signCount == 5 && passkey.userDisplayName == "Jane")
        #expect(read.entries.count == 2 && read.entries[1].passkeys.isEmpty)
        #expect(read.notHeld.contains("the passkey 1 of Site (ECDSA on P-384: bulwark holds ES256 keys on P-256)"))
    }

    @Test func passkeysAreNeverMergedAway() {
        var a = Entry(title: "Shop", urls: ["https://shop.example"], username: "jane", password: "pw")
        var b = a
        a.passkeys = [Passkey(credentialID: [1], rpID: "shop.example", userHandle: [], userName: "jane", userDisplayName: "", privateKey: [], created: Date())]
        b.passkeys = [Passkey(credentialID: [2], rpID: "shop.example", userHandle: [], userName: "jane", userDisplayName: "", privateKey: [], created: Date())]
        #expect(!Importer.sameContent(a, b))
        let kept: [[UInt8]] = ImportMerge.merged(a, with: b).entry.passkeys.map(\.credentialID).sorted { $0[0] < $1[0] }
        #expect(kept == [[1], [2]])
    }
}
