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
