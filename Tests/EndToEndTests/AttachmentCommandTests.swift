import Foundation
import Synchronization
import Testing

/// `bulwark attach` and `bulwark attachment list|get|rm` as a person runs
/// them: files in and out byte for byte, 0600, never over an existing
/// file without --force, never through a symlink, bad input refused with
/// nothing changed, and the files kept through a change of master password.
@Suite struct AttachmentCommandTests {
    static let bytes = Data((0..<(3 << 20) + 77).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) })

    func fixture() throws -> (VaultCommandTests.Fixture, URL) {
        let f = try VaultCommandTests.Fixture()
        #expect(try f.run(["add", "--title", "Mail", "--username", "jane", "--entry-password-stdin"], stdin: "master\nsecret\n").status == 0)
        let file = f.dir.appendingPathComponent("recovery codes.pdf")
        try Self.bytes.write(to: file)
        return (f, file)
    }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    @Test func aFileGoesInAndComesOutByteForByte() throws {
        let (f, file) = try fixture()
        let attached = try f.run(["attach", "Mail", file.path])
        #expect(attached.status == 0 && attached.stderr == "bulwark: attached recovery codes.pdf (3 MiB) to Mail.\n", "\(attached.stderr)")
        let listed = try f.run(["attachment", "list", "Mail"])
        #expect(listed.stdout.hasPrefix("recovery codes.pdf\t\(Self.bytes.count)\tapplication/pdf\t"))
        let out = f.dir.appendingPathComponent("out.pdf").path
        let got = try f.run(["attachment", "get", "Mail", "recovery codes.pdf", "--out", out])
        #expect(got.status == 0 && got.stderr == "bulwark: wrote recovery codes.pdf (3 MiB) to \(out).\n")
        let outMode = try mode(out)
        #expect(FileManager.default.contents(atPath: out) == Self.bytes && outMode == 0o600)
        // Only the file itself is left beside it: no temporary file stays.
        let left = try FileManager.default.contentsOfDirectory(atPath: f.dir.path).filter { $0.contains(".bulwark-") }
        #expect(left.isEmpty)
        let shown = try f.run(["show", "Mail", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let files = try #require(object["attachments"] as? [[String: Any]])
        #expect(files.count == 1 && files[0]["name"] as? String == "recovery codes.pdf" && files[0]["size"] as? Int == Self.bytes.count
                && files[0]["media_type"] as? String == "application/pdf")
        // Through a change of master password, to standard output (a pipe here).
        #expect(try f.run(["passwd", "--i-know-this-is-weak"], stdin: "master\nnewpass\nnewpass\n").status == 0)
        let again = f.dir.appendingPathComponent("again.pdf").path
        #expect(try f.run(["attachment", "get", "Mail", "recovery codes.pdf", "--out", again], stdin: "newpass\n").status == 0)
        #expect(FileManager.default.contents(atPath: again) == Self.bytes)
        let text = f.dir.appendingPathComponent("note.txt")
        try "line one\nline two\n".write(to: text, atomically: true, encoding: .utf8)
        #expect(try f.run(["attach", "Mail", text.path], stdin: "newpass\n").status == 0)
        let piped = try f.run(["attachment", "get", "Mail", "note.txt"], stdin: "newpass\n")
        #expect(piped.status == 0 && piped.stdout == "line one\nline two\n")
        #expect(try f.run(["attachment", "rm", "Mail", "note.txt"], stdin: "newpass\n").status == 0)
        let removed = try f.run(["attachment", "rm", "Mail", "recovery codes.pdf"], stdin: "newpass\n")
        #expect(removed.status == 0 && removed.stderr == "bulwark: removed recovery codes.pdf from Mail.\n")
        #expect(try f.run(["attachment", "list", "Mail"], stdin: "newpass\n").stderr == "bulwark: Mail holds no files.\n")
    }

    @Test func nothingIsOverwrittenOrFollowedWithoutForce() throws {
        let (f, file) = try fixture()
        #expect(try f.run(["attach", "Mail", file.path, "--name", "codes.pdf"]).status == 0)
        let existing = f.dir.appendingPathComponent("existing").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: existing))
        let refused = try f.run(["attachment", "get", "Mail", "codes.pdf", "--out", existing])
        #expect(refused.status == 1 && refused.stderr == "bulwark: \(existing) exists; give --force to replace it. Nothing was written.\n")
        #expect(FileManager.default.contents(atPath: existing) == Data("keep me".utf8))
        // A symlink at --out: refused without --force, replaced (not followed) with it.
        let link = f.dir.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: existing)
        #expect(try f.run(["attachment", "get", "Mail", "codes.pdf", "--out", link]).status == 1)
        let forced = try f.run(["attachment", "get", "Mail", "codes.pdf", "--out", link, "--force"])
        #expect(forced.status == 0)
        #expect(FileManager.default.contents(atPath: existing) == Data("keep me".utf8))  // the link's target untouched
        #expect(FileManager.default.contents(atPath: link) == Self.bytes)
        let type = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
        #expect(type == .typeRegular)
    }

    @Test func badInputIsRefusedWithNothingChanged() throws {
        let (f, file) = try fixture()
        let missing = try f.run(["attach", "Mail", f.dir.appendingPathComponent("nope.pdf").path])
        #expect(missing.status == 1 && missing.stderr == "bulwark: \(f.dir.path)/nope.pdf: no such file. Nothing was attached.\n")
        let folder = try f.run(["attach", "Mail", f.dir.path])
        #expect(folder.status == 1 && folder.stderr == "bulwark: \(f.dir.path) is a folder: attach a file. Nothing was attached.\n")
        let named = try f.run(["attach", "Mail", file.path, "--name", "../etc/passwd"])
        #expect(named.status == 1 && named.stderr == "bulwark: an attachment's name cannot hold a path separator (/ or \\). Nothing was attached.\n")
        let config = f.dir.appendingPathComponent("config")
        try "attachment-limit-mib = 1\n".write(to: config, atomically: true, encoding: .utf8)
        let large = try Binary.run(["attach", "Mail", file.path, "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                   environment: ["BULWARK_CONFIG": config.path])
        #expect(large.status == 1 && large.stderr == "bulwark: recovery codes.pdf is larger than the 1 MiB an attachment may be (attachment-limit-mib in the config). Nothing was attached.\n", "\(large.stderr)")
        let none = try f.run(["attachment", "get", "Mail", "other.pdf", "--out", f.dir.appendingPathComponent("o").path])
        #expect(none.status == 1 && none.stderr == "bulwark: Mail holds no file named other.pdf.\n")
        #expect(try f.run(["attachment", "list", "Mail"]).stderr == "bulwark: Mail holds no files.\n")
        #expect(try f.run(["attachment", "frob", "Mail"]).status == 2)
    }

    /// Killed part-way through sealing the chunks, or at any step of the
    /// write: the vault opens, holds no trace of the file, and the next
    /// attach works.
    @Test func aKillWhileAttachingLeavesNothingHalfWritten() throws {
        let (f, file) = try fixture()
        for point in ["attach-chunk#2"] + ["write-rows", "write-indexed"] {
            let killed = try Binary.run(["attach", "Mail", file.path, "--vault", f.vault, "--password-stdin"], stdin: "master\n",
                                        environment: ["BULWARK_KILL_AT": point])
            #expect(killed.status == 128 + 9, "\(point): \(killed.stderr)")
            let listed = try f.run(["attachment", "list", "Mail"])
            #expect(listed.status == 0 && listed.stdout.isEmpty && listed.stderr == "bulwark: Mail holds no files.\n", "\(point)")
            let check = try f.run(["check"])
            #expect(check.status == 0, "\(point): \(check.stdout)\(check.stderr)")
        }
        #expect(try f.run(["attach", "Mail", file.path]).status == 0)
        let out = f.dir.appendingPathComponent("after.pdf").path
        #expect(try f.run(["attachment", "get", "Mail", "recovery codes.pdf", "--out", out]).status == 0)
        #expect(FileManager.default.contents(atPath: out) == Self.bytes)
    }

    /// FILE.zip exports carry the files: Bitwarden's export with attachments
    /// and a CXF archive, each read back into a new vault byte for byte.
    @Test(arguments: ["bitwarden-json", "cxf"])
    func aZIPExportCarriesTheFilesAndReadsBackWhole(format: String) throws {
        let (f, file) = try fixture()
        #expect(try f.run(["attach", "Mail", file.path]).status == 0)
        let archive = f.dir.appendingPathComponent("export-\(format).zip").path
        let exported = try f.run(["export", "--format", format, archive])
        #expect(exported.status == 0 && exported.stdout == "Exported 1 entries and 1 file to \(archive).\n", "\(exported.stderr)")
        let archiveMode = try mode(archive)
        #expect(archiveMode == 0o600)
        let g = try VaultCommandTests.Fixture()
        let imported = try g.run(["import", archive])
        #expect(imported.status == 0 && imported.stdout == "Imported 1 entry (1 login).\n", "\(imported.stdout)\(imported.stderr)")
        let out = g.dir.appendingPathComponent("back.pdf").path
        #expect(try g.run(["attachment", "get", "Mail", "recovery codes.pdf", "--out", out]).status == 0)
        #expect(FileManager.default.contents(atPath: out) == Self.bytes)
        let refused = try f.run(["export", "--format", "apple-csv", f.dir.appendingPathComponent("x.zip").path])
        #expect(refused.status == 2)
    }

    /// Four processes attach to one entry at once: each change lands on
    /// the entry as the one before left it, so every file is there whole.
    @Test func manyWritersAttachingAtOnceLoseNoFile() throws {
        let (f, _) = try fixture()
        let names = (0..<4).map { "file-\($0).bin" }
        for (index, name) in names.enumerated() {
            try Data(repeating: UInt8(index + 1), count: 300_000 + index).write(to: f.dir.appendingPathComponent(name))
        }
        let vault = f.vault, dir = f.dir
        let statuses = Mutex<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: names.count) { index in
            let result = try? Binary.run(["attach", "Mail", dir.appendingPathComponent(names[index]).path, "--vault", vault, "--password-stdin"],
                                         stdin: "master\n")
            statuses.withLock { $0.append(result?.status ?? -1) }
        }
        #expect(statuses.withLock { $0 } == [0, 0, 0, 0])
        let listed = try f.run(["attachment", "list", "Mail"]).stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted()
        #expect(listed == names)
        for (index, name) in names.enumerated() {
            let out = f.dir.appendingPathComponent("back-\(name)").path
            #expect(try f.run(["attachment", "get", "Mail", name, "--out", out]).status == 0)
            #expect(FileManager.default.contents(atPath: out) == Data(repeating: UInt8(index + 1), count: 300_000 + index))
        }
    }
}
