import Foundation
import Testing

/// `bulwark passkey` checked by an independent relying party: Duo Labs'
/// py_webauthn (`Fixtures/webauthn-rp.py`), which server code uses, makes
/// the options, and verifies what bulwark prints: registration (attestation
/// "none") and authentication, user verification required.
@Suite(.serialized) struct PasskeyCommandTests {
    typealias Fixture = VaultCommandTests.Fixture
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/webauthn-rp.py").path
    static let pyWebAuthn: Bool = (try? Spawn.run(["python3", "-c", "import webauthn"], capture: true).status) == 0

    /// Runs the relying party script; its stdout, or the failure with its stderr.
    static func relyingParty(_ arguments: [String]) throws -> (ok: Bool, output: String) {
        let result = try Spawn.run(["python3", script] + arguments, capture: true)
        return (result.status == 0, result.output)
    }

    @Test(.enabled(if: pyWebAuthn, "py_webauthn is not installed (make test-deps installs it from PyPI)"))
    func anIndependentRelyingPartyAcceptsRegistrationAndAuthentication() throws {
        let f = try Fixture()
        let file = { (name: String) in f.dir.appendingPathComponent(name).path }
        #expect(try Self.relyingParty(["register-options", "shop.example", "jane", file("create.json"), file("state.json")]).ok)
        let created = try f.run(["passkey", "create", "--origin", "https://shop.example", "--options", file("create.json")])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stderr == "bulwark: saved the passkey for jane on shop.example in a new entry, Test RP.\n")
        try Data(created.stdout.utf8).write(to: URL(fileURLWithPath: file("registration.json")))
        let registered = try Self.relyingParty(["register-verify", "https://shop.example", file("state.json"), file("registration.json")])
        #expect(registered.ok, "py_webauthn refused the registration: \(registered.output)")
        #expect(registered.output.hasSuffix(" none CredentialDeviceType.MULTI_DEVICE True\n"))

        #expect(try Self.relyingParty(["auth-options", "shop.example", file("state.json"), file("get.json")]).ok)
        let asserted = try f.run(["passkey", "get", "--origin", "https://shop.example", "--options", file("get.json")])
        #expect(asserted.status == 0, "\(asserted.stderr)")
        try Data(asserted.stdout.utf8).write(to: URL(fileURLWithPath: file("authentication.json")))
        let verified = try Self.relyingParty(["auth-verify", "https://shop.example", file("state.json"), file("authentication.json")])
        #expect(verified.ok, "py_webauthn refused the assertion: \(verified.output)")
        #expect(verified.output.hasSuffix(" 0 True\n"))

        // The entry shows the passkey, never its key.
        let shown = try f.run(["show", "Test RP", "--json", "--reveal"])
        let passkeys = (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["passkeys"] as? [[String: Any]]
        #expect(passkeys?.count == 1 && passkeys?.first?["rp_id"] as? String == "shop.example" && !shown.stdout.contains("PRIVATE"))
        #expect(passkeys?.first?.keys.sorted() == ["created", "id", "rp_id", "user_name"])

        // Moved through Bitwarden's JSON to another vault, the passkey still signs in.
        let moved = f.dir.appendingPathComponent("bitwarden.json").path
        #expect(try f.run(["export", "--format", "bitwarden-json", moved]).status == 0)
        let other = try Fixture()
        #expect(try other.run(["import", moved]).status == 0)
        #expect(try Self.relyingParty(["auth-options", "shop.example", file("state.json"), file("get2.json")]).ok)
        let fromOther = try other.run(["passkey", "get", "--origin", "https://shop.example", "--options", file("get2.json")])
        #expect(fromOther.status == 0, "\(fromOther.stderr)")
        try Data(fromOther.stdout.utf8).write(to: URL(fileURLWithPath: file("authentication2.json")))
        let again = try Self.relyingParty(["auth-verify", "https://shop.example", file("state.json"), file("authentication2.json")])
        #expect(again.ok, "py_webauthn refused the moved passkey: \(again.output)")

        // And through the Credential Exchange Format.
        let exchanged = f.dir.appendingPathComponent("export.cxf.json").path
        #expect(try f.run(["export", "--format", "cxf", exchanged]).status == 0)
        let third = try Fixture()
        #expect(try third.run(["import", exchanged]).status == 0)
        #expect(try Self.relyingParty(["auth-options", "shop.example", file("state.json"), file("get3.json")]).ok)
        let fromCXF = try third.run(["passkey", "get", "--origin", "https://shop.example", "--options", file("get3.json")])
        #expect(fromCXF.status == 0, "\(fromCXF.stderr)")
        try Data(fromCXF.stdout.utf8).write(to: URL(fileURLWithPath: file("authentication3.json")))
        let viaCXF = try Self.relyingParty(["auth-verify", "https://shop.example", file("state.json"), file("authentication3.json")])
        #expect(viaCXF.ok, "py_webauthn refused the passkey moved through CXF: \(viaCXF.output)")

        // The relying party refuses an assertion made for another origin (bulwark signs what it is told; the RP checks).
        let elsewhere = try f.run(["passkey", "get", "--origin", "https://login.shop.example", "--options", file("get.json")])
        #expect(elsewhere.status == 0)
        try Data(elsewhere.stdout.utf8).write(to: URL(fileURLWithPath: file("elsewhere.json")))
        #expect(try !Self.relyingParty(["auth-verify", "https://shop.example", file("state.json"), file("elsewhere.json")]).ok)
    }

