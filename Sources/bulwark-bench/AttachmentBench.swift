import BulwarkCore
import Foundation

/// A 1 GiB file attached and saved back through the release binary under
/// GNU time: each way's time and peak RSS (the goal: within 100 MB, the
/// file streamed a mebibyte at a time), and the bytes compared; then the
/// same file out in a ZIP export and into a sync repository (git's own
/// processes counted in the peak too: GNU time reports the largest).
enum AttachmentBench {
    static func run(bulwark: String, directory: URL) {
        let size = (Int(ProcessInfo.processInfo.environment["BULWARK_BENCH_ATTACHMENT_MIB"] ?? "") ?? 1024) << 20
        let file = directory.appendingPathComponent("big.bin")
        guard FileManager.default.createFile(atPath: file.path, contents: nil), let handle = FileHandle(forWritingAtPath: file.path) else {
            print("attachments: cannot write the test file; skipped")
            return
        }
        // Incompressible bytes, a mebibyte at a time, so the disk and the cipher do real work.
        var written = 0
        while written < size {
            let piece = SecureRandom.bytes(min(1 << 20, size - written))
            handle.write(Data(piece))
            written += piece.count
        }
        try? handle.close()
        let vault = directory.appendingPathComponent("vault.db").path
        _ = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "init", "--scrypt-log-n", "10", "--i-know-this-is-weak"],
                                  stdin: "bench-master\nbench-master\n", directory: directory)
        _ = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "add", "--title", "Files", "--entry-password-stdin"],
                                  stdin: "bench-master\nsecret\n", directory: directory)
        let out = directory.appendingPathComponent("back.bin").path
        let label = "\(size >> 20) MiB"
        guard let (inSeconds, inKiB) = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "attach", "Files", file.path],
                                                               stdin: "bench-master\n", directory: directory),
              let (outSeconds, outKiB) = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "attachment", "get", "Files", "big.bin", "--out", out],
                                                                 stdin: "bench-master\n", directory: directory) else {
            print("attachments: attach or get failed")
            return
        }
        let same = FileManager.default.contentsEqual(atPath: file.path, andPath: out)
        func mib(_ kib: Int) -> String { String(format: "%.1f MiB (%.1f MB)", Double(kib) / 1024, Double(kib) * 1024 / 1e6) }
        print("attach \(label)".padding(toLength: 46, withPad: " ", startingAt: 0) + " \(Measure.format(inSeconds)), peak RSS \(mib(inKiB))  target < 100 MB")
        print("attachment get \(label)".padding(toLength: 46, withPad: " ", startingAt: 0) + " \(Measure.format(outSeconds)), peak RSS \(mib(outKiB))  target < 100 MB"
              + (same ? "" : "  THE BYTES DIFFER"))
        try? FileManager.default.removeItem(atPath: out)
        let archive = directory.appendingPathComponent("export.zip").path
        if let (seconds, kib) = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "export", "--format", "bitwarden-json", archive],
                                                      stdin: "bench-master\n", directory: directory) {
            print("export bitwarden-json FILE.zip, \(label)".padding(toLength: 46, withPad: " ", startingAt: 0)
                  + " \(Measure.format(seconds)), peak RSS \(mib(kib))  target < 100 MB")
        }
        try? FileManager.default.removeItem(atPath: archive)
        let remote = directory.appendingPathComponent("remote.git").path
        let created = Process()
        created.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        created.arguments = ["init", "-q", "--bare", remote]
        if (try? created.run()) != nil {
            created.waitUntilExit()
            if let (seconds, kib) = TransferBench.command(bulwark, ["--vault", vault, "--password-stdin", "sync", "init", remote, "--name", "bench"],
                                                          stdin: "bench-master\n", directory: directory) {
                print("sync init with the file, \(label)".padding(toLength: 46, withPad: " ", startingAt: 0)
                      + " \(Measure.format(seconds)), peak RSS \(mib(kib))  target < 100 MB")
            }
        }
    }
}
