import Foundation

/// Base64url without padding (RFC 4648 §5), as WebAuthn's JSON forms write
/// every binary value.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Nil unless the text is base64url (padding tolerated, nothing else).
    public static func decode(_ text: String) -> [UInt8]? {
        let trimmed = text.hasSuffix("==") ? String(text.dropLast(2)) : text.hasSuffix("=") ? String(text.dropLast()) : text
        guard trimmed.utf8.allSatisfy({ byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x5F
        }), trimmed.utf8.count % 4 != 1 else { return nil }
        var standard = trimmed.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }
}
