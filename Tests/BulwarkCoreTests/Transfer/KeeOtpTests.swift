import Foundation
import Testing
@testable import BulwarkCore

/// KeeOtp's `otp` strings, which KeePassXC reads as codes, are codes here
/// too, not hidden fields; an otpauth URL with KeePassXC's Steam encoder stays one.
@Suite struct KeeOtpTests {
    @Test func keeOtpSettingsBecomeTheCode() throws {
        let uri = try #require(KDBXImport.code(["otp": "key=JBSWY3DPEHPK3PXP&size=8&step=60&otpHashMode=Sha256", "UserName": "jane"], title: "Mail"))
        let code = try OTPAuthURL.parse(uri)
        let secret = try Base32.decode("JBSWY3DPEHPK3PXP")
        #expect(code.digits == 8 && code.kind == .totp(period: 60) && code.digest == .sha256 && code.secret == secret)
        #expect(code.issuer == "Mail" && code.account == "jane")
        let counter = try OTPAuthURL.parse(try #require(KDBXImport.code(["otp": "key=JBSWY3DPEHPK3PXP&type=Hotp&counter=7"], title: "VPN")))
        #expect(counter.kind == .hotp(counter: 7) && counter.digits == 6)
        let steam = "otpauth://totp/Steam:jane?secret=JBSWY3DPEHPK3PXP&issuer=Steam&encoder=steam"
        let steamCode = try OTPAuthURL.parse(steam)
        #expect(KDBXImport.code(["otp": steam], title: "Steam") == steam && steamCode.encoder == .steam)
        // Settings no generator accepts are left for the hidden-field path, as before.
        #expect(KDBXImport.keeOtp("key=JBSWY3DPEHPK3PXP&size=12", title: "X", account: "") == nil)
    }
}
