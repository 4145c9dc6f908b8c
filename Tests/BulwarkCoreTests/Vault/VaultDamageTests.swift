import Foundation
import Testing
@testable import BulwarkCore

/// Flips one bit at a time across a whole small vault: each copy must open
/// with every entry intact or fail with "vault damaged", never crash and
/// never show different data.
@Suite struct VaultDamageTests {
    /// Four interleaved slices run in parallel; together they flip one bit in
    /// every fourth byte of the file (3,072 positions of a 12 KiB vault,
    /// each SQLite page and every header field among them).
    @Test(arguments: 0..<4)
    func everySingleBitFlipIsDetectedOrHarmless(slice: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        let entries = (0..<3).map { Entry(title: "Entry \($0)", urls: ["https://site\($0).example"], username: "user\($0)",
                                           password: "password-\($0)", notes: "note \($0)", tags: ["t\($0)"]) }
        do {
            let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
            try vault.save(entries)
            vault.close()
        }
        let original = try Data(contentsOf: path)
        let expected = try Vault.open(at: path, masterPassword: "m").entries
        var intact = 0, damaged = 0, wrongPassword = 0
        let copy = dir.file("flipped.db")
        // One bit per position; the bit varies with the position.
        let positions = Array(stride(from: slice, to: original.count, by: 16)) + Array(stride(from: slice + 4, to: 100, by: 4))
        for position in positions {
            var bytes = original
            bytes[position] ^= UInt8(1 << (position % 8))
            try bytes.write(to: copy)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) }
            do {
                let vault = try Vault.open(at: copy, masterPassword: "m")
                #expect(vault.entries == expected, "byte \(position): opened with different data")
                intact += 1
                vault.close()
            } catch VaultError.damaged {
                damaged += 1
            } catch VaultError.wrongPassword {
                wrongPassword += 1
                Issue.record("byte \(position): damage reported as a wrong password")
            } catch {
                Issue.record("byte \(position): unexpected \(error)")
            }
            try? FileManager.default.removeItem(at: copy)
        }
        #expect(positions.count >= 500)
        #expect(intact + damaged == positions.count)
        #expect(damaged > 0 && wrongPassword == 0)
    }

    /// Most entries are removed first, so the file's tail holds free pages
    /// that SQLite never reads: cutting those must be noticed too.
    @Test func truncationAtAnyPageIsDamage() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("vault.db")
        do {
            let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
            let entries = (0..<60).map { Entry(title: "E\($0)", password: String(repeating: "x", count: 200)) }
            try vault.save(Array(entries.prefix(5)))
            try vault.save(Array(entries.dropFirst(5)))
            for entry in entries.dropFirst(5) { try vault.remove(id: entry.id) }
            vault.close()
        }
        let original = try Data(contentsOf: path)
        let copy = dir.file("cut.db")
        for length in stride(from: 0, to: original.count, by: 512) + [original.count - 1] {
            try original.prefix(length).write(to: copy)
            do {
                let vault = try Vault.open(at: copy, masterPassword: "m")
                Issue.record("truncated to \(length) bytes but opened with \(vault.entries.count) entries")
            } catch VaultError.damaged {
            } catch {
                Issue.record("truncated to \(length): unexpected \(error)")
            }
            try? FileManager.default.removeItem(at: copy)
        }
    }
}
