import Foundation

/// The passkey parsers under the fuzzer: what a relying party's options file
/// or an authenticator's CBOR can be, hostile included.
extension FuzzChecks {
    /// Any bytes as CBOR: refused, or decoded into a value whose encoding
    /// (in the fewest bytes) decodes back to the same value.
    public static func cbor(_ data: [UInt8]) -> String? {
        guard let (value, _) = try? CBOR.decode(data) else { return nil }
        let encoded = value.encoded
        guard let (again, used) = try? CBOR.decode(encoded) else { return "a decoded value's encoding does not decode" }
        if again != value { return "a decoded value does not survive encoding" }
        if used != encoded.count { return "an encoding decodes from fewer bytes than it has" }
        return encoded.count > data.count ? "the fewest-bytes encoding is longer than the input" : nil
    }

    /// Any bytes as WebAuthn options: refused with a reason, or, for options
    /// that parse, a ceremony that ends in a response or a WebAuthnError.
    public static func webAuthnOptions(_ data: [UInt8]) -> String? {
        if let options = try? CreationOptions.parse(Data(data)) {
            do {
                let created = try PasskeyAuthenticator.create(options, origin: "https://shop.example", existing: [], now: Date(timeIntervalSince1970: 0))
                if created.passkey.credentialID.count != 16 { return "a passkey without a 16-byte id" }
                if (try? JSONSerialization.jsonObject(with: Data(created.response.utf8))) == nil { return "a registration response that is not JSON" }
            } catch {}
        }
        if let options = try? RequestOptions.parse(Data(data)) {
            _ = try? PasskeyAuthenticator.candidates(options, origin: "https://shop.example", among: [])
        }
        return nil
    }
}

extension FuzzChecks {
    static let fuzzKey = try? P256PrivateKey.generate()

    /// Any bytes as a compact JWS: refused unless signed by the key set's
    /// key (which a fuzzer cannot forge); 64 bytes as R ‖ S survive the
    /// round trip through DER; and any JSON object signed verifies back to itself.
    public static func jws(_ data: [UInt8]) -> String? {
        guard let key = fuzzKey else { return nil }
        let keys = [JWS.jwk(publicPoint: key.publicPoint, keyID: "k1")]
        if (try? JWS.verifiedPayload(String(decoding: data, as: UTF8.self), keys: keys)) != nil { return "an unsigned token verified" }
        if data.count >= 64 {
            let raw = Array(data.prefix(64))
            guard let der = JWS.derSignature(fromRaw: raw), JWS.rawSignature(fromDER: der) == raw else { return "R ‖ S does not survive DER" }
        }
        if let object = (try? JSONSerialization.jsonObject(with: Data(data))) as? [String: Any],
           let token = try? JWS.signES256(object, key: key, keyID: "k1") {
            guard let back = try? JWS.verifiedPayload(token, keys: keys) else { return "a signed token does not verify" }
            if NSDictionary(dictionary: back) != NSDictionary(dictionary: object) { return "a signed payload comes back changed" }
        }
        return nil
    }
}
