import BulwarkCore
import Foundation

/// `analyze --json` with one password on 2,000 accounts, end to end in the
/// real binary under GNU time: the JSON lists the group once and each
/// recommendation names it, so it grows with the vault, not its square.
enum ReuseBench {
    static func run(bulwark: String, directory: URL) {
        for count in [2_000, 20_000] {
            let path = directory.appendingPathComponent("reuse-\(count).db")
            let vault = try! Vault.create(at: path, masterPassword: "bench-master", parameters: ScryptParameters(logN: 10))
            try! vault.save((0..<count).map { i in
                Entry(id: "e\(i)", title: "Account \(i)", urls: ["https://site\(i).example"], username: "user\(i)", password: "Same-Pass-Everywhere-1")
            })
            vault.close()
            let report = directory.appendingPathComponent("time.txt")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            process.arguments = ["-o", report.path, "-f", "%e %M", bulwark, "analyze", "--json", "--vault", path.path, "--password-stdin"]
            var environment = ProcessInfo.processInfo.environment
            environment["BULWARK_CONFIG"] = "/nonexistent/bulwark-bench-config"
            environment["XDG_STATE_HOME"] = directory.path
            process.environment = environment
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try! process.run()
            input.fileHandleForWriting.write(Data("bench-master\n".utf8))
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            // analyze exits 10 to 12 when it has findings.
            guard (0...12).contains(process.terminationStatus), let text = try? String(contentsOf: report, encoding: .utf8) else {
                print("analyze --json, \(count) accounts on one password: failed")
                continue
            }
            let parts = text.split(whereSeparator: \.isWhitespace)
            let seconds = Double(parts[parts.count - 2]) ?? 0, kib = Double(parts[parts.count - 1]) ?? 0
            let label = "analyze --json, \(count) accounts on one password"
            print("\(label.padding(toLength: 52, withPad: " ", startingAt: 0)) \(Measure.format(seconds)), peak RSS \(String(format: "%.1f", kib / 1024)) MiB"
                  + (count == 2_000 ? "  target ≤ 1 s, ≤ 100 MB" : ""))
        }
    }
}
