import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The known table on disk: one append-only file of sealed buckets
/// (`VAULT.sync/known-N`), each found by the offset, length and digest
/// that the sealed state records. A save appends the buckets that changed
/// and one fsync makes them durable before the state that points at them
/// is renamed into place, so a kill leaves the old state whole (bytes past
/// its places are ignored). When the file holds twice what is live, a
/// save writes the live buckets to the next file and removes the old one.
enum KnownFile {
    struct Place: Codable, Equatable, Sendable {
        var offset: Int
        var length: Int
        /// sha256 of the sealed bytes, hex (a bucket swapped for an older one does not pass).
        var digest: String
    }

    static let purpose = "sync-known"
    private static let tag = Array("bulwark-known/1".utf8)

    /// A bucket's table: a tag, the bucket's name, then five parts an entry
    /// (id, file, digest, vector, and the vector of its last edit when it differs).
    static func encode(_ entries: [String: SyncState.Known], bucket: String) -> [UInt8] {
        var parts: [[UInt8]] = [tag, Array(bucket.utf8)]
        parts.reserveCapacity(2 + entries.count * 5)
        for (id, item) in entries.sorted(by: { $0.key < $1.key }) {
            parts += [Array(id.utf8), Array(item.file.utf8), Array(item.digest.utf8), Array(item.canonical.utf8),
                      Array((item.edited == item.vector ? "" : item.edited.canonical).utf8)]
        }
        return FieldCoding.encode(parts: parts)
    }

    static func decode(_ plain: [UInt8], bucket: String) -> [String: SyncState.Known]? {
        guard let parts = FieldCoding.decode(parts: plain), parts.count >= 2, Array(parts[0]) == tag,
              String(decoding: parts[1], as: UTF8.self) == bucket else { return nil }
        return decodeTable(parts.dropFirst(2))
    }

    /// Five parts an entry, as `encode` and the state's first format wrote them.
    static func decodeTable(_ table: ArraySlice<ArraySlice<UInt8>>) -> [String: SyncState.Known]? {
        guard table.count % 5 == 0 else { return nil }
        var entries: [String: SyncState.Known] = [:]
        entries.reserveCapacity(table.count / 5)
        var index = table.startIndex
        while index < table.endIndex {
            let text = String(decoding: table[index + 3], as: UTF8.self), editedText = String(decoding: table[index + 4], as: UTF8.self)
            guard let vector = VersionVector(canonical: text), let edited = editedText.isEmpty ? vector : VersionVector(canonical: editedText) else {
                return nil
            }
            entries[String(decoding: table[index], as: UTF8.self)] = SyncState.Known(
                vector: vector, digest: String(decoding: table[index + 2], as: UTF8.self),
                file: String(decoding: table[index + 1], as: UTF8.self), canonical: text, edited: edited)
            index += 5
        }
        return entries
    }

    /// Reads buckets from one known file through a descriptor opened once,
    /// so a later save that replaces the file does not pull it away.
    final class Reader: @unchecked Sendable {  // used by one sync at a time, under its lock
        let path: URL
        let places: [String: Place]
        private let fd: Int32
        private let vault: Vault

        init(path: URL, places: [String: Place], vault: Vault) throws {
            self.path = path
            self.places = places
            self.vault = vault
            fd = Glibc.open(path.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 || places.isEmpty else { throw KnownFile.damaged(path, "cannot open it: \(String(cString: strerror(errno)))") }
        }

        deinit { if fd >= 0 { Glibc.close(fd) } }

        var buckets: Set<String> { Set(places.keys) }

        /// The sealed bytes of a bucket, as the file holds them.
        func sealed(_ name: String) throws -> [UInt8]? {
            guard let place = places[name] else { return nil }
            var bytes = [UInt8](repeating: 0, count: place.length)
            let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, place.length, off_t(place.offset)) }
            guard read == place.length, Digest.sha256(bytes).hex == place.digest else {
                throw KnownFile.damaged(path, "bucket \(name) is cut short or altered")
            }
            return bytes
        }

