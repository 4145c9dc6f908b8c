import Testing
@testable import BulwarkCore

@Suite struct OneTimePasswordTests {
    static let sha1Key = Array("12345678901234567890".utf8)
    static let sha256Key = Array("12345678901234567890123456789012".utf8)
    static let sha512Key = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

    /// RFC 4226 appendix D: HOTP values for counters 0 to 9.
    @Test func rfc4226AppendixD() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        for (counter, code) in expected.enumerated() {
            #expect(OneTimePassword.hotp(secret: Self.sha1Key, counter: UInt64(counter)) == code)
        }
    }

    /// RFC 6238 appendix B: 8-digit TOTP with SHA-1, SHA-256 and SHA-512.
    @Test(arguments: [
        (Int64(59), "94287082", "46119246", "90693936"),
        (1_111_111_109, "07081804", "68084774", "25091201"),
        (1_111_111_111, "14050471", "67062674", "99943326"),
        (1_234_567_890, "89005924", "91819424", "93441116"),
        (2_000_000_000, "69279037", "90698825", "38618901"),
        (20_000_000_000, "65353130", "77737706", "47863826"),
    ])
    func rfc6238AppendixB(time: Int64, sha1: String, sha256: String, sha512: String) {
        #expect(OneTimePassword.totp(secret: Self.sha1Key, at: time, digits: 8, digest: .sha1) == sha1)
        #expect(OneTimePassword.totp(secret: Self.sha256Key, at: time, digits: 8, digest: .sha256) == sha256)
        #expect(OneTimePassword.totp(secret: Self.sha512Key, at: time, digits: 8, digest: .sha512) == sha512)
    }

    @Test func sevenDigitsAndOtherPeriods() {
        // 59 s with a 60 s period is step 0; RFC 4226 gives 1284755224 for counter 0, so 7 digits are 4755224.
        #expect(OneTimePassword.totp(secret: Self.sha1Key, at: 59, period: 60, digits: 7) == "4755224")
        #expect(OneTimePassword.secondsRemaining(at: 59, period: 30) == 1)
        #expect(OneTimePassword.secondsRemaining(at: 60, period: 30) == 30)
    }

    @Test func base32DecodesAnyCaseWithOrWithoutPaddingAndSpaces() throws {
        let secret = Array("12345678901234567890".utf8)
        let encoded = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        #expect(Base32.encode(secret) == encoded)
        #expect(try Base32.decode(encoded) == secret)
        #expect(try Base32.decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq") == secret)
        #expect(try Base32.decode("MZXW6===") == Array("foo".utf8))
        #expect(try Base32.decode("MZXW6") == Array("foo".utf8))
        #expect(throws: Base32.DecodeError(character: "1", position: 3)) { try Base32.decode("MZ1W6") }
        #expect(throws: Base32.DecodeError(character: "A", position: 7)) { try Base32.decode("MZXW6=A") }
    }
}
