import Testing
@testable import BulwarkCore

@Suite struct OTPAuthURLTests {
    @Test func parsesTheUsualTOTPURL() throws {
        let c = try OTPAuthURL.parse("otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30")
        #expect(c.kind == .totp(period: 30))
        #expect(c.issuer == "ACME Co" && c.account == "john.doe@email.com")
        #expect(c.digest == .sha1 && c.digits == 6)
        #expect(c.secret == (try Base32.decode("HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ")))
    }

    @Test func defaultsAndTheIssuerFromTheLabel() throws {
        let c = try OTPAuthURL.parse("apple-otpauth://totp/Shiny:%20jane?secret=gezdgnbvgy3tqojq")
        #expect(c.kind == .totp(period: 30) && c.digits == 6 && c.digest == .sha1)
        #expect(c.issuer == "Shiny" && c.account == "jane")
        let parameterWins = try OTPAuthURL.parse("otpauth://totp/Old:jane?secret=GEZDGNBV&issuer=New")
        #expect(parameterWins.issuer == "New" && parameterWins.account == "jane")
    }

    @Test func hotpWithCounterAndOtherAlgorithms() throws {
        let c = try OTPAuthURL.parse("otpauth://hotp/Shiny:jane?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=1&digits=8&algorithm=sha256")
        #expect(c.kind == .hotp(counter: 1) && c.digits == 8 && c.digest == .sha256)
        #expect(c.code(at: 0) == OneTimePassword.hotp(secret: c.secret, counter: 1, digits: 8, digest: .sha256))
        #expect(c.nextCode(at: 0) == OneTimePassword.hotp(secret: c.secret, counter: 2, digits: 8, digest: .sha256))
    }

    @Test(arguments: [
        ("otpauth://totp/x?secret=JBSWY3DP1", OTPAuthURLError.badSecret(character: "1", position: 9)),
        ("otpauth://totp/x?secret=JBSWY3DP&digits=5", .badDigits("5")),
        ("otpauth://totp/x?secret=JBSWY3DP&digits=9", .badDigits("9")),
        ("otpauth://totp/x?secret=JBSWY3DP&algorithm=MD5", .badAlgorithm("MD5")),
        ("otpauth://totp/x?issuer=Shiny", .missingSecret),
        ("otpauth://totp/x?secret=", .emptySecret),
        ("https://totp/x?secret=JBSWY3DP", .wrongScheme("https")),
        ("otpauth://xotp/x?secret=JBSWY3DP", .wrongType("xotp")),
        ("otpauth://totp/x?secret=JBSWY3DP&period=0", .badPeriod("0")),
        ("otpauth://hotp/x?secret=JBSWY3DP", .missingCounter),
        ("otpauth://hotp/x?secret=JBSWY3DP&counter=-1", .badCounter("-1")),
        ("not a url at all", .notAURL),
    ])
    func malformedURLsAreRefusedWithTheirOwnMessage(url: String, error: OTPAuthURLError) {
        #expect(throws: error) { try OTPAuthURL.parse(url) }
    }

    @Test func everyErrorMessageIsDistinctAndNeverShowsTheSecret() {
        let errors: [OTPAuthURLError] = [.notAURL, .wrongScheme("a"), .wrongType("a"), .missingSecret, .badSecret(character: "1", position: 1),
                                         .emptySecret, .badDigits("5"), .badAlgorithm("a"), .badPeriod("0"), .missingCounter, .badCounter("x")]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(OTPAuthURLError.badDigits("5").description == "the digits parameter must be 6, 7 or 8, or 5 with encoder=steam (got '5')")
    }

    @Test(arguments: [
        "otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30",
        "otpauth://hotp/Shiny:jane?secret=GEZDGNBVGY3TQOJQ&counter=42&digits=8&algorithm=SHA512",
        "otpauth://totp/a:b:c?secret=JBSWY3DP&issuer=x%3Ay",
        "otpauth://totp/solo?secret=JBSWY3DP&period=60",
        "otpauth://totp/:user:with:colons?secret=JBSWY3DP",
        "otpauth://totp/Steam:ann?secret=JBSWY3DPEHPK3PXP&period=30&digits=5&issuer=Steam&encoder=steam",
    ])
    func buildingBackRoundTrips(url: String) throws {
        let configuration = try OTPAuthURL.parse(url)
        let built = OTPAuthURL.build(configuration)
        #expect(try OTPAuthURL.parse(built) == configuration, "\(built)")
    }

