import BulwarkCore
import BulwarkTUI
import Foundation

/// `make bench`: speed and memory figures on a release build. Figures go in
/// the README and issue notes; tests never assert timings.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == "--curses-floor" {
    StartupBench.cursesFloor()
}
if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--app" {
    ChangeBench.app(CommandLine.arguments[2])
    exit(0)
}
if CommandLine.arguments.count == 3 && CommandLine.arguments[1] == "--load" {
    VaultBench.load(CommandLine.arguments[2])
    exit(0)
}

print("bulwark bench (release build)\n")

/// Keystrokes on the vault screen, or on Security Recommendations with the
/// analysis bench's accounts (about 69% of them with a recommendation, one
/// password shared by 1%).
func frameBench(width: Int, height: Int, entries: Int, recommendations: Bool = false, searching: Bool = false) {
    var snapshot = SessionSnapshot()
    if recommendations {
        let made = AnalysisBench.entries(entries).entries
        snapshot.entries = ChunkedArray(made)
        let analyzer = SecurityAnalyzer(breaches: BreachCorpus(files: []))
        try! analyzer.load(made)
        snapshot.report = analyzer.report()
    } else {
        snapshot.entries = ChunkedArray((0..<entries).map { i in
            Entry(id: "e\(i)", title: "Account \(i)", urls: ["https://site\(i).example"], username: "user\(i)@mail.example",
                  password: "pw\(i)", category: AccountCategory.allCases[i % AccountCategory.allCases.count])
        })
    }
    let store = Store(state: AppState(width: width, height: height, unlocked: true, snapshot: snapshot, lockLabel: "unlocked"))
    if recommendations { store.send(.key(.char("r"))) }
    // Searching: "/", then "account 17" typed a key at a time and rubbed out
    // again, each keystroke a search (the first key and the space search every entry).
    if searching { store.send(.key(.char("/"))) }
    var previous = store.frame()
    let query = "account 17".map { Key.char($0) }
    var keys: [Key] = searching ? query + Array(repeating: .backspace, count: query.count) : [.char("j"), .char("j"), .char("k")]
    let stats = Measure.repeated(2000) {
        let key = keys.removeFirst()
        keys.append(key)
        store.send(.key(key))
        let frame = store.frame()
        _ = frame.changes(since: previous).count
        previous = frame
    }
    let screen = recommendations ? ", \(snapshot.report.recommendations.count) recommendations listed" : searching ? ", searching" : ""
    Measure.report("keystroke→frame \(width)x\(height), \(entries) entries\(screen)", stats, target: width == 200 ? "< 2 ms" : nil)
}

