import BulwarkCore
import Foundation

/// Passkey create and get, end to end in-process with the vault already
/// open (the unlock's KDF is the same as any command's and is left out):
/// options parsed, the key made or found, the response built, and for
/// create the entry written to the vault in its own transaction.
enum PasskeyBench {
    static func run(directory: URL) {
        let vault = try! Vault.create(at: directory.appendingPathComponent("passkeys.db"), masterPassword: "bench", parameters: ScryptParameters(logN: 10))
        vault.backupPolicy = .none
        defer { vault.close() }
        func challenge() -> String { Base64URL.encode(SecureRandom.bytes(32)) }
        var user = 0
        let create = Measure.repeated(200) {
            user += 1
            let userID = Base64URL.encode(Array("user-\(user)".utf8))
            let options = #"{"rp":{"id":"shop.example","name":"Shop"},"user":{"id":"\#(userID)","name":"user\#(user)"},"challenge":"\#(challenge())","pubKeyCredParams":[{"type":"public-key","alg":-7}]}"#
            let parsed = try! CreationOptions.parse(Data(options.utf8))
            let created = try! PasskeyAuthenticator.create(parsed, origin: "https://shop.example", existing: [], now: Date())
            var entry = Entry(title: "Shop \(user)", urls: ["https://shop.example"], username: "user\(user)", password: nil)
            entry.passkeys = [created.passkey]
            try! vault.save(entry)
        }
        Measure.report("passkey create (parse, key, response, vault write)", create)
        let ids = vault.entries.flatMap(\.passkeys).map(\.id)
        var next = 0
        let get = Measure.repeated(200) {
            next += 1
            let options = #"{"challenge":"\#(challenge())","rpId":"shop.example","allowCredentials":[{"type":"public-key","id":"\#(ids[next % ids.count])"}]}"#
            let parsed = try! RequestOptions.parse(Data(options.utf8))
            let found = try! PasskeyAuthenticator.candidates(parsed, origin: "https://shop.example", among: vault.entries.flatMap(\.passkeys))
            _ = try! PasskeyAuthenticator.assert(parsed, origin: found.origin, with: found.passkeys[0])
        }
        Measure.report("passkey get (parse, find among 200, sign, response)", get)
    }
}
