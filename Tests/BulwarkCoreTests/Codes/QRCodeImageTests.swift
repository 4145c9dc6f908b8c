import Foundation
import Testing
@testable import BulwarkCore

/// QR codes read from images an independent encoder made
/// (Fixtures/qr/make-qr.py: segno and Pillow).
@Suite struct QRCodeImageTests {
    static func fixture(_ name: String) -> String {
        SharedData.repositoryRoot.appendingPathComponent("Tests/BulwarkCoreTests/Fixtures/qr/\(name)").path
    }

    static let rfc6238 = "otpauth://totp/Example:alice@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Example&algorithm=SHA1&digits=8&period=30"

    /// The code set up from the picture gives RFC 6238's own test values (Appendix B, SHA-1).
    @Test(arguments: ["rfc6238.png", "rfc6238.jpg"])
    func aCodeReadFromAPictureMatchesRFC6238(name: String) throws {
        let text = try QRCodeImage.text(atPath: Self.fixture(name))
        #expect(text == Self.rfc6238)
        let config = try OTPAuthURL.parse(text)
        for (time, code) in [(59, "94287082"), (1_111_111_109, "07081804"), (1_234_567_890, "89005924"), (2_000_000_000, "69279037")] {
            #expect(config.code(at: Int64(time)) == code)
        }
    }

    @Test func aTransparentBackgroundReadsAsWhite() throws {
        #expect(try QRCodeImage.text(atPath: Self.fixture("transparent.png")) == "otpauth://totp/Shiny:jane?secret=JBSWY3DPEHPK3PXP&issuer=Shiny")
    }

    @Test func whatIsNotOneCodeSaysWhy() throws {
        #expect(throws: QRCodeImage.Failure.several) { try QRCodeImage.text(atPath: Self.fixture("two-codes.png")) }
        #expect(throws: QRCodeImage.Failure.noCode) { try QRCodeImage.text(atPath: Self.fixture("blank.png")) }
        #expect(throws: QRCodeImage.Failure.unreadable) { try QRCodeImage.text(atPath: Self.fixture("missing.png")) }
        #expect(throws: QRCodeImage.Failure.notAnImage) { try QRCodeImage.text(atPath: Self.fixture("make-qr.py")) }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Cut short after the header: the image libraries refuse it, nothing crashes.
        for name in ["rfc6238.png", "rfc6238.jpg"] {
            let whole = try Data(contentsOf: URL(fileURLWithPath: Self.fixture(name)))
            let cut = dir.appendingPathComponent(name)
            try whole.prefix(200).write(to: cut)
            #expect(throws: QRCodeImage.Failure.damaged) { try QRCodeImage.text(atPath: cut.path) }
        }
        // A PNG header claiming 100,000 pixels a side is refused before any memory is taken.
        #expect(throws: QRCodeImage.Failure.tooLarge) { try QRCodeImage.text(atPath: Self.fixture("huge-header.png")) }
    }
}
