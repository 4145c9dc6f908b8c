import BulwarkCore
import Foundation

/// Import and export at scale, end to end through the release `bulwark`
/// binary (master password KDF at the product's default, N=2^17): a
/// Chrome CSV of N logins imported into a new vault, then `list --json`,
/// `show --json`, and both exports. Each command's wall time and peak RSS
/// come from GNU time (`/usr/bin/time -f`), so the figure is the child's own.
enum TransferBench {
    static func csv(_ count: Int) -> String {
        var text = "name,url,username,password,note\n"
        text.reserveCapacity(count * 100)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for i in 0..<count {
            let password = String((0..<14).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            text += "Account \(i),https://site\(i).example/login,user\(i)@mail.example,\(password),\(i % 10 == 0 ? "\"a note, with a comma\"" : "")\n"
        }
        return text
    }

    /// KeePass's plain XML export of `count` entries in one group, as KeePassXC writes one.
    static func keepassXML(_ count: Int) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<KeePassFile>\n\t<Meta>\n\t\t<Generator>KeePassXC</Generator>\n\t</Meta>\n\t<Root>\n\t\t<Group>\n\t\t\t<Name>Passwords</Name>\n"
        text.reserveCapacity(count * 700)
        for i in 0..<count {
            text += "\t\t\t<Entry>\n\t\t\t\t<Times>\n\t\t\t\t\t<LastModificationTime>2024-05-06T07:08:09Z</LastModificationTime>\n\t\t\t\t\t<CreationTime>2024-05-06T07:08:09Z</CreationTime>\n\t\t\t\t</Times>\n"
                + "\t\t\t\t<String>\n\t\t\t\t\t<Key>Title</Key>\n\t\t\t\t\t<Value>Account \(i)</Value>\n\t\t\t\t</String>\n"
                + "\t\t\t\t<String>\n\t\t\t\t\t<Key>UserName</Key>\n\t\t\t\t\t<Value>user\(i)@mail.example</Value>\n\t\t\t\t</String>\n"
                + "\t\t\t\t<String>\n\t\t\t\t\t<Key>Password</Key>\n\t\t\t\t\t<Value ProtectInMemory=\"True\">Pw\(i)-xYz!abcdEF</Value>\n\t\t\t\t</String>\n"
                + "\t\t\t\t<String>\n\t\t\t\t\t<Key>URL</Key>\n\t\t\t\t\t<Value>https://site\(i).example/login</Value>\n\t\t\t\t</String>\n\t\t\t</Entry>\n"
        }
        return text + "\t\t</Group>\n\t</Root>\n</KeePassFile>\n"
    }

    /// Dashlane's credentials.csv of `count` logins (three user-name columns, a category, an otpUrl).
    static func dashlaneCSV(_ count: Int) -> String {
        var text = "username,username2,username3,title,password,note,url,category,otpUrl\n"
        text.reserveCapacity(count * 110)
        for i in 0..<count {
            text += "user\(i)@mail.example,,,Account \(i),Pw\(i)-xYz!abcdEF,\(i % 10 == 0 ? "\"a note, with a comma\"" : ""),https://site\(i).example/login,\(i % 7 == 0 ? "Work" : ""),\n"
        }
        return text
    }

    static func run(bulwark: String, directory: URL) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), FileManager.default.isExecutableFile(atPath: bulwark) else {
            print("transfer: needs /usr/bin/time (Debian's time) and \(bulwark); skipped")
            return
        }
        let sizes = (ProcessInfo.processInfo.environment["BULWARK_BENCH_SIZES"] ?? "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
        for count in sizes {
            let source = directory.appendingPathComponent("chrome-\(count).csv")
            try! csv(count).write(to: source, atomically: true, encoding: .utf8)
            let vault = directory.appendingPathComponent("vault-\(count).db").path
            _ = command(bulwark, ["--vault", vault, "--password-stdin", "init", "--i-know-this-is-weak"], stdin: "bench-master\nbench-master\n", directory: directory)
            let steps: [(String, [String])] = [
                ("import", ["import", "--format", "chrome-csv", source.path]),
                ("list --json", ["list", "--json"]),
                ("show --json", ["show", "--json", "Account \(count / 2)"]),
                ("export bitwarden-json", ["export", "--format", "bitwarden-json", directory.appendingPathComponent("out.json").path]),
                ("export apple-csv", ["export", "--format", "apple-csv", directory.appendingPathComponent("out.csv").path]),
                ("export cxf", ["export", "--format", "cxf", directory.appendingPathComponent("out.cxf.json").path]),
            ]
            for (name, arguments) in steps {
                guard let (seconds, kib) = command(bulwark, ["--vault", vault, "--password-stdin"] + arguments, stdin: "bench-master\n", directory: directory) else {
                    print("\(name) \(count): failed")
                    continue
                }
                let label = "\(name), \(count) entries"
                print("\(label.padding(toLength: 46, withPad: " ", startingAt: 0)) \(Measure.format(seconds)), peak RSS \(String(format: "%.1f", Double(kib) / 1024)) MiB"
                      + (count == 100_000 ? "  target < 1.5 s, < 200 MB" : ""))
            }
            // The JSON documents just written, and KeePass's XML and Dashlane's CSV of the same accounts, each into a new vault.
            try! keepassXML(count).write(to: directory.appendingPathComponent("keepass.xml"), atomically: true, encoding: .utf8)
            try! dashlaneCSV(count).write(to: directory.appendingPathComponent("credentials.csv"), atomically: true, encoding: .utf8)
            for (format, file) in [("cxf", "out.cxf.json"), ("bitwarden-json", "out.json"), ("keepass-xml", "keepass.xml"), ("dashlane-csv", "credentials.csv")] {
                let second = directory.appendingPathComponent("vault-\(format)-\(count).db").path
                _ = command(bulwark, ["--vault", second, "--password-stdin", "init", "--i-know-this-is-weak"], stdin: "bench-master\nbench-master\n", directory: directory)
                guard let (seconds, kib) = command(bulwark, ["--vault", second, "--password-stdin", "import", directory.appendingPathComponent(file).path],
                                                   stdin: "bench-master\n", directory: directory) else {
                    print("import \(format) \(count): failed")
                    continue
                }
                let label = "import \(format), \(count) entries"
                print("\(label.padding(toLength: 46, withPad: " ", startingAt: 0)) \(Measure.format(seconds)), peak RSS \(String(format: "%.1f", Double(kib) / 1024)) MiB"
                      + (count == 100_000 ? "  target < 1.5 s, < 200 MB" : ""))
            }
        }
    }

    /// Runs the binary under GNU time: seconds and peak KiB; nil when it
    /// fails (exits outside `succeeding`; `analyze` exits 10 to 12 with findings).
    static func command(_ bulwark: String, _ arguments: [String], stdin: String, directory: URL,
                        succeeding: ClosedRange<Int32> = 0...0) -> (Double, Int)? {
        let report = directory.appendingPathComponent("time.txt")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-o", report.path, "-f", "%e %M", bulwark] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BULWARK_CONFIG"] = "/nonexistent/bulwark-bench-config"
        environment["XDG_STATE_HOME"] = directory.path
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try! process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard succeeding.contains(process.terminationStatus), let text = try? String(contentsOf: report, encoding: .utf8) else { return nil }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count >= 2, let seconds = Double(parts[parts.count - 2]), let kib = Int(parts[parts.count - 1]) else { return nil }
        return (seconds, kib)
    }
}

