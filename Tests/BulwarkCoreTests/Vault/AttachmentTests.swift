import Foundation
import Testing
@testable import BulwarkCore

/// Files kept with entries: sealed in chunks that read back whole, shared
/// between entries, sealed again by a change of master password, and
/// refused, named, when a chunk is altered, moved, dropped or cut off.
@Suite struct AttachmentTests {
    let dir = TemporaryDirectory()
    var path: URL { dir.file("vault.db") }
    /// Two and a half chunks: a full one, another, and a short last one.
    static let bytes = (0..<(Vault.chunkSize * 5 / 2)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    func vault(_ titles: [String] = ["Mail", "Bank"]) throws -> Vault {
        let vault = try Vault.create(at: path, masterPassword: "m", parameters: testParameters)
        vault.backupPolicy = .none
        try vault.save(titles.map { Entry(title: $0, username: "u", password: "p", created: Date(timeIntervalSince1970: 1_700_000_000)) })
        return vault
    }

    func read(_ vault: Vault, _ title: String, _ name: String) throws -> [UInt8] {
        let entry = try vault.find(title)
        let attachment = try #require(entry.attachments.first { $0.name == name })
        var out: [UInt8] = []
        try vault.readAttachment(attachment, of: entry) { out += $0 }
        return out
    }

    func attach(_ vault: Vault, _ bytes: [UInt8], to title: String, as name: String) throws {
        let id = try vault.find(title).id
        try vault.transaction { change in try change.attach(BytesAttachmentSource(bytes), to: id, name: name) }
    }

    func chunkCount(_ vault: Vault) throws -> Int64 { try vault.db().query("SELECT count(*) FROM blobs").first?.first?.integer ?? -1 }

    @Test func aFileReadsBackWholeAfterReopeningAndARekey() throws {
        let vault = try self.vault()
        try attach(vault, Self.bytes, to: "Mail", as: "codes.pdf")
        try attach(vault, [], to: "Mail", as: "empty.txt")
        let attachment = try #require(try vault.find("Mail").attachments.first)
        #expect(attachment.size == Int64(Self.bytes.count) && attachment.chunks == 3 && attachment.mediaType == "application/pdf")
        #expect(try chunkCount(vault) == 4)  // three, and one empty last chunk for the empty file
        vault.close()
        let again = try Vault.open(at: path, masterPassword: "m")
        #expect(try read(again, "Mail", "codes.pdf") == Self.bytes && (try read(again, "Mail", "empty.txt")).isEmpty)
        try again.changeMasterPassword(to: "n")
        again.close()
        let rekeyed = try Vault.open(at: path, masterPassword: "n")
        #expect(try read(rekeyed, "Mail", "codes.pdf") == Self.bytes)
    }

    @Test func oneFileHeldByTwoEntriesIsStoredOnceAndGoesWithTheLast() throws {
        let vault = try self.vault()
        try attach(vault, Self.bytes, to: "Mail", as: "a.bin")
        try attach(vault, Self.bytes, to: "Bank", as: "b.bin")
        #expect(try chunkCount(vault) == 3)
        let mail = try vault.find("Mail").id, bank = try vault.find("Bank").id
        try vault.transaction { try $0.detach("a.bin", from: mail) }
        #expect(try chunkCount(vault) == 3 && (try read(vault, "Bank", "b.bin")) == Self.bytes)
        try vault.remove(id: bank)
        #expect(try chunkCount(vault) == 0)
    }

    /// Each way of tampering with the chunks, refused with the file and the chunk named.
    @Test func chunksSwappedMovedDroppedOrCutAreRefused() throws {
        let vault = try self.vault()
        try attach(vault, Self.bytes, to: "Mail", as: "codes.pdf")
        try attach(vault, Array(Self.bytes.reversed()), to: "Bank", as: "other.bin")
        let database = try vault.db()
        func rows(_ blob: String) throws -> [[UInt8]] {
            try database.query("SELECT sealed FROM blobs WHERE blob = ? ORDER BY chunk", [.text(blob)]).compactMap { $0.first?.blob.map(Array.init) }
        }
        let blob = try vault.find("Mail").attachments[0].blob, other = try vault.find("Bank").attachments[0].blob
        let original = try rows(blob)
        func set(_ chunk: Int, _ sealed: [UInt8]) throws {
            try database.query("UPDATE blobs SET sealed = ? WHERE blob = ? AND chunk = ?", [.blob(sealed), .text(blob), .integer(Int64(chunk))])
        }
        func refusal() -> String {
            do {
                _ = try read(vault, "Mail", "codes.pdf")
                return "read"
            } catch { return "\(error)" }
        }
        let undecryptable = { (n: Int) in "the file codes.pdf of Mail is damaged: its chunk \(n) of 3 does not decrypt (altered, moved or from another file)" }
        // Swapped (the first two trade places).
        try set(0, original[1])
        try set(1, original[0])
        #expect(refusal() == undecryptable(1))
        // Reordered: the last chunk's box in the middle.
        try set(0, original[0])
        try set(1, original[2])
        #expect(refusal() == undecryptable(2))
        // From another file.
        try set(1, try rows(other)[1])
        #expect(refusal() == undecryptable(2))
        // Altered: one bit of the ciphertext.
        var flipped = original[1]
        flipped[20] ^= 1
        try set(1, flipped)
        #expect(refusal() == undecryptable(2))
        try set(1, original[1])
        // Cut: a middle chunk's box in the last's place (not marked last), then the last dropped.
        try set(2, original[1])
        #expect(refusal() == undecryptable(3))
        try database.query("DELETE FROM blobs WHERE blob = ? AND chunk = 2", [.text(blob)])
        #expect(refusal() == "the file codes.pdf of Mail is damaged: its chunk 3 of 3 is missing")
        // `check` names the same file and chunk.
        vault.close()
        let report = try VaultInspection.inspect(at: path, masterPassword: "m")
        #expect(report.problems == [.attachment(file: "codes.pdf", entry: "Mail", detail: "its chunk 3 of 3 is missing")])
        // `recover` carries the file that opens and names the one that does not.
        let (recovered, lost) = try report.recover(to: dir.file("recovered.db"), masterPassword: "m", from: path)
        #expect(lost == ["codes.pdf of Mail"])
        #expect(try read(recovered, "Bank", "other.bin") == Array(Self.bytes.reversed()) && (try recovered.find("Mail")).attachments.isEmpty)
    }

    /// A ZIP export pulls each file a chunk at a time while the archive is
    /// written: the members read back byte for byte, and a chunk that does
    /// not open stops it with the file named and nothing left behind.
    @Test(arguments: [Exporter.Format.bitwardenJSON, .cxf])
    func aZIPExportStreamsTheFilesAndStopsAtADamagedChunk(format: Exporter.Format) throws {
        let vault = try self.vault()
        try attach(vault, Self.bytes, to: "Mail", as: "codes.pdf")
        let archive = dir.file("export.zip").path
        var asked: [Int] = []
        let written = try ArchiveExport.write(vault.entries, format: format, to: archive) { entry, attachment, index in
            asked.append(index)
            return try vault.attachmentChunk(attachment, of: entry, index)
        }
        #expect(written == 1)
        // CXF reads each file once for its integrity hash, then again into the archive.
        #expect(asked == (format == .cxf ? [0, 1, 2, 0, 1, 2] : [0, 1, 2]))
        let zip = try ZipArchive(Data(contentsOf: URL(fileURLWithPath: archive)))
        let member = try #require(zip.names.first { $0.hasPrefix(format == .cxf ? "documents/" : "attachments/") })
        #expect(try zip.read(member, limit: 1 << 30) == Data(Self.bytes))
        try FileManager.default.removeItem(atPath: archive)

        let blob = try vault.find("Mail").attachments[0].blob
        var sealed = try #require(try vault.db().query("SELECT sealed FROM blobs WHERE blob = ? AND chunk = 1", [.text(blob)]).first?.first?.blob.map(Array.init))
        sealed[30] ^= 1
        try vault.db().query("UPDATE blobs SET sealed = ? WHERE blob = ? AND chunk = 1", [.blob(sealed), .text(blob)])
        var refusal = ""
        do {
            try ArchiveExport.write(vault.entries, format: format, to: archive) { entry, attachment, index in
                try vault.attachmentChunk(attachment, of: entry, index)
            }
        } catch { refusal = "\(error)" }
        #expect(refusal == "the file codes.pdf of Mail is damaged: its chunk 2 of 3 does not decrypt (altered, moved or from another file)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasPrefix("export") }
        #expect(left == [])
    }

    @Test func limitsNamesAndChangingFilesAreRefusedWithNothingWritten() throws {
        let vault = try self.vault()
        vault.attachmentLimits = AttachmentLimits(perFile: 1 << 20, perVault: 3 << 20)
        let before = try vault.find("Mail")
        func refusal(_ bytes: [UInt8], _ name: String, source: AttachmentSource? = nil) -> String {
            do {
                try vault.transaction { change in try change.attach(source ?? BytesAttachmentSource(bytes), to: before.id, name: name) }
                return "attached"
            } catch { return "\(error)" }
        }
        #expect(refusal(Array(Self.bytes), "big.bin") == "big.bin is larger than the 1 MiB an attachment may be (attachment-limit-mib in the config)")
        #expect(refusal([1], "a/b") == "an attachment's name cannot hold a path separator (/ or \\); give another with --name")
        #expect(refusal([1], "bell\u{7}") == "an attachment's name cannot hold control characters; give another with --name")
        #expect(refusal([1], "..") == "an attachment cannot be named ..; give another with --name")
        #expect(refusal([], "x", source: Changing()) == "x changed while it was read; try again once nothing is writing it")
        let mebibyte = [UInt8](repeating: 1, count: 1 << 20)
        #expect(refusal(mebibyte, "one") == "attached" && refusal(mebibyte.map { $0 + 1 }, "two") == "attached")
        #expect(refusal(mebibyte.map { $0 + 2 }, "three") == "attached")
        #expect(refusal(mebibyte.map { $0 + 3 }, "four") == "four would take the vault's files past 3 MiB (they hold 3 MiB now; attachments-limit-mib in the config)")
        #expect(refusal(mebibyte, "one") == "Mail already holds a file named one; give another with --name")
        #expect(try vault.find("Mail").attachments.map(\.name) == ["one", "two", "three"] && (try chunkCount(vault)) == 3)
    }

    /// Different bytes the second time through.
    final class Changing: AttachmentSource {
        var pass = 0, given = false
        func read(upTo count: Int) throws -> [UInt8] {
            if given { return [] }
            given = true
            return [UInt8(pass)]
        }
        func rewind() throws {
            pass += 1
            given = false
        }
    }
}
