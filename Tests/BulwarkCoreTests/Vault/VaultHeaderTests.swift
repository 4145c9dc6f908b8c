import Foundation
import Testing
@testable import BulwarkCore

/// A header whose checksum is right but whose KDF asks for too much is
/// refused as damage before anything is derived (16 GiB would be asked
/// for by N=2^22, r=32).
@Suite struct VaultHeaderTests {
    @Test(arguments: [ScryptParameters(logN: 22, r: 8, p: 1), ScryptParameters(logN: 20, r: 32, p: 1), ScryptParameters(logN: 20, r: 8, p: 2)])
    func costlyKeyDerivationSettingsAreDamage(parameters: ScryptParameters) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        try Vault.create(at: path, masterPassword: "m", parameters: testParameters).close()
        let database = try SQLiteDatabase(path: path.path, create: false)
        var header = try Vault.Header.read(from: database)
        header.parameters = parameters
        try database.query("UPDATE meta SET value = ? WHERE key = 'kdf'", [.blob(Array(header.kdfText.utf8))])
        try database.query("UPDATE meta SET value = ? WHERE key = 'header_sha256'", [.blob(header.checksum)])
        let started = Date()
        #expect(throws: VaultError.damaged("the header asks for scrypt N=2^\(parameters.logN), r=\(parameters.r), p=\(parameters.p), beyond bulwark's limits (1 GiB, the work of N=2^20, r=8); refused before deriving anything")) {
            try Vault.open(at: path, masterPassword: "m")
        }
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(!parameters.isSane && ScryptParameters.standard.isSane && ScryptParameters(logN: 20).isSane)
    }
}