extension TransferBench {
    /// The import's phases in this process, to show where its time goes.
    static func phases(count: Int, directory: URL) {
        let data = Data(csv(count).utf8)
        var start = Measure.now()
        let result = try! Importer.read(data, format: .chromeCSV, existing: [])
        let read = Double(Measure.now() - start) / 1e9
        var vault = try! Vault.create(at: directory.appendingPathComponent("phases.db"), masterPassword: "bench", parameters: ScryptParameters(logN: 10))
        start = Measure.now()
        try! vault.insertNew(result.entries)
        let save = Double(Measure.now() - start) / 1e9
        start = Measure.now()
        vault.close()
        let close = Double(Measure.now() - start) / 1e9
        vault = try! Vault.open(at: directory.appendingPathComponent("phases.db"), masterPassword: "bench")
        start = Measure.now()
        try! vault.prepareStrengthMemo()
        let memo = Double(Measure.now() - start) / 1e9
        vault.close()
        print("import phases, \(count) entries: read \(Measure.format(read)), seal+write \(Measure.format(save)), close (WAL checkpoint) \(Measure.format(close)); later, the first analysis's strength memo \(Measure.format(memo))")
        // The same entries as a CXF document: its reading alone, and the JSON reader's part of it.
        let cxf = Exporter.write(result.entries, format: .cxf)
        start = Measure.now()
        _ = try! JSONStream.parse(cxf, streaming: [["accounts", "*", "items"]])
        let scan = Double(Measure.now() - start) / 1e9
        start = Measure.now()
        _ = try! Importer.read(cxf, format: .cxf, existing: [])
        print("CXF import phases, \(count) entries (\(cxf.count / 1_000_000) MB): read \(Measure.format(Double(Measure.now() - start) / 1e9)), of it the JSON reader alone \(Measure.format(scan))")
    }
}
