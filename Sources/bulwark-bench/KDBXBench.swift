import BulwarkCore
import Foundation

/// A KeePass database of 10,000 entries written by `keepassxc-cli import`
/// (KDBX 3.1, AES-KDF), read end to end by `bulwark import` and by
/// `keepassxc-cli export --format csv`; the AES-KDF's rounds (from
/// `keepassxc-cli db-info`) are timed apart and taken off both.
enum KDBXBench {
    static let keepassxc = "/usr/bin/keepassxc-cli"

    /// The same kind of database at 100,000 entries, end to end as a person runs
    /// it (scrypt N=2^17 for the vault, the file's own AES-KDF, the export's
    /// Argon2id of about a second), with peak memory: `bulwark import` of it
    /// into a new vault and `bulwark export --format kdbx` of that vault,
    /// beside keepassxc-cli reading it (`export -f csv`) and writing it (`import` of its XML).
    static func hundredThousand(bulwark: String, directory: URL) {
        guard FileManager.default.isExecutableFile(atPath: keepassxc) else { print("kdbx 100,000: needs keepassxc-cli; skipped"); return }
        let count = 100_000
        let source = directory.appendingPathComponent("kdbx-\(count).xml"), kdbx = directory.appendingPathComponent("kdbx-\(count).kdbx")
        try! xml(count).write(to: source, atomically: true, encoding: .utf8)
        let written = Measure.now()
        guard shell([keepassxc, "import", "-q", "-p", "-t", "100", source.path, kdbx.path], stdin: "bench\nbench\n") != nil else {
            print("kdbx 100,000: keepassxc-cli did not make the database; skipped")
            return
        }
        let theirWrite = Double(Measure.now() - written) / 1e9
        var imports: [(Double, Int)] = [], exports: [(Double, Int)] = [], theirReads: [Double] = []
        let vault = directory.appendingPathComponent("kdbx-100k-vault.db").path
        for _ in 0..<2 {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: vault + suffix) }
            _ = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "init", "--i-know-this-is-weak"], stdin: "m\nm\n", directory: directory)
            if let measured = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "import", kdbx.path], stdin: "m\nbench\n", directory: directory) {
                imports.append(measured)
            }
            // Every entry came through keepassxc-cli's file and the import, or the figure is not of 100,000.
            let held = (try? Vault.open(at: URL(fileURLWithPath: vault), masterPassword: "m"))?.entries.count ?? 0
            if held != count { print("  the vault holds \(held) entries, not \(count): the figures below are not of \(count)") }
            let out = directory.appendingPathComponent("kdbx-100k-out.kdbx").path
            try? FileManager.default.removeItem(atPath: out)
            if let measured = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "export", "--format", "kdbx", out], stdin: "m\nbench\n",
                                                    directory: directory) {
                exports.append(measured)
            }
            let start = Measure.now()
            if shell([keepassxc, "export", "-q", "-f", "csv", kdbx.path], stdin: "bench\n") != nil { theirReads.append(Double(Measure.now() - start) / 1e9) }
        }
        func line(_ values: [(Double, Int)]) -> String {
            values.isEmpty ? "failed" : "\(Measure.format(values.map(\.0).min()!)) to \(Measure.format(values.map(\.0).max()!)), peak \(values.map(\.1).max()! / 1024) MiB"
        }
        print("KDBX \(count) entries (keepassxc-cli wrote it), end to end, KDFs included:")
        print("  bulwark import \(line(imports))  target < 2 s, < 250 MB;  keepassxc-cli export -f csv \(theirReads.map { Measure.format($0) }.joined(separator: ", "))")
        print("  bulwark export --format kdbx \(line(exports))  target < 2 s (Argon2id about 1 s of it, beside the XML);  keepassxc-cli import of its XML \(Measure.format(theirWrite))")
    }

    /// A KeePass XML document of `count` logins, as the bench's databases are made from.
    static func xml(_ count: Int) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><KeePassFile><Meta><Generator>bench</Generator></Meta><Root><Group><UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>Root</Name>"
        for i in 0..<count {
            // The entry's number in the last three bytes: with two, the 65,537th entry
            // had the first one's UUID, and keepassxc-cli kept 65,536 of 100,000.
            let uuid = Data((0..<16).map { UInt8(truncatingIfNeeded: ($0 == 15 ? i : $0 == 14 ? i >> 8 : $0 == 13 ? i >> 16 : $0 == 12 ? 1 : 0)) }).base64EncodedString()
            xml += "<Entry><UUID>\(uuid)</UUID><String><Key>Title</Key><Value>Account \(i)</Value></String><String><Key>UserName</Key><Value>user\(i)@mail.example</Value></String>"
                + "<String><Key>Password</Key><Value ProtectInMemory=\"True\">pw-\(i)-\(i &* 7919 % 100_000)</Value></String><String><Key>URL</Key><Value>https://site\(i).example/login</Value></String>"
                + "<String><Key>PIN</Key><Value ProtectInMemory=\"True\">\(i % 10_000)</Value></String></Entry>"
        }
        xml += "</Group></Root></KeePassFile>"
        return xml
    }

    static func run(bulwark: String, directory: URL, count: Int = 10_000) {
        guard FileManager.default.isExecutableFile(atPath: keepassxc) else { print("kdbx: needs keepassxc-cli (Debian's keepassxc); skipped"); return }
        let source = directory.appendingPathComponent("kdbx-\(count).xml"), kdbx = directory.appendingPathComponent("kdbx-\(count).kdbx")
        try! xml(count).write(to: source, atomically: true, encoding: .utf8)
        guard shell([keepassxc, "import", "-q", "-p", source.path, kdbx.path], stdin: "bench\nbench\n") != nil,
              let info = shell([keepassxc, "db-info", "-q", kdbx.path], stdin: "bench\n"),
              let roundsText = info.split(separator: "\n").first(where: { $0.hasPrefix("KDF:") })?.split(separator: "(").last?.split(separator: " ").first,
              let rounds = UInt64(roundsText) else { print("kdbx: keepassxc-cli did not make the database; skipped"); return }
        var kdf = Measure.now()
        _ = try! StreamCiphers.aesKDF([UInt8](repeating: 1, count: 32), seed: [UInt8](repeating: 2, count: 32), rounds: rounds)
        let kdfSeconds = Double(Measure.now() - kdf) / 1e9
        kdf = Measure.now()
        _ = try! Scrypt.derive(password: Array("bench".utf8), salt: SecureRandom.bytes(16), parameters: .standard)
        let scryptSeconds = Double(Measure.now() - kdf) / 1e9
        var ours: [Double] = [], theirs: [Double] = []
        for _ in 0..<3 {
            let vault = directory.appendingPathComponent("kdbx-vault.db").path
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: vault + suffix) }
            _ = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "init", "--i-know-this-is-weak"], stdin: "m\nm\n", directory: directory)
            if let (seconds, _) = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "import", kdbx.path], stdin: "m\nbench\n", directory: directory) {
                ours.append(seconds - kdfSeconds - scryptSeconds)
            }
            let start = Measure.now()
            if shell([keepassxc, "export", "-q", "-f", "csv", kdbx.path], stdin: "bench\n") != nil { theirs.append(Double(Measure.now() - start) / 1e9 - kdfSeconds) }
        }
        guard !ours.isEmpty, !theirs.isEmpty else { print("kdbx: no figures came back (bulwark \(ours.count), keepassxc-cli \(theirs.count)); skipped"); return }
        func range(_ values: [Double]) -> String { "\(Measure.format(values.min()!)) to \(Measure.format(values.max()!))" }
        print("KDBX 3.1 import, \(count) entries, KDFs apart (AES-KDF \(rounds) rounds \(Measure.format(kdfSeconds)), scrypt \(Measure.format(scryptSeconds))): bulwark import \(range(ours)), keepassxc-cli export --format csv \(range(theirs))")
    }

    static func shell(_ arguments: [String], stdin: String) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try! process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? text : nil
    }
}
