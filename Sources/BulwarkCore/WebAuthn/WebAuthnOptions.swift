import Foundation

/// Why a WebAuthn ceremony cannot go on, in words for the person at the CLI.
public struct WebAuthnError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn Level 3 §5.1.2.1),
/// as server libraries emit it; the `{"publicKey": …}` wrapper is accepted too.
public struct CreationOptions: Sendable, Equatable {
    public let rpID: String?
    public let rpName: String
    public let userID: [UInt8]
    public let userName: String
    public let userDisplayName: String
    public let challenge: [UInt8]
    public let algorithms: [Int]
    public let excludeCredentials: [[UInt8]]
    public let userVerification: String

    public static func parse(_ data: Data) throws(WebAuthnError) -> CreationOptions {
        let root = try OptionsJSON.object(data)
        guard let rp = root["rp"] as? [String: Any], let rpName = rp["name"] as? String else { throw WebAuthnError("the options have no rp.name") }
        guard let user = root["user"] as? [String: Any] else { throw WebAuthnError("the options have no user") }
        let userID = try OptionsJSON.bytes(user["id"], "user.id")
        guard (1...64).contains(userID.count) else { throw WebAuthnError("user.id must be 1 to 64 bytes (it is \(userID.count))") }
        guard let userName = user["name"] as? String else { throw WebAuthnError("the options have no user.name") }
        guard let params = root["pubKeyCredParams"] as? [[String: Any]], !params.isEmpty else { throw WebAuthnError("the options have no pubKeyCredParams") }
        let algorithms = params.compactMap { $0["type"] as? String == "public-key" ? ($0["alg"] as? NSNumber)?.intValue : nil }
        var excluded: [[UInt8]] = []
        for credential in root["excludeCredentials"] as? [[String: Any]] ?? [] { excluded.append(try OptionsJSON.bytes(credential["id"], "excludeCredentials[].id")) }
        let selection = root["authenticatorSelection"] as? [String: Any]
        return CreationOptions(rpID: try OptionsJSON.rpID(rp["id"]), rpName: rpName, userID: userID, userName: userName,
                               userDisplayName: user["displayName"] as? String ?? userName,
                               challenge: try OptionsJSON.challenge(root["challenge"]), algorithms: algorithms,
                               excludeCredentials: excluded, userVerification: selection?["userVerification"] as? String ?? "preferred")
    }
}

/// `PublicKeyCredentialRequestOptionsJSON` (§5.1.4.1).
public struct RequestOptions: Sendable, Equatable {
    public let rpID: String?
    public let challenge: [UInt8]
    public let allowCredentials: [[UInt8]]
    public let userVerification: String

    public static func parse(_ data: Data) throws(WebAuthnError) -> RequestOptions {
        let root = try OptionsJSON.object(data)
        var allowed: [[UInt8]] = []
        for credential in root["allowCredentials"] as? [[String: Any]] ?? [] { allowed.append(try OptionsJSON.bytes(credential["id"], "allowCredentials[].id")) }
        return RequestOptions(rpID: try OptionsJSON.rpID(root["rpId"]), challenge: try OptionsJSON.challenge(root["challenge"]),
                              allowCredentials: allowed, userVerification: root["userVerification"] as? String ?? "preferred")
    }
}

/// The checks both option forms share.
enum OptionsJSON {
    static let maximumSize = 64 * 1024

    static func object(_ data: Data) throws(WebAuthnError) -> [String: Any] {
        guard data.count <= maximumSize else { throw WebAuthnError("the options file is over 64 KiB") }
        guard let parsed = try? JSONSerialization.jsonObject(with: data), var object = parsed as? [String: Any] else {
            throw WebAuthnError("the options are not a JSON object")
        }
        if let inner = object["publicKey"] as? [String: Any] { object = inner }
        return object
    }

    static func bytes(_ value: Any?, _ name: String) throws(WebAuthnError) -> [UInt8] {
        guard let text = value as? String, let bytes = Base64URL.decode(text) else { throw WebAuthnError("\(name) is not base64url") }
        return bytes
    }

    static func challenge(_ value: Any?) throws(WebAuthnError) -> [UInt8] {
        let challenge = try bytes(value, "challenge")
        guard challenge.count >= 16 else { throw WebAuthnError("the challenge is \(challenge.count) bytes; WebAuthn asks for at least 16 random bytes") }
        return challenge
    }

    static func rpID(_ value: Any?) throws(WebAuthnError) -> String? {
        guard let value else { return nil }
        guard let text = value as? String, !text.isEmpty else { throw WebAuthnError("the RP id is not a domain") }
        return text.lowercased()
    }
}
