/// RFC 4648 base32, as authenticator secrets are written: upper or lower
/// case, padding optional, spaces and hyphens ignored.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public struct DecodeError: Error, Equatable {
        public let character: Character
        public let position: Int  // 1-based, in the text as given
    }

    public static func decode(_ text: String) throws(DecodeError) -> [UInt8] {
        var buffer: UInt64 = 0, bits = 0
        var out: [UInt8] = []
        var padding = false
        for (index, character) in text.enumerated() {
            if character == " " || character == "-" { continue }
            if character == "=" { padding = true; continue }
            guard !padding, let ascii = character.asciiValue,
                  let value = alphabet.firstIndex(of: ascii >= 97 && ascii <= 122 ? ascii - 32 : ascii) else {
                throw DecodeError(character: character, position: index + 1)
            }
            buffer = (buffer << 5) | UInt64(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt64(bits)) & 0xFF))
            }
        }
        return out
    }

    /// Upper case, no padding (the form otpauth URLs use).
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = ""
        var buffer: UInt64 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt64(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(Character(Unicode.Scalar(alphabet[Int((buffer >> UInt64(bits)) & 31)])))
            }
        }
        if bits > 0 { out.append(Character(Unicode.Scalar(alphabet[Int((buffer << UInt64(5 - bits)) & 31)]))) }
        return out
    }
}
