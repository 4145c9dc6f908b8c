import BulwarkCore
import Foundation

/// Sync, for a vault linked to a remote (nothing is said of one that is
/// not): git is there, the repository and the sealed state are the
/// owner's alone, and the remote answers. No password is asked.
struct SyncChecks {
    let vaultPath: URL
    var git: Git? = Git.find(mayPrompt: false)

    func run() -> [DoctorCheck] {
        let paths = SyncState.Paths(vault: vaultPath)
        guard FileManager.default.fileExists(atPath: paths.state.path) else { return [] }
        var checks: [DoctorCheck] = []
        guard let git else {
            return [.problem("sync", "git", "not found on PATH: the vault is linked to a remote but cannot sync", fix: "sudo apt-get install git")]
        }
        let version = (try? git.run(["--version"], in: nil).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? "git"
        checks.append(.ok("sync", "git", version))
        for (path, expected) in [(paths.directory.path, 0o700), (paths.state.path, 0o600)] {
            guard let mode = FileChecks.mode(of: path) else { continue }
            if mode.mode & 0o077 != 0 || mode.owner != getuid() {
                checks.append(.problem("sync", "modes", "\(path) is \(FileChecks.octal(mode.mode)), readable by others",
                                       fix: "chmod \(FileChecks.octal(expected)) \(shellQuoted(path))"))
            }
        }
        let repository = paths.repository
        guard SyncEngine.hasRepository(paths),
              let remote = try? git.run(["config", "--get", "remote.origin.url"], in: repository), remote.status == 0 else {
            checks.append(.warning("sync", "repository", "\(repository.path) is missing", fix: "bulwark sync (it fetches the remote again)"))
            return checks
        }
        let url = SyncError.redacted(remote.output.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let answer = try? git.run(["ls-remote", "--heads", "origin", SyncEngine.branch], in: repository), answer.status == 0 else {
            let why = (try? git.run(["ls-remote", "--heads", "origin"], in: repository))?.firstError ?? "git did not run"
            checks.append(.warning("sync", "remote", "cannot reach \(url): \(why) (changes stay here until it answers)",
                                   fix: "git ls-remote \(shellQuoted(url))"))
            return checks
        }
        let head = answer.output.split(separator: "\t").first.map { String($0.prefix(12)) }
        checks.append(.ok("sync", "remote", head.map { "\(url) answers; \(SyncEngine.branch) is at \($0)" } ?? "\(url) answers; it is empty"))
        return checks
    }
}
