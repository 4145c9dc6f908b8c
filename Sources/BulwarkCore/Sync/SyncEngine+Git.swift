import Foundation

// The engine's git: a bare repository beside the vault (no working tree),
// the remote as `origin`, fetched into refs/remotes/origin/main; this
// machine's commits go on refs/heads/main, always built on the remote's tip.
extension SyncEngine {
    static let remoteRef = "refs/remotes/origin/\(branch)"
    static let localRef = "refs/heads/\(branch)"

    /// A bare repository for `remote` at `paths.repository`, fetched; a
    /// working copy an older bulwark kept is removed (the remote holds it all).
    static func prepare(_ git: Git, _ paths: SyncState.Paths, remote: String, context: String) throws {
        try? FileManager.default.removeItem(at: paths.legacyWorkingCopy)
        try? FileManager.default.removeItem(at: paths.repository)
        try FileManager.default.createDirectory(at: paths.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try git.must(["init", "-q", "--bare", paths.repository.path], in: nil, "cannot make the repository")
        try git.must(["remote", "add", "origin", "--", remote], in: paths.repository, "cannot name the remote")
        let fetched = try git.run(["fetch", "-q", "origin"], in: paths.repository)
        guard fetched.status == 0 else { throw SyncError.git("\(context): \(fetched.firstError)") }
    }

    public static func hasRepository(_ paths: SyncState.Paths) -> Bool {
        FileManager.default.fileExists(atPath: paths.repository.appendingPathComponent("HEAD").path)
    }

    /// The remote's tip as last fetched; nil when it has no branch yet.
    static func remoteHead(_ git: Git, _ paths: SyncState.Paths) throws -> String? {
        let run = try git.run(["rev-parse", "-q", "--verify", remoteRef], in: paths.repository)
        return run.status == 0 ? run.output.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// git's ids of each bucket's manifest file and entry directory in `commit` (one `ls-tree`).
    static func bucketTrees(_ git: Git, _ paths: SyncState.Paths, at commit: String?) throws -> [String: SyncRepository.GitObjects] {
        guard let commit else { return [:] }
        let run = try git.run(["ls-tree", commit, "entries/", "manifest/"], in: paths.repository)
        guard run.status == 0 else { return [:] }
        var objects: [String: SyncRepository.GitObjects] = [:]
        for line in run.output.split(separator: "\n") {
            // "040000 tree ID\tentries/BB" and "100644 blob ID\tmanifest/BB"
            let parts = line.split(separator: "\t")
            guard parts.count == 2, let id = parts[0].split(separator: " ").last.map(String.init) else { continue }
            if parts[1].hasPrefix("entries/") {
                objects[String(parts[1].dropFirst("entries/".count)), default: .init()].entries = id
            } else if parts[1].hasPrefix("manifest/"), parts[1] != "manifest/root" {
                objects[String(parts[1].dropFirst("manifest/".count)), default: .init()].manifest = id
            }
        }
        return objects
    }
}
