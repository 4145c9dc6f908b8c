import Foundation

/// `bulwark agent`'s wire protocol: over a Unix stream socket, one request
/// per connection, each side one JSON object on one line (at most 64 KiB).
/// Keys and ids travel as base64; paths are the vault files' absolute,
/// symlink-resolved paths. Documented in docs/manual/agent.md.
///
///     {"op":"unlock","vault":P,"vaultID":B64,"wrappedKey":B64,"key":B64}  → {"ok":true}
///     {"op":"key","vault":P}               → {"ok":true,"vaultID":…,"wrappedKey":…,"key":…}
///     {"op":"lock"} / {"op":"lock","vault":P} → {"ok":true}
///     {"op":"status"}                      → {"ok":true,"vaults":[{"vault":P,"unlockedAt":S,"locksAt":S,"session":H}]}
///     anything refused                     → {"ok":false,"error":"…"}
///
/// An error names what was wrong with the request, never a key. `session`
/// is a random name for one unlock (hex, not secret): the SSH agent's
/// "once per unlock" approvals last while it stays the same.
public enum AgentRequest: Equatable, Sendable {
    case unlock(vault: String, key: HeldVaultKey)
    case key(vault: String)
    case lock(vault: String?)
    case status

    public static let maximumBytes = 65_536

    public struct Refused: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// A request from the bytes of its line (the newline may be there or not).
    public static func parse(_ bytes: [UInt8]) throws(Refused) -> AgentRequest {
        guard bytes.count <= maximumBytes else { throw Refused(reason: "the request is over \(maximumBytes) bytes") }
        guard let root = try? JSONStream.parse(Data(bytes)), let object = root as? JSONObject else {
            throw Refused(reason: "the request is not a JSON object")
        }
        func text(_ name: String) throws(Refused) -> String {
            guard let value = object[name] as? String, !value.isEmpty, value.utf8.count <= 4096 else { throw Refused(reason: "'\(name)' is missing or not a path") }
            return value
        }
        func base64(_ name: String, count: ClosedRange<Int>) throws(Refused) -> [UInt8] {
            guard let value = object[name] as? String, let data = Data(base64Encoded: value), count.contains(data.count) else {
                throw Refused(reason: "'\(name)' is missing or not base64 of \(count.lowerBound) to \(count.upperBound) bytes")
            }
            return Array(data)
        }
        switch object["op"] as? String {
        case "unlock":
            let held = HeldVaultKey(vaultID: try base64("vaultID", count: 1...64), wrappedKey: try base64("wrappedKey", count: 16...256),
                                    key: try base64("key", count: 16...64))
            return .unlock(vault: try text("vault"), key: held)
        case "key": return .key(vault: try text("vault"))
        case "lock": return .lock(vault: object["vault"] == nil ? nil : try text("vault"))
        case "status": return .status
        case let op?: throw Refused(reason: "unknown op '\(op.prefix(40))'")
        case nil: throw Refused(reason: "no 'op'")
        }
    }

    /// The request as its line.
    public var line: [UInt8] {
        var object: [String: Any]
        switch self {
        case .unlock(let vault, let key):
            object = ["op": "unlock", "vault": vault, "vaultID": Data(key.vaultID).base64EncodedString(),
                      "wrappedKey": Data(key.wrappedKey).base64EncodedString(), "key": Data(key.key).base64EncodedString()]
        case .key(let vault): object = ["op": "key", "vault": vault]
        case .lock(let vault): object = vault.map { ["op": "lock", "vault": $0] } ?? ["op": "lock"]
        case .status: object = ["op": "status"]
        }
        return AgentLine.encode(object)
    }
}

/// One vault the agent holds a key for.
public struct AgentVaultStatus: Equatable, Sendable {
    public let vault: String
    public let unlockedAt: Date
    public let locksAt: Date
    /// This unlock's name: a new one each time the vault is unlocked.
    public var session = ""
}

/// What the agent answers.
public struct AgentResponse: Equatable, Sendable {
    public var error: String?
    public var key: HeldVaultKey?
    public var vaults: [AgentVaultStatus] = []

    public static let ok = AgentResponse()
    public static func refused(_ reason: String) -> AgentResponse { AgentResponse(error: reason) }

    public var line: [UInt8] {
        var object: [String: Any] = ["ok": error == nil]
        if let error { object["error"] = error }
        if let key {
            object["vaultID"] = Data(key.vaultID).base64EncodedString()
            object["wrappedKey"] = Data(key.wrappedKey).base64EncodedString()
            object["key"] = Data(key.key).base64EncodedString()
        }
        if !vaults.isEmpty {
            object["vaults"] = vaults.map { ["vault": $0.vault, "unlockedAt": Int($0.unlockedAt.timeIntervalSince1970), "locksAt": Int($0.locksAt.timeIntervalSince1970),
                                             "session": $0.session] }
        }
        return AgentLine.encode(object)
    }

    /// The answer from its line; nil when it is not one.
    public static func parse(_ bytes: [UInt8]) -> AgentResponse? {
        guard bytes.count <= AgentRequest.maximumBytes, let object = (try? JSONStream.parse(Data(bytes))) as? JSONObject,
              let ok = object["ok"] as? Bool else { return nil }
        var response = AgentResponse()
        if !ok { response.error = (object["error"] as? String) ?? "refused" }
        if let id = (object["vaultID"] as? String).flatMap({ Data(base64Encoded: $0) }),
           let wrapped = (object["wrappedKey"] as? String).flatMap({ Data(base64Encoded: $0) }),
           let key = (object["key"] as? String).flatMap({ Data(base64Encoded: $0) }) {
            response.key = HeldVaultKey(vaultID: Array(id), wrappedKey: Array(wrapped), key: Array(key))
        }
        for case let vault as JSONObject in object["vaults"] as? [Any] ?? [] {
            guard let path = vault["vault"] as? String, let unlocked = vault["unlockedAt"] as? Int, let locks = vault["locksAt"] as? Int else { continue }
            response.vaults.append(AgentVaultStatus(vault: path, unlockedAt: Date(timeIntervalSince1970: Double(unlocked)),
                                                    locksAt: Date(timeIntervalSince1970: Double(locks)), session: vault["session"] as? String ?? ""))
        }
        return response
    }
}

enum AgentLine {
    static func encode(_ object: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }
}
