import BulwarkCore
import Foundation

/// What a relying party checks of an OpenID Connect ID token (OIDC Core
/// §3.1.3.7): the signature against the provider's published JWK set (ES256
/// only, whatever the token's header says), the issuer, the audience (its
/// own client id), the expiry, and the nonce of its own request.
public enum IDTokenVerifier {
    public struct Claims: Sendable, Equatable {
        public let issuer, subject, audience, nonce: String
        public let email: String?
        public let expires: Date
    }

    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public static func verify(_ token: String, keys: [[String: Any]], issuer: String, audience: String, nonce: String,
                              now: Date) throws(Refusal) -> Claims {
        let payload: [String: Any]
        do { payload = try JWS.verifiedPayload(token, keys: keys) } catch { throw Refusal(reason: "the ID token's signature: \(error)") }
        guard let iss = payload["iss"] as? String, let sub = payload["sub"] as? String, let exp = (payload["exp"] as? NSNumber)?.doubleValue else {
            throw Refusal(reason: "the ID token lacks iss, sub or exp")
        }
        guard iss == issuer else { throw Refusal(reason: "the ID token is from \(iss), not \(issuer)") }
        // `aud` may be a string or an array that holds this client.
        let audiences = (payload["aud"] as? String).map { [$0] } ?? (payload["aud"] as? [String]) ?? []
        guard audiences.contains(audience) else { throw Refusal(reason: "the ID token is for another client") }
        guard exp > now.timeIntervalSince1970 else { throw Refusal(reason: "the ID token has expired") }
        guard payload["nonce"] as? String == nonce, !nonce.isEmpty else { throw Refusal(reason: "the ID token's nonce is not this request's") }
        return Claims(issuer: iss, subject: sub, audience: audience, nonce: nonce, email: payload["email"] as? String,
                      expires: Date(timeIntervalSince1970: exp))
    }
}
