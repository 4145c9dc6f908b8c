import Foundation
import Testing

/// `bulwark code`, through the real binary.
@Suite struct CodeCommandTests {
    static let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  // base32 of "12345678901234567890"

    @Test func printsTheCodeAsTheFirstWord() throws {
        let result = try Binary.run(["code", "--uri", "-", "--at", "59"], stdin: "otpauth://totp/T:a?secret=\(Self.rfcSecret)&digits=8\n")
        #expect(result.status == 0)
        #expect(result.stdout == "94287082 (valid for 1 more second)\n")
    }

    @Test func jsonAddsTheSecondsRemainingAndTheNextCode() throws {
        let result = try Binary.run(["code", "--json", "--at", "1111111109", "--uri", "-"],
                                    stdin: "otpauth://totp/T:a?secret=\(Self.rfcSecret)&digits=8\n")
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(object["code"] as? String == "07081804")
        #expect(object["seconds_remaining"] as? Int == 1)
        #expect(object["next_code"] as? String == "14050471")  // the RFC's value at 1111111111, the next step
        #expect(object["type"] as? String == "totp" && object["period"] as? Int == 30)
    }

    @Test func hotpUsesTheCounter() throws {
        let result = try Binary.run(["code", "--uri", "-"], stdin: "otpauth://hotp/T:a?secret=\(Self.rfcSecret)&counter=3\n")
        #expect(result.stdout == "969429 (counter 3)\n")
    }

    @Test func anInvalidURIExitsOneWithTheReason() throws {
        let result = try Binary.run(["code", "--uri", "-"], stdin: "otpauth://totp/T:a?secret=\(Self.rfcSecret)&digits=9\n")
        #expect(result.status == 1)
        #expect(result.stderr == "bulwark: invalid otpauth URL: the digits parameter must be 6, 7 or 8, or 5 with encoder=steam (got '9').\n")
        #expect(!result.stderr.contains(Self.rfcSecret))
    }
}