// BULWARK_BENCH_ONLY=vault, writers, analysis, reuse, transfer, attachments, passkeys, startup, coldcache, sync, changes, latency or frames runs one group; BULWARK_BENCH_SIZES
// (default 1000,10000,100000) and BULWARK_BENCH_CORPUS_LINES (10000000) scale them.
let only = ProcessInfo.processInfo.environment["BULWARK_BENCH_ONLY"]
if only == nil || only == "vault" {
    VaultBench.run()
    print("")
}
if only == nil || only == "writers" {
    let writersDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-writers-\(getpid())")
    try! FileManager.default.createDirectory(at: writersDirectory, withIntermediateDirectories: true)
    WritersBench.run(directory: writersDirectory)
    try? FileManager.default.removeItem(at: writersDirectory)
    print("")
}
if only == nil || only == "analysis" {
let analysisDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-analysis-\(getpid())")
try! FileManager.default.createDirectory(at: analysisDirectory, withIntermediateDirectories: true)
AnalysisBench.run(directory: analysisDirectory)
try? FileManager.default.removeItem(at: analysisDirectory)
print("")
}
if only == nil || only == "reuse" {
    let bulwark = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
    let reuseDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-reuse-\(getpid())")
    try! FileManager.default.createDirectory(at: reuseDirectory, withIntermediateDirectories: true)
    ReuseBench.run(bulwark: bulwark, directory: reuseDirectory)
    try? FileManager.default.removeItem(at: reuseDirectory)
    print("")
}
if only == nil || only == "transfer" {
    let bulwark = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
    let transferDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-transfer-\(getpid())")
    try! FileManager.default.createDirectory(at: transferDirectory, withIntermediateDirectories: true)
    TransferBench.phases(count: 100_000, directory: transferDirectory)
    TransferBench.run(bulwark: bulwark, directory: transferDirectory)
    try? FileManager.default.removeItem(at: transferDirectory)
    print("")
}
if only == nil || only == "transfer" || only == "kdbx" {
    let bulwark = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
    let kdbxDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-kdbx-\(getpid())")
    try! FileManager.default.createDirectory(at: kdbxDirectory, withIntermediateDirectories: true)
    KDBXBench.run(bulwark: bulwark, directory: kdbxDirectory)
    KDBXBench.hundredThousand(bulwark: bulwark, directory: kdbxDirectory)
    try? FileManager.default.removeItem(at: kdbxDirectory)
    print("")
}
if only == nil || only == "attachments" {
    let bulwark = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
    let attachmentDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-attachments-\(getpid())")
    try! FileManager.default.createDirectory(at: attachmentDirectory, withIntermediateDirectories: true)
    AttachmentBench.run(bulwark: bulwark, directory: attachmentDirectory)
    try? FileManager.default.removeItem(at: attachmentDirectory)
    print("")
}
if only == nil || only == "passkeys" {
    let passkeyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-passkeys-\(getpid())")
    try! FileManager.default.createDirectory(at: passkeyDirectory, withIntermediateDirectories: true)
    PasskeyBench.run(directory: passkeyDirectory)
    try? FileManager.default.removeItem(at: passkeyDirectory)
    print("")
}
if only == nil || only == "startup" {
    let bulwark = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
    StartupBench.run(bulwark: bulwark)
    print("")
}
if only == nil || only == "coldcache" {
    let coldDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-cold-\(getpid())")
    try! FileManager.default.createDirectory(at: coldDirectory, withIntermediateDirectories: true)
    ColdCacheBench.run(directory: coldDirectory)
    try? FileManager.default.removeItem(at: coldDirectory)
    print("")
}
if only == nil || only == "sync" {
    let syncDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-sync-\(getpid())")
    try! FileManager.default.createDirectory(at: syncDirectory, withIntermediateDirectories: true)
    SyncBench.run(directory: syncDirectory, count: Int(ProcessInfo.processInfo.environment["BULWARK_BENCH_SYNC_ENTRIES"] ?? "") ?? 100_000)
    try? FileManager.default.removeItem(at: syncDirectory)
    print("")
}
if only == nil || only == "changes" {
    let changesDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-changes-\(getpid())")
    try! FileManager.default.createDirectory(at: changesDirectory, withIntermediateDirectories: true)
    ChangeBench.run(directory: changesDirectory)
    try? FileManager.default.removeItem(at: changesDirectory)
    print("")
}
if only == nil || only == "latency" {
    // The binary people install (`make bench` names the one `make release` links), else the one beside this bench.
    let bulwark = ProcessInfo.processInfo.environment["BULWARK_BENCH_RELEASE_BINARY"]
        ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bulwark").path
    let latencyDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-bench-latency-\(getpid())")
    try! FileManager.default.createDirectory(at: latencyDirectory, withIntermediateDirectories: true)
    TerminalLatencyBench.run(bulwark: bulwark, directory: latencyDirectory,
                             count: Int(ProcessInfo.processInfo.environment["BULWARK_BENCH_LATENCY_ENTRIES"] ?? "") ?? 100_000)
    try? FileManager.default.removeItem(at: latencyDirectory)
    print("")
}
if only == nil || only == "frames" {
    frameBench(width: 80, height: 24, entries: 12)
    frameBench(width: 200, height: 60, entries: 12)
    frameBench(width: 200, height: 60, entries: 100_000)
    frameBench(width: 200, height: 60, entries: 100_000, recommendations: true)
    frameBench(width: 200, height: 60, entries: 100_000, searching: true)
}
print(String(format: "\npeak RSS %.1f MiB", Measure.peakRSSMiB()))
