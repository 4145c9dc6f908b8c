import Foundation
import Testing
@testable import BulwarkCore

/// SSH keys as OpenSSH's own ssh-keygen writes them, read by bulwark: the
/// same public key OpenSSH derives, and the ones bulwark cannot sign with
/// refused with a reason.
@Suite struct SSHKeyTests {
    static let sshKeygen = "/usr/bin/ssh-keygen"

    /// A key made by ssh-keygen in a temporary folder: its private file's text and its public line.
    static func made(_ arguments: [String]) throws -> (text: String, publicLine: String)? {
        guard FileManager.default.isExecutableFile(atPath: sshKeygen) else { return nil }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-ssh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("key").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sshKeygen)
        process.arguments = arguments + ["-f", file, "-C", "made-by-ssh-keygen", "-q"]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return (try String(contentsOfFile: file, encoding: .utf8), try String(contentsOfFile: file + ".pub", encoding: .utf8))
    }

    @Test(arguments: [["-t", "ed25519"], ["-t", "ecdsa", "-b", "256"], ["-t", "ecdsa", "-b", "384"], ["-t", "rsa", "-b", "3072"],
                      ["-t", "rsa", "-b", "2048", "-m", "PEM"], ["-t", "ecdsa", "-b", "256", "-m", "PKCS8"]])
    func aKeySSHKeygenWroteGivesThePublicKeyItDid(arguments: [String]) throws {
        guard let (text, publicLine) = try Self.made(arguments + ["-N", ""]) else {
            print("SKIP aKeySSHKeygenWroteGivesThePublicKeyItDid: needs ssh-keygen (openssh-client)")
            return
        }
        let key = try SSHPrivateKey(text: text)
        #expect(key.publicLine(comment: "made-by-ssh-keygen") == publicLine.trimmingCharacters(in: .whitespacesAndNewlines))
        // Signs in the algorithm its type names (the signature is checked by OpenSSH in the agent's end-to-end test).
        var reader = SSHReader(try SSHSignature.sign(Array("data".utf8), with: key, flags: SSHSignature.rsaSHA512))
        let expected = key.typeName == "ssh-rsa" ? "rsa-sha2-512" : key.typeName
        #expect(reader.text() == expected && reader.string()?.isEmpty == false && reader.isAtEnd)
        // PKCS#8, as ssh-key new keeps a key, reads back to the same key.
        #expect(try SSHPrivateKey(text: key.pkcs8PEM).publicBlob == key.publicBlob)
    }

    @Test func whatCannotBeSignedWithIsRefusedWithItsReason() throws {
        if let (encrypted, _) = try Self.made(["-t", "ed25519", "-N", "a passphrase"]) {
            #expect(throws: SSHPrivateKey.Failure(description: "an OpenSSH key encrypted with aes256-ctr (ssh-keygen -p -N '' on a copy stores it unencrypted; the vault encrypts it)")) {
                try SSHPrivateKey(text: encrypted)
            }
        }
        if let (small, _) = try Self.made(["-t", "rsa", "-b", "1024", "-N", ""]) {
            #expect(throws: SSHPrivateKey.Failure(description: "an RSA key of 1024 bits (2048 or more are needed)")) { try SSHPrivateKey(text: small) }
        }
        #expect(throws: SSHPrivateKey.Failure(description: "no PEM block (-----BEGIN … PRIVATE KEY-----)")) { try SSHPrivateKey(text: "ssh-ed25519 AAAA") }
        #expect(throws: SSHPrivateKey.Failure(description: "not an OpenSSH private key")) {
            try SSHPrivateKey(text: "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n")
        }
    }

    /// A passphrase is seen in each form ssh-keygen writes one (`ssh-key import` then asks for it).
    @Test(arguments: [[], ["-m", "PEM"], ["-m", "PKCS8"]])
    func aPassphraseIsSeenInEveryForm(format: [String]) throws {
        guard let (encrypted, _) = try Self.made(["-t", "ecdsa", "-N", "a passphrase"] + format),
              let (plain, _) = try Self.made(["-t", "ecdsa", "-N", ""] + format) else {
            print("SKIP aPassphraseIsSeenInEveryForm: needs ssh-keygen (openssh-client)")
            return
        }
        #expect(SSHPrivateKey.isEncrypted(encrypted) && !SSHPrivateKey.isEncrypted(plain))
        #expect(!SSHPrivateKey.isEncrypted("not a key"))
    }

    @Test func aNewKeyHasOpenSSHsFingerprintForm() throws {
        let key = try SSHPrivateKey.generateEd25519()
        #expect(key.fingerprint.hasPrefix("SHA256:") && key.fingerprint.count == 50 && !key.fingerprint.contains("="))
        #expect(key.publicLine(comment: "laptop").hasPrefix("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI") && key.publicLine(comment: "laptop").hasSuffix(" laptop"))
        #expect(try SSHPrivateKey.generateECDSA(curve: "nistp384").typeName == "ecdsa-sha2-nistp384")
    }
}
