import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `pass` (password-store) directory: one gpg-encrypted file per entry,
/// `Work/mail.example.gpg`, decrypted by the person's own `gpg` (their
/// agent, their pinentry), its text read as pass and its extensions write
/// it: the first line the password; `otpauth://` lines the one-time code
/// (pass-otp); `key: value` lines fields, `user`/`username`/`login`/`email`
/// the user name and `url`/`website` the address; other lines the notes.
/// The path is the title (its last part) and the tag (the folders).
public enum PassStore {
    /// Whether a directory is a password store: it has `.gpg-id`, or `.gpg` files.
    public static func looksLikeStore(_ directory: String) -> Bool {
        if FileManager.default.fileExists(atPath: directory + "/.gpg-id") { return true }
        return files(in: directory).first != nil
    }

    /// Every `.gpg` file below the directory, as paths relative to it, sorted;
    /// `.git` and other hidden folders left out, symbolic links not followed.
    static func files(in directory: String) -> [String] {
        guard let walker = FileManager.default.enumerator(at: URL(fileURLWithPath: directory), includingPropertiesForKeys: [.isSymbolicLinkKey, .isRegularFileKey],
                                                          options: [.skipsHiddenFiles]) else { return [] }
        var found: [String] = []
        let base = URL(fileURLWithPath: directory).standardizedFileURL.path
        for case let url as URL in walker where url.pathExtension == "gpg" {
            let values = try? url.resourceValues(forKeys: [.isSymbolicLinkKey, .isRegularFileKey])
            guard values?.isSymbolicLink != true, values?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            found.append(path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : url.lastPathComponent)
        }
        return found.sorted()
    }

    /// Decrypts each file with `gpg` and reads it. `gpg` is `$BULWARK_GPG`
    /// or gpg on the PATH; a file gpg cannot open stops the import, named.
    static func read(directory: String, now: Date = Date(), environment: [String: String] = ProcessInfo.processInfo.environment) throws(ImportError) -> ImportRead {
        guard let gpg = environment["BULWARK_GPG"].flatMap({ $0.isEmpty ? nil : $0 }) ?? Spawn.find("gpg", environment: environment) ?? Spawn.find("gpg2", environment: environment) else {
            throw ImportError(line: nil, message: "gpg is not installed; pass stores are decrypted by gpg (apt install gnupg)")
        }
        let paths = files(in: directory)
        guard !paths.isEmpty else { throw ImportError(line: nil, message: "\(directory) holds no .gpg files: not a password store") }
        var read = ImportRead()
        for path in paths {
            let plain = try decrypt(URL(fileURLWithPath: directory).appendingPathComponent(path).path, gpg: gpg, name: path, environment: environment)
            read.entries.append(entry(path: String(path.dropLast(4)), text: String(decoding: plain, as: UTF8.self), now: now))
        }
        for entry in read.entries { read.undated.insert(entry.id) }
        return read
    }

    /// gpg's output through a pipe, never a file (it is the plain text);
    /// its messages to a scratch file, the first error line shown if it fails.
    static func decrypt(_ file: String, gpg: String, name: String, environment: [String: String]) throws(ImportError) -> [UInt8] {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ImportError(line: nil, message: "cannot make a pipe for gpg") }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-gpg-\(getpid())-\(UUID().uuidString.prefix(8))").path
        defer { unlink(errors) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Standard input only when it is the terminal (gpg names it to pinentry): from a pipe it holds
        // bulwark's own secrets (--password-stdin), which gpg must never read.
        if isatty(0) == 0 { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let pid: pid_t
        do throws(Spawn.Failure) {
            pid = try Spawn.start(gpg, [gpg, "--quiet", "--yes", "--decrypt", file], environment: environment, actions: &actions)
        } catch {
            close(fds[0]); close(fds[1])
            throw ImportError(line: nil, message: error.message)
        }
        close(fds[1])
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fds[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(fds[0])
        let status = Spawn.wait(pid)
        guard status == 0 else {
            let message = (FileManager.default.contents(atPath: errors).map { String(decoding: $0, as: UTF8.self) } ?? "")
                .split(separator: "\n").first { $0.hasPrefix("gpg: ") }.map { String($0.dropFirst(5)) } ?? "gpg exited \(status)"
            throw ImportError(line: nil, message: "\(name): gpg could not decrypt it (\(message))")
        }
        return output
    }

    static let userKeys: Set<String> = ["user", "username", "login", "email", "e-mail", "mail"]
    static let urlKeys: Set<String> = ["url", "website", "site", "web"]

    static func entry(path: String, text: String, now: Date) -> Entry {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let parts = path.split(separator: "/").map(String.init)
        var username = "", urls: [String] = [], totp: String?, fields: [CustomField] = [], notes: [String] = []
        for line in lines.dropFirst() {
            if line.hasPrefix("otpauth://"), totp == nil { totp = line; continue }
            if let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), line[line.index(after: colon)...].hasPrefix(" ") || line.index(after: colon) == line.endIndex {
                let key = line[..<colon].trimmingCharacters(in: .whitespaces), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if !key.isEmpty, !key.contains(" ") || key.count <= 30 {
                    let lower = key.lowercased()
                    if userKeys.contains(lower), username.isEmpty { username = value; continue }
                    if urlKeys.contains(lower), urls.isEmpty, !value.isEmpty { urls = [value]; continue }
                    fields.append(CustomField(name: key, value: value))
                    continue
                }
            }
            notes.append(line)
        }
        // Made whole, so its category is guessed from its title and address.
        return Entry(title: parts.last ?? path, urls: urls, username: username, password: lines.first ?? "", notes: notes.joined(separator: "\n"),
                     totpURI: totp, tags: parts.count > 1 ? [parts.dropLast().joined(separator: "/")] : [], created: now, fields: fields)
    }
}