    @Test func builtURLReadsAsExpected() throws {
        let c = OTPConfiguration(kind: .totp(period: 30), secret: Array("12345678901234567890".utf8), issuer: "Shiny Co", account: "jane@mail.example")
        #expect(OTPAuthURL.build(c) == "otpauth://totp/Shiny%20Co:jane%40mail.example?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Shiny%20Co&algorithm=SHA1&digits=6&period=30")
    }

    // Steam Guard codes worked out with Python's hmac from Steam's published
    // algorithm (the 31-bit HOTP truncation, then base 26 over
    // "23456789BCDFGHJKMNPQRTVWXY", least significant first).
    @Test(arguments: [(Int64(0), "VH8YJ"), (59, "2YXGV"), (1_111_111_109, "CWDGV"), (2_000_000_000, "HNCVQ")])
    func steamCodesAsSteamMakesThem(at time: Int64, code: String) throws {
        let keepassxc = try OTPAuthURL.parse("otpauth://totp/Steam:ann?secret=JBSWY3DPEHPK3PXP&period=30&digits=5&issuer=Steam&encoder=steam")
        let bitwarden = try OTPAuthURL.parse("steam://JBSWY3DPEHPK3PXP")
        #expect(keepassxc.encoder == .steam && bitwarden.encoder == .steam && bitwarden.digits == 5)
        #expect(keepassxc.code(at: time) == code && bitwarden.code(at: time) == code)
        #expect(OTPAuthURL.bitwardenSteam(OTPAuthURL.build(bitwarden)) == "steam://JBSWY3DPEHPK3PXP")
        #expect(OTPAuthURL.bitwardenSteam("otpauth://totp/x?secret=JBSWY3DP") == nil)
    }

    @Test func steamRefusals() {
        #expect(throws: OTPAuthURLError.emptySecret) { try OTPAuthURL.parse("steam://") }
        #expect(throws: OTPAuthURLError.badSecret(character: "1", position: 1)) { try OTPAuthURL.parse("steam://1ABC") }
        #expect(throws: OTPAuthURLError.badDigits("6")) { try OTPAuthURL.parse("otpauth://totp/x?secret=JBSWY3DP&digits=6&encoder=steam") }
    }
}

/// What a person types into the app's Code field becomes the URL the vault keeps.
@Suite struct TOTPInputTests {
    @Test func aSecretAsSitesPrintItBecomesAURL() throws {
        let uri = try TOTPInput.normalized(" jbsw y3dp ehpk 3pxp ", issuer: "Garden Club", account: "jane")
        let config = try OTPAuthURL.parse(uri)
        #expect(config.secret == (try Base32.decode("JBSWY3DPEHPK3PXP")) && config.issuer == "Garden Club" && config.account == "jane")
        #expect(config.code(at: 59).count == 6)
    }

    @Test func urlsAreKeptAndSteamBecomesItsOtpauthForm() throws {
        let url = "otpauth://totp/Shiny:jane?secret=JBSWY3DPEHPK3PXP&issuer=Shiny"
        #expect(try TOTPInput.normalized(url, issuer: "x", account: "y") == url)
        let apple = "apple-otpauth://totp/Shiny:jane?secret=JBSWY3DPEHPK3PXP&issuer=Shiny"
        #expect(try TOTPInput.normalized(apple, issuer: "x", account: "y") == apple)
        let steam = try OTPAuthURL.parse(try TOTPInput.normalized("steam://JBSWY3DPEHPK3PXP", issuer: "x", account: "gabe"))
        #expect(steam.encoder == .steam && steam.account == "gabe")
    }

    @Test func aTypoIsSaidWhereItWasTyped() {
        #expect(throws: OTPAuthURLError.badSecret(character: "!", position: 11)) { try TOTPInput.normalized("not base32!", issuer: "", account: "") }
        #expect(throws: OTPAuthURLError.badSecret(character: "8", position: 6)) { try TOTPInput.normalized("jbsw 8", issuer: "", account: "") }
        #expect(throws: OTPAuthURLError.emptySecret) { try TOTPInput.normalized("   ", issuer: "", account: "") }
    }
}
