import Foundation
import Testing
@testable import BulwarkCore

/// CBOR through libcbor: RFC 8949 Appendix A's encodings (the fewest bytes,
/// as CTAP2's canonical form needs), decoding back, and malformed input refused.
@Suite struct CBORTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(arguments: [
        (CBOR.unsigned(0), "00"), (.unsigned(23), "17"), (.unsigned(24), "1818"), (.unsigned(100), "1864"), (.unsigned(1000), "1903e8"),
        (.unsigned(1_000_000), "1a000f4240"), (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"),
        (.negative(-1), "20"), (.negative(-10), "29"), (.negative(-100), "3863"), (.negative(-1000), "3903e7"),
        (.text(""), "60"), (.text("a"), "6161"), (.text("IETF"), "6449455446"), (.text("\u{00fc}"), "62c3bc"),
        (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"),
        (.array([]), "80"), (.array([.int(1), .int(2), .int(3)]), "83010203"),
        (.array([.int(1), .array([.int(2), .int(3)]), .array([.int(4), .int(5)])]), "8301820203820405"),
        (.map([]), "a0"), (.map([(.int(1), .int(2)), (.int(3), .int(4))]), "a201020304"),
        (.map([(.text("a"), .int(1)), (.text("b"), .array([.int(2), .int(3)]))]), "a26161016162820203"),
        (.bool(false), "f4"), (.bool(true), "f5"), (.map([(.text("up"), .bool(true))]), "a1627570f5"),
    ])
    func rfc8949AppendixA(value: CBOR, encoding: String) throws {
        #expect(Self.hex(value.encoded) == encoding)
        #expect(try CBOR.decode(value.encoded).value == value)
    }

    @Test func malformedAndTrailingInputIsRefused() throws {
        #expect(throws: CBOR.DecodeError.self) { try CBOR.decode([0x18]) }            // a uint8 with no byte
        #expect(throws: CBOR.DecodeError.self) { try CBOR.decode([0x01, 0x02]) }      // bytes after the item
        #expect(try CBOR.decode([0x01, 0x02], allowTrailing: true) == (.unsigned(1), 1))
        #expect(throws: CBOR.DecodeError.self) { try CBOR.decode([0x62, 0xff, 0xfe]) } // text that is not UTF-8
        #expect(throws: CBOR.DecodeError.self) { try CBOR.decode([0xf9, 0x3c, 0x00]) } // a float: not WebAuthn's
        #expect(throws: CBOR.DecodeError.self) { try CBOR.decode(Array(repeating: 0x81, count: 40) + [0x00]) }  // nested too deeply
    }

    /// What the fuzzer found: a header that declares more than the input
    /// holds made libcbor allocate it first (nine bytes asked for an array
    /// of 2.4 billion items, gigabytes). Refused before libcbor sees it.
    @Test(arguments: [
        ([0xad, 0x9a, 0x8e, 0x8a, 0x9a, 0x91, 0x9c, 0x9a, 0x05], "a CBOR array or map longer than its input"),
        ([0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], "a CBOR array or map longer than its input"),
        ([0xbb, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00], "a CBOR array or map longer than its input"),
        ([0x5a, 0xff, 0xff, 0xff, 0xff], "a CBOR string longer than its input"),
        ([0x9f, 0x01, 0xff], "an indefinite length or a reserved header in CBOR"),
        ([0xc1, 0x01], "a CBOR tag WebAuthn does not use"),
    ] as [([UInt8], String)])
    func declaredLengthsMustFitTheInput(bytes: [UInt8], reason: String) {
        #expect(throws: CBOR.DecodeError(description: reason)) { try CBOR.decode(bytes) }
    }

    /// Floats and other simple values are refused, never asked whether they
    /// are booleans (libcbor aborts on that question for a float).
    @Test(arguments: ["f93c00", "fa47c35000", "fb3ff199999999999a", "f6", "f7"])
    func floatsAndOtherSimpleValuesAreRefused(hex: String) {
        let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
        #expect(throws: CBOR.DecodeError(description: "a CBOR type WebAuthn does not use")) { try CBOR.decode(bytes) }
    }
}
