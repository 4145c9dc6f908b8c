import Foundation

/// Detects a vault file cut short. SQLite counts a partial last page as a
/// whole one and reads its missing bytes as zeros, so a truncated file whose
/// tail held only free pages would otherwise open as if nothing happened.
/// The 100-byte SQLite header records the page size and, when its change
/// counter matches its "version valid for" field, the page count; a cleanly
/// closed file (no write-ahead log with content) must be exactly that long.
///
/// It reads the file through a descriptor of its own, so it must run before
/// this process has an SQLite connection to the file: closing any
/// descriptor of a file drops every POSIX lock the process holds on it,
/// and a connection that lost its lock without knowing can have the log
/// checkpointed and removed under it by another process (SQLite's
/// documented hazard). `Vault.open` runs it first; the app reads a vault's
/// settings only under the session lock that `unlock` holds.
enum DatabaseFileLength {
    /// The check, asked again a moment later when it fails: another process
    /// checkpointing the log into the file writes page 1 (with the new page
    /// count) before the pages that lengthen the file.
    static func checkSettled(_ path: URL) throws(VaultError) {
        for attempt in 1...4 {
            do { return try check(path) } catch {
                if attempt == 4 { throw error }
                usleep(50_000)
            }
        }
    }

    static func check(_ path: URL) throws(VaultError) {
        let fm = FileManager.default
        let walSize = (try? fm.attributesOfItem(atPath: path.path + "-wal")[.size] as? Int) ?? 0
        guard walSize == 0,
              let size = (try? fm.attributesOfItem(atPath: path.path)[.size]) as? Int,
              let handle = FileHandle(forReadingAtPath: path.path) else { return }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100,
              header.starts(with: Array("SQLite format 3\0".utf8)) else { return }  // SQLite itself reports these
        let bytes = [UInt8](header)
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else { return }
        func word(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        guard size % pageSize == 0 else {
            throw .damaged("the file ends in the middle of a page (cut short at \(size) bytes)")
        }
        let headerPages = word(28)
        if word(24) == word(92), headerPages != 0, headerPages * pageSize != size {
            throw .damaged("the file holds \(size / pageSize) pages but its header records \(headerPages)")
        }
    }
}
