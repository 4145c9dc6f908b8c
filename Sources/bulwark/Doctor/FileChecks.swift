import BulwarkCore
import BulwarkUpgrades
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The files bulwark reads: the vault (owner, modes, SQLite's integrity,
/// the KDF's cost here, backups), the config file and what it names,
/// breach corpora (every line read: format and order), quirks and
/// service manifests. No password is asked and nothing is changed (a
/// read-only SQLite open may leave its -wal and -shm beside the vault).
struct FileChecks {
    let vaultPath: URL
    let configPath: URL
    let configuration: Result<Configuration, Error>

    func run() -> [DoctorCheck] {
        vault() + config() + corpora() + quirks() + services()
    }

    struct Mode { let mode: Int; let owner: UInt32 }
    static func mode(of path: String) -> Mode? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Mode(mode: Int(info.st_mode) & 0o7777, owner: info.st_uid)
    }
    static func octal(_ mode: Int) -> String { "0" + String(mode, radix: 8) }

    // MARK: Vault

    func vault() -> [DoctorCheck] {
        let area = "vault", path = vaultPath.path
        guard FileManager.default.fileExists(atPath: path) else {
            return [.warning(area, "file", "no vault at \(path) yet", fix: "bulwark init   # or: bulwark open, which creates it")]
        }
        var checks: [DoctorCheck] = []
        var modesOK = true
        // The file and SQLite's journal files beside it (made with the
        // file's own mode): the owner's alone, fixed in one command.
        var open: [(file: String, mode: Int)] = []
        for file in [path, path + "-wal", path + "-shm"] {
            guard let mode = Self.mode(of: file) else { continue }
            if mode.owner != getuid() {
                modesOK = false
                checks.append(.problem(area, "owner", "\(file) belongs to user \(mode.owner), not to you (\(getuid()))",
                                       fix: "sudo chown \(getuid()) \(shellQuoted(file))"))
            }
            if mode.mode & 0o077 != 0 { open.append((file, mode.mode)) }
        }
        if let first = open.first {
            modesOK = false
            checks.append(.problem(area, "modes", "\(first.file) is \(Self.octal(first.mode)): other users can read it (the entries are sealed, but the file and its metadata should be yours alone)",
                                   fix: "chmod 600 " + open.map { shellQuoted($0.file) }.joined(separator: " ")))
        }
        let directory = vaultPath.deletingLastPathComponent().path
        if let mode = Self.mode(of: directory), mode.mode & 0o022 != 0 {
            modesOK = false
            checks.append(.problem(area, "modes", "\(directory) is \(Self.octal(mode.mode)): other users can replace or delete the vault",
                                   fix: "chmod 700 \(shellQuoted(directory))"))
        }
        if modesOK { checks.append(.ok(area, "file", "\(path) (0600, yours)")) }
        do {
            let file = try VaultFileCheck.examine(at: vaultPath)
            if file.integrity == ["ok"] {
                checks.append(.ok(area, "integrity", "SQLite finds no damage (\(file.rows) entries)"))
            } else {
                checks.append(.problem(area, "integrity", "SQLite finds damage: " + file.integrity.prefix(3).joined(separator: "; "),
                                       fix: "bulwark check   # then: bulwark recover NEW-FILE, or bulwark restore --list"))
            }
            if let problem = file.headerProblem {
                checks.append(.problem(area, "header", problem, fix: "bulwark restore --list   # a backup from before the damage"))
            } else if let parameters = file.parameters {
                checks.append(kdf(parameters))
            }
        } catch {
            checks.append(.problem(area, "integrity", "SQLite cannot read it: \(error)", fix: "bulwark restore --list"))
        }
        checks.append(backups())
        return checks
    }

    func kdf(_ parameters: ScryptParameters) -> DoctorCheck {
        let name = "scrypt N=2^\(parameters.logN), r=\(parameters.r), p=\(parameters.p)"
        let start = Date()
        _ = try? Scrypt.derive(password: Array("bulwark doctor".utf8), salt: [UInt8](repeating: 0, count: 16), parameters: parameters)
        let seconds = Date().timeIntervalSince(start)
        let found = "\(name): \(String(format: "%.2f", seconds)) s to unlock on this machine"
        if parameters.logN < ScryptParameters.standard.logN {
            return .warning("vault", "key derivation", found + ", below the recommended 2^\(ScryptParameters.standard.logN)",
                            fix: "bulwark passwd --scrypt-log-n \(ScryptParameters.standard.logN)")
        }
        return .ok("vault", "key derivation", found)
    }

    func backups() -> DoctorCheck {
        let backups = VaultBackups(vaultPath: vaultPath)
        let list = backups.list()
        guard let newest = list.first else {
            return .ok("vault", "backups", "none yet (one is taken before the first change)")
        }
        if let mode = Self.mode(of: backups.directory.path), mode.mode & 0o077 != 0 {
            return .problem("vault", "backups", "\(backups.directory.path) is \(Self.octal(mode.mode)): other users can list or read the backups",
                            fix: "chmod 700 \(shellQuoted(backups.directory.path))")
        }
        let formatter = ISO8601DateFormatter()
        return .ok("vault", "backups", "\(list.count), the newest \(formatter.string(from: newest.date)) (bulwark restore --list)")
    }

    // MARK: Configuration

    func config() -> [DoctorCheck] {
        let area = "config", path = configPath.path
        switch configuration {
        case .failure(let error):
            return [.problem(area, "file", "\(error)", fix: "edit \(shellQuoted(path))   # see man bulwark, FILES")]
        case .success(let config):
            guard FileManager.default.fileExists(atPath: path) else { return [.ok(area, "file", "none at \(path): the defaults")] }
            var checks: [DoctorCheck] = [.ok(area, "file", path)]
            for (key, directory) in [("quirks", config.quirks), ("services", config.services)] {
                guard let directory else { continue }
                var isDirectory: ObjCBool = false
                if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
                    checks.append(.problem(area, key, "\(key) = \(directory): no such directory", fix: "edit \(shellQuoted(path))   # or create it"))
                }
            }
            if config.onlineBreachCheck {
                checks.append(.ok(area, "online", "on: analyze asks \(config.rangeURL) for each password's 5-digit SHA-1 prefix"))
            }
            return checks
        }
    }

    private var loaded: Configuration? { try? configuration.get() }

    // MARK: Breach corpora, quirks, services

    func corpora() -> [DoctorCheck] {
        let common = DoctorCheck.ok("breach", "common", CommonPasswordList.builtIn.summary)
        guard let corpora = loaded?.breachCorpora, !corpora.isEmpty else {
            return [common, .ok("breach", "corpora", "no breach corpus beyond the built-in list (config: breach-corpus)")]
        }
        return [common] + corpora.map { path in
            let file: PwnedPasswordsFile
            do { file = try PwnedPasswordsFile(path: path) } catch let error as PwnedPasswordsFile.FormatError where error.reason.contains("not sorted") {
                return .problem("breach", "corpus", "\(path): the lines are not sorted by hash, so lookups miss", fix: Self.sortFix(path))
            } catch {
                return .problem("breach", "corpus", "\(error)", fix: "download it again: https://haveibeenpwned.com/Passwords (ordered by hash)")
            }
            let survey = file.survey()
            if let problem = survey.problem {
                let unsorted = problem.reason.contains("sorted") || problem.reason.contains("repeats")
                return .problem("breach", "corpus", problem.description, fix: unsorted ? Self.sortFix(path) : "download it again: https://haveibeenpwned.com/Passwords (ordered by hash)")
            }
            return .ok("breach", "corpus", "\(path): \(survey.lines) lines, sorted by hash")
        }
    }

    static func sortFix(_ path: String) -> String {
        "LC_ALL=C sort -t: -k1,1 -u -o \(shellQuoted(path)) \(shellQuoted(path))"
    }

    func quirks() -> [DoctorCheck] {
        guard let directory = loaded?.quirks else { return [.ok("quirks", "directory", "none (config: quirks; the built-in password rules still apply)")] }
        do {
            _ = try QuirksDirectory.load(from: URL(fileURLWithPath: directory))
            return [.ok("quirks", "directory", directory)]
        } catch {
            return [.problem("quirks", "directory", "\(directory): \(error)",
                             fix: "git clone https://github.com/apple/password-manager-resources   # and point quirks at its quirks/")]
        }
    }

    func services() -> [DoctorCheck] {
        do {
            let demo = ServiceWiring.isDemoVault(vaultPath)
            let catalog = try ServiceCatalog.load(extraDirectory: loaded?.services, demoServices: demo)
            guard !catalog.manifests.isEmpty else {
                return [.ok("services", "manifests", "none: one-key fixes act on the services given with --services or the config's services (the demo has its own)")]
            }
            let source = [demo ? "the demo's built-in services" : nil, loaded?.services.map { "from \($0)" }].compactMap { $0 }.joined(separator: ", ")
            return [.ok("services", "manifests", "\(catalog.manifests.count) services (\(source))")]
        } catch {
            return [.problem("services", "manifests", "\(error)", fix: "fix or remove the manifest named above")]
        }
    }
}
