import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where this machine remembers, per vault and outside it, the highest
/// change counter it has seen, so that a vault opened older than that
/// (restored from a copy, rolled back, or a damaged `-wal` that silently
/// dropped committed changes) is noticed. One small file per vault, named
/// by a hash of the vault id and sealed with the vault key. Best effort:
/// a state directory that cannot be written costs the warning, never a
/// change to the vault.
public struct FreshnessRecord: Sendable, Equatable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// `$XDG_STATE_HOME/bulwark/seen`, else `~/.local/state/bulwark/seen`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> FreshnessRecord {
        FreshnessRecord(directory: StateDirectory.url("seen", environment: environment))
    }

    func file(for vaultID: [UInt8]) -> URL {
        directory.appendingPathComponent(Digest.sha256(Array("bulwark-seen|".utf8) + vaultID).hex)
    }

    private static func aad(_ vaultID: [UInt8]) -> [UInt8] { Array("bulwark/v1|seen|\(vaultID.hex)".utf8) }

    /// The highest counter recorded for this vault; nil when none is (or
    /// the record does not open with this key: another process re-keyed).
    func highestSeen(vaultID: [UInt8], key: [UInt8]) -> Int64? {
        guard let data = FileManager.default.contents(atPath: file(for: vaultID).path),
              let plain = try? AEAD().open([UInt8](data), key: key, associatedData: Self.aad(vaultID)), plain.count == 8 else { return nil }
        return plain.reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// Raises the record to `counter` (never lowers it), under a lock so
    /// that processes finishing in any order leave the highest.
    func record(_ counter: Int64, vaultID: [UInt8], key: [UInt8]) {
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                       attributes: [.posixPermissions: 0o700])) != nil else { return }
        let lock = Glibc.open(directory.appendingPathComponent(".lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return }
        defer { Glibc.close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { return }
        if let seen = highestSeen(vaultID: vaultID, key: key), seen >= counter { return }
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: counter >> Int64(56 - 8 * $0)) }
        let sealed = AEAD().seal(bytes, key: key, associatedData: Self.aad(vaultID))
        let target = file(for: vaultID)
        let temporary = target.path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(sealed), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, target.path) != 0 { unlink(temporary) }
    }
}