    @Test func whatTheCommandRefuses() throws {
        let f = try Fixture()
        let options = f.dir.appendingPathComponent("options.json")
        let challenge = "AAECAwQFBgcICQoLDA0ODw"
        try Data(#"{"rp":{"id":"shop.example","name":"Shop"},"user":{"id":"dXNlcg","name":"jane","displayName":"Jane"},"challenge":"\#(challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#.utf8).write(to: options)
        let http = try f.run(["passkey", "create", "--origin", "http://shop.example", "--options", options.path])
        #expect(http.status == 1 && http.stderr == "bulwark: http://shop.example is not https: WebAuthn needs a secure origin (http only on localhost).\n")
        let other = try f.run(["passkey", "create", "--origin", "https://other.example", "--options", options.path])
        #expect(other.status == 1 && other.stderr.contains("the RP ID shop.example is not other.example or a parent domain of it"))
        let first = try f.run(["passkey", "create", "--origin", "https://shop.example", "--options", options.path])
        #expect(first.status == 0)
        let id = try #require((try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])?["id"] as? String)
        try Data(#"{"rp":{"id":"shop.example","name":"Shop"},"user":{"id":"dXNlcg","name":"jane"},"challenge":"\#(challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}],"excludeCredentials":[{"type":"public-key","id":"\#(id)"}]}"#.utf8).write(to: options)
        let excluded = try f.run(["passkey", "create", "--origin", "https://shop.example", "--options", options.path])
        #expect(excluded.status == 1 && excluded.stderr.contains("already holds a passkey for shop.example that the relying party excludes"))

        let request = f.dir.appendingPathComponent("request.json")
        try Data(#"{"challenge":"\#(challenge)","rpId":"bank.example"}"#.utf8).write(to: request)
        let none = try f.run(["passkey", "get", "--origin", "https://bank.example", "--options", request.path])
        #expect(none.status == 1 && none.stderr == "bulwark: bulwark holds no passkey for bank.example.\n")
        try Data("{not json".utf8).write(to: request)
        let malformed = try f.run(["passkey", "get", "--origin", "https://bank.example", "--options", request.path])
        #expect(malformed.status == 1 && malformed.stderr == "bulwark: the options are not a JSON object.\n")

        // Two passkeys for one RP: get asks which.
        try Data(#"{"rp":{"name":"Shop"},"user":{"id":"b3RoZXI","name":"joe"},"challenge":"\#(challenge)","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#.utf8).write(to: options)
        #expect(try f.run(["passkey", "create", "--origin", "https://shop.example", "--options", options.path, "--entry", "Shop"]).status == 0)
        try Data(#"{"challenge":"\#(challenge)"}"#.utf8).write(to: request)
        let two = try f.run(["passkey", "get", "--origin", "https://shop.example", "--options", request.path])
        #expect(two.status == 1 && two.stderr.contains("2 passkeys for shop.example could answer; choose one with --credential ID"))
        #expect(try f.run(["passkey", "get", "--origin", "https://shop.example", "--options", request.path, "--credential", id]).status == 0)

        let listed = try f.run(["passkey", "list"])
        #expect(listed.stdout.split(separator: "\n").count == 2 && listed.stdout.contains("\(id)  shop.example  jane  (Shop)"))
        // After `--`: a base64url id may begin with "-" (one in 64 do).
        func remove() throws -> Binary.Result {
            try Binary.run(["passkey", "rm", "--vault", f.vault, "--password-stdin", "--", id], stdin: "master\n")
        }
        #expect(try remove().stdout.hasPrefix("Removed the passkey \(id) from Shop."))
        #expect(try f.run(["passkey", "list"]).stdout.split(separator: "\n").count == 1)
        #expect(try remove().status == 1)
    }
}

/// Passkeys at a mock service that accepts them (Shiny): registered through
/// its relying party, then a sign-in with the passkey; refused where the
/// service takes none or the entry holds none.
@Suite struct PasskeyAtServiceTests {
    @Test func registerThenSignInWithThePasskey() throws {
        let shiny = try UpgradeCommandTests.fixture("Shiny", "https://shiny.example")
        let before = try shiny.run(["signin", "Shiny", "--with", "passkey"])
        #expect(before.status == 1 && before.stderr == "bulwark: Shiny holds no passkey that Shiny knows; `bulwark services enroll Shiny --passkey` registers one.\n")
        let enrolled = try shiny.run(["services", "enroll", "Shiny", "--passkey"])
        #expect(enrolled.status == 0 && enrolled.stdout == "Registered a passkey for jane at Shiny (mock); it is kept in Shiny.\n", "\(enrolled.stderr)")
        let signedIn = try shiny.run(["signin", "Shiny", "--with", "passkey"])
        #expect(signedIn.status == 0 && signedIn.stdout == "Signed in to Shiny with a passkey (as jane).\n", "\(signedIn.stderr)")
        #expect(try shiny.run(["signin", "Shiny"]).stdout == "Signed in to Shiny.\n")  // the password still works beside it
        // A second registration for the same account is excluded by the service: bulwark already holds one.
        let again = try shiny.run(["services", "enroll", "Shiny", "--passkey"])
        #expect(again.status == 1 && again.stderr.contains("already holds a passkey for shiny.example that the relying party excludes"))

        let grocer = try UpgradeCommandTests.fixture("Grocer", "https://grocer.example")
        let refused = try grocer.run(["services", "enroll", "Grocer", "--passkey"])
        #expect(refused.status == 1 && refused.stderr == "bulwark: Grocer does not accept passkeys.\n")
        #expect(try grocer.run(["signin", "Grocer", "--with", "fingerprint"]).status == 2)
    }

    /// A real Bitwarden export writes one credential twice (its id as a
    /// GUID in one item, as `b64.` in another): the copies answer as one.
    /// A different key under the same id is a real choice, named by entry.
    @Test func theSamePasskeyHeldTwiceAnswersAsOneAndADifferentKeyIsChosenByEntry() throws {
        let made = try VaultCommandTests.Fixture(), other = try VaultCommandTests.Fixture()
        let create = made.dir.appendingPathComponent("create.json")
        try Data(#"{"rp":{"id":"shop.example","name":"Shop"},"user":{"id":"dXNlcg","name":"jane"},"challenge":"AAECAwQFBgcICQoLDA0ODw","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#.utf8).write(to: create)
        #expect(try made.run(["passkey", "create", "--origin", "https://shop.example", "--options", create.path]).status == 0)
        #expect(try other.run(["passkey", "create", "--origin", "https://shop.example", "--options", create.path]).status == 0)
        func exported(_ f: VaultCommandTests.Fixture) throws -> [String: Any] {
            let path = f.dir.appendingPathComponent("bw.json").path
            #expect(try f.run(["export", "--format", "bitwarden-json", path]).status == 0)
            return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        }
        var root = try exported(made)
        let item = (root["items"] as! [[String: Any]])[0]
        var credential = ((item["login"] as! [String: Any])["fido2Credentials"] as! [[String: Any]])[0]
        let b64 = credential["credentialId"] as! String
        let bytes = try #require(Data(base64Encoded: String(b64.dropFirst(4)).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "=="))
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let guid = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)].joined(separator: "-")
        func copy(named name: String, credential: [String: Any]) -> [String: Any] {
            var copy = item
            copy["id"] = UUID().uuidString.lowercased()
            copy["name"] = name
            var login = copy["login"] as! [String: Any]
            login["fido2Credentials"] = [credential]
            copy["login"] = login
            return copy
        }
        credential["credentialId"] = guid
        root["items"] = [item, copy(named: "Shop (GUID)", credential: credential)]
        let twice = made.dir.appendingPathComponent("twice.json")
        try JSONSerialization.data(withJSONObject: root).write(to: twice)
        let g = try VaultCommandTests.Fixture()
        #expect(try g.run(["import", twice.path]).status == 0)
        let get = made.dir.appendingPathComponent("get.json")
        try Data(#"{"challenge":"AAECAwQFBgcICQoLDA0ODw","rpId":"shop.example"}"#.utf8).write(to: get)
        let one = try g.run(["passkey", "get", "--origin", "https://shop.example", "--options", get.path])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("\"id\":\"\(String(b64.dropFirst(4)))\""))

        // The same id with another key (the other vault's): named by entry, chosen with --entry.
        let otherKey = (((try exported(other)["items"] as! [[String: Any]])[0]["login"] as! [String: Any])["fido2Credentials"] as! [[String: Any]])[0]["keyValue"]!
        credential["keyValue"] = otherKey
        root["items"] = [item, copy(named: "Shop (other key)", credential: credential)]
        try JSONSerialization.data(withJSONObject: root).write(to: twice)
        let h = try VaultCommandTests.Fixture()
        #expect(try h.run(["import", twice.path]).status == 0)
        let several = try h.run(["passkey", "get", "--origin", "https://shop.example", "--options", get.path])
        #expect(several.status == 1)
        #expect(several.stderr == "bulwark: 2 passkeys for shop.example could answer; they share one id with different keys; choose one with --entry ENTRY: Shop, Shop (other key).\n")
        let chosen = try h.run(["passkey", "get", "--origin", "https://shop.example", "--options", get.path, "--entry", "Shop (other key)"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
    }
}