        func read(_ name: String) throws -> [String: SyncState.Known] {
            guard let bytes = try sealed(name) else { return [:] }
            guard let plain = vault.unsealed(bytes, purpose: KnownFile.purpose), let entries = KnownFile.decode(plain, bucket: name) else {
                throw KnownFile.damaged(path, "bucket \(name) does not open")
            }
            return entries
        }
    }

    static func damaged(_ path: URL, _ why: String) -> VaultError {
        .damaged("the sync state's table \(path.path): \(why); `bulwark sync init` links the vault again")
    }

    /// Where the table's buckets are after a save, and the file to remove once the state points elsewhere.
    struct Saved {
        var name: String
        var places: [String: Place]
        var retired: URL?
    }

    /// Writes the changed buckets (appended, or the whole table to a new
    /// file when the old one is mostly dead bytes) and makes them durable.
    static func save(_ table: KnownTable, currentName: String?, current: Reader?, directory: URL, vault: Vault) throws -> Saved {
        var places = table.whole ? [:] : current?.places ?? [:]
        var fresh: [(String, [UInt8])] = []
        for (bucket, plain) in table.changedTables() {
            if let plain { fresh.append((bucket, vault.sealed(plain, purpose: purpose))) } else { places[bucket] = nil }
        }
        let live = places.filter { key, _ in !fresh.contains { $0.0 == key } }.values.reduce(0) { $0 + $1.length }
            + fresh.reduce(0) { $0 + $1.1.count }
        let currentPath = currentName.map { directory.appendingPathComponent($0) }
        let size = currentPath.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0.path))?[.size] as? Int } ?? 0
        if let currentName, let currentPath, size > 0, size + fresh.reduce(0, { $0 + $1.1.count }) <= 2 * live + (64 << 10) {
            // Appended after whatever is there (a killed save's bytes are past every place, and ignored).
            let fd = Glibc.open(currentPath.path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { throw VaultError.storage("cannot write \(currentPath.path): \(String(cString: strerror(errno)))") }
            defer { Glibc.close(fd) }
            var offset = Int(lseek(fd, 0, SEEK_END))
            for (bucket, sealed) in fresh {
                try writeAll(fd, sealed, at: offset, currentPath)
                places[bucket] = Place(offset: offset, length: sealed.count, digest: Digest.sha256(sealed).hex)
                offset += sealed.count
            }
            guard fsync(fd) == 0 else { throw VaultError.storage("cannot write \(currentPath.path): \(String(cString: strerror(errno)))") }
            return Saved(name: currentName, places: places, retired: nil)
        }
        // A new file with every live bucket: the unchanged ones copied as sealed.
        let generation = (currentName.flatMap { Int($0.dropFirst("known-".count)) } ?? 0) + 1
        let name = "known-\(generation)", path = directory.appendingPathComponent(name)
        var all: [(String, [UInt8])] = fresh
        for bucket in places.keys.sorted() where !fresh.contains(where: { $0.0 == bucket }) {
            if let sealed = try current?.sealed(bucket) { all.append((bucket, sealed)) }
        }
        let fd = Glibc.open(path.path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw VaultError.storage("cannot write \(path.path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(live)
        places = [:]
        for (bucket, sealed) in all {
            places[bucket] = Place(offset: bytes.count, length: sealed.count, digest: Digest.sha256(sealed).hex)
            bytes += sealed
        }
        try writeAll(fd, bytes, at: 0, path)
        guard fsync(fd) == 0 else { throw VaultError.storage("cannot write \(path.path): \(String(cString: strerror(errno)))") }
        return Saved(name: name, places: places, retired: currentPath)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int, _ path: URL) throws {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw VaultError.storage("cannot write \(path.path): \(String(cString: strerror(errno)))") }
            done += wrote
        }
    }
}
