import CCrypto
import Foundation

/// Compact JWS with ES256 (RFC 7515, RFC 7518 §3.4) and the JWK of a P-256
/// public key (RFC 7517, RFC 7518 §6.2): how identity providers sign ID
/// tokens and publish the keys that check them. JWS's ES256 signature is
/// R ‖ S (32 bytes each), not the DER that OpenSSL and WebAuthn use; the
/// two are converted through OpenSSL's ECDSA_SIG.
public enum JWS {
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// `header.payload.signature`, the header `{"alg":"ES256","kid":…,"typ":"JWT"}`.
    public static func signES256(_ payload: [String: Any], key: P256PrivateKey, keyID: String) throws -> String {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#.utf8))
        let body = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .withoutEscapingSlashes])))
        let input = Array("\(header).\(body)".utf8)
        guard let raw = rawSignature(fromDER: try key.sign(input)) else { throw Invalid("OpenSSL gave a signature that is not ECDSA") }
        return "\(header).\(body).\(Base64URL.encode(raw))"
    }

    /// The payload of an ES256 token whose signature is by one of `keys`
    /// (a JWK set's `keys`); the header must say ES256 and name a known `kid`.
    public static func verifiedPayload(_ token: String, keys: [[String: Any]]) throws(Invalid) -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]), let bodyBytes = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2]),
              let header = (try? JSONSerialization.jsonObject(with: Data(headerBytes))) as? [String: Any] else {
            throw Invalid("not a compact JWS")
        }
        // The algorithm is the verifier's choice, never the token's ("alg": "none" and HS256-with-the-public-key attacks).
        guard header["alg"] as? String == "ES256" else { throw Invalid("the token is not signed with ES256") }
        guard let kid = header["kid"] as? String, let jwk = keys.first(where: { $0["kid"] as? String == kid }),
              let point = publicPoint(of: jwk) else { throw Invalid("the token's key is not in the provider's key set") }
        guard signature.count == 64, let der = derSignature(fromRaw: signature),
              P256PrivateKey.verify(der, over: Array("\(parts[0]).\(parts[1])".utf8), publicPoint: point) else {
            throw Invalid("the signature does not verify")
        }
        guard let payload = (try? JSONSerialization.jsonObject(with: Data(bodyBytes))) as? [String: Any] else { throw Invalid("the payload is not JSON") }
        return payload
    }

    /// A P-256 public key as a JWK.
    public static func jwk(publicPoint point: [UInt8], keyID: String) -> [String: Any] {
        ["kty": "EC", "crv": "P-256", "x": Base64URL.encode(Array(point[1..<33])), "y": Base64URL.encode(Array(point[33..<65])),
         "kid": keyID, "alg": "ES256", "use": "sig"]
    }

    /// The uncompressed point of an EC P-256 JWK; nil for any other key.
    public static func publicPoint(of jwk: [String: Any]) -> [UInt8]? {
        guard jwk["kty"] as? String == "EC", jwk["crv"] as? String == "P-256", let x = (jwk["x"] as? String).flatMap(Base64URL.decode),
              let y = (jwk["y"] as? String).flatMap(Base64URL.decode), x.count == 32, y.count == 32 else { return nil }
        return [4] + x + y
    }

    /// DER ECDSA-Sig-Value → R ‖ S.
    static func rawSignature(fromDER der: [UInt8]) -> [UInt8]? {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { return nil }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?, s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        guard let r, let s, BN_bn2binpad(r, &raw, 32) == 32, raw.withUnsafeMutableBufferPointer({ BN_bn2binpad(s, $0.baseAddress! + 32, 32) }) == 32 else {
            return nil
        }
        return raw
    }

    /// R ‖ S → DER ECDSA-Sig-Value.
    static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 64, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(raw, 32, nil), s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}
