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
            guard let (seconds, kib) = TransferBench.command(bulwark, ["analyze", "--json", "--vault", path.path, "--password-stdin"],
                                                             stdin: "bench-master\n", directory: directory, succeeding: 0...12) else {
                print("analyze --json, \(count) accounts on one password: failed")
                continue
            }
            let label = "analyze --json, \(count) accounts on one password"
            print("\(label.padding(toLength: 52, withPad: " ", startingAt: 0)) \(Measure.format(seconds)), peak RSS \(String(format: "%.1f", Double(kib) / 1024)) MiB"
                  + (count == 2_000 ? "  target ≤ 1 s, ≤ 100 MB" : ""))
        }
    }
}
