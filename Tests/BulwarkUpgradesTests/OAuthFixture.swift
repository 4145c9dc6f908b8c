import BulwarkCore
import Foundation
@testable import BulwarkUpgrades

extension UpgradeFixture {
    static let nimbusTOTP = "otpauth://totp/Nimbus:jane?secret=KRUGKIDROVUWG2ZAMJZG653OEBTG66BANJ2W24DT&issuer=Nimbus"
    static let nimbusPassword = "nimbus-pass-1"

    /// The person's Nimbus ID account (a vault entry for its login page, signed up there) and Shiny's account under the same e-mail.
    func withNimbus() throws -> Entry {
        let nimbus = Entry(id: "nimbus", title: "Nimbus ID", urls: ["https://id.nimbus.example"], username: "jane@mail.example",
                           password: Self.nimbusPassword, totpURI: Self.nimbusTOTP)
        try vault.save(nimbus)
        _ = try world.enroll(nimbus)
        return nimbus
    }

    var nimbusServer: MockAuthorizationServer { get throws { try world.authorizationServer(issuer: "https://id.nimbus.example")! } }

    func nimbusCode(offset: TimeInterval = 0) throws -> String {
        try OTPAuthURL.parse(Self.nimbusTOTP).code(at: Int64(clock.now.timeIntervalSince1970 + offset))
    }

    func webSession(_ id: String = "shiny", ephemeral: Bool = false) throws -> WebAuthenticationSession {
        try world.webAuthenticationSession(for: entry(id), ephemeral: ephemeral)!
    }
}
