import Foundation

// The manifest's plaintext, before it is sealed. A bucket's listing is a
// record per file: its id and its digest (16 bytes each), raw; its
// vector's text (a 2-byte length first); a flag byte, and for a tombstone
// its sequence and push time (8 bytes each). The root is its JSON
// (everything but the buckets) and each bucket's digest, raw. Each begins
// with a tag; JSON alone (no tag) is the first format, still read. Raw
// bytes halve what a change adds to the remote (the listing of about 390
// files is rewritten at each change) and what a clone decodes.
extension SyncRepository {
    /// Which version of a sealed file or bucket the manifest lists: the
    /// first 16 bytes of its SHA-256. Every file is sealed under the vault
    /// key, so the host can only offer files bulwark sealed; 128 bits tell
    /// any two of them apart, and half the bytes of a full digest are half
    /// of what each change adds to the remote.
    static func digest(_ sealed: [UInt8]) -> String { Array(Digest.sha256(sealed).prefix(16)).hex }

    /// A listed digest: the short one, or a first-format listing's full SHA-256.
    static func matches(_ sealed: [UInt8], _ listed: String) -> Bool {
        let full = Digest.sha256(sealed).hex
        return listed.count == 64 ? full == listed : listed.count == 32 && full.hasPrefix(listed)
    }

    static let listingTag = Array("bulwark-listing/2\n".utf8)
    static let rootTag = Array("bulwark-root/2\n".utf8)

    static func encodeListing(_ listing: [String: Listed]) -> [UInt8] {
        var out = listingTag
        out.reserveCapacity(listingTag.count + listing.count * 80)
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { out += $0 } }
        for (fileID, listed) in listing.sorted(by: { $0.key < $1.key }) {
            let id = [UInt8](hex: fileID) ?? [], digest = [UInt8](hex: listed.digest) ?? [], vector = Array(listed.vector.utf8)
            // (A malformed id or digest is written as it is, and refused when read.)
            out += id.count == 16 ? id : [UInt8](repeating: 0, count: 16)
            out += digest.count == 16 ? digest : [UInt8](repeating: 0, count: 16)
            put(UInt16(min(vector.count, Int(UInt16.max))))
            out += vector.prefix(Int(UInt16.max))
            if let tombstone = listed.tombstone {
                out.append(1)
                put(tombstone)
                put((listed.pushed ?? Date(timeIntervalSince1970: 0)).timeIntervalSince1970.bitPattern)
            } else {
                out.append(0)
            }
        }
        return out
    }

    static func decodeListing(_ plain: [UInt8]) -> [String: Listed]? {
        guard plain.starts(with: listingTag) else { return try? JSONDecoder().decode([String: Listed].self, from: Data(plain)) }
        var at = listingTag.count
        func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard at + n <= plain.count else { return nil }
            defer { at += n }
            return plain[at..<(at + n)]
        }
        func number<T: FixedWidthInteger>(_: T.Type) -> T? {
            take(MemoryLayout<T>.size).map { bytes in bytes.reversed().reduce(T.zero) { $0 << 8 | T($1) } }
        }
        var listing: [String: Listed] = [:]
        while at < plain.count {
            guard let id = take(16), let digest = take(16), let length = number(UInt16.self), let vector = take(Int(length)),
                  let flag = take(1)?.first, flag <= 1 else { return nil }
            var listed = Listed(vector: String(decoding: vector, as: UTF8.self), digest: Array(digest).hex)
            if flag == 1 {
                guard let sequence = number(Int64.self), let pushed = number(UInt64.self) else { return nil }
                listed.tombstone = sequence
                listed.pushed = Date(timeIntervalSince1970: Double(bitPattern: pushed))
            }
            listing[Array(id).hex] = listed
        }
        return listing
    }

    /// The root: its JSON without the buckets, then each bucket (one byte) and its digest (16).
    static func encodeRoot(_ root: Root) throws -> [UInt8] {
        var bare = root
        bare.buckets = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var buckets: [UInt8] = []
        for (bucket, digest) in root.buckets.sorted(by: { $0.key < $1.key }) {
            guard let byte = [UInt8](hex: bucket), byte.count == 1, let raw = [UInt8](hex: digest), raw.count == 16 else {
                throw SyncError.untrusted("the bucket \(bucket) cannot be written")
            }
            buckets += byte + raw
        }
        return rootTag + FieldCoding.encode(parts: [Array(try encoder.encode(bare)), buckets])
    }

    static func decodeRoot(_ plain: [UInt8]) -> Root? {
        guard plain.starts(with: rootTag) else { return try? JSONDecoder().decode(Root.self, from: Data(plain)) }
        guard let parts = FieldCoding.decode(parts: Array(plain.dropFirst(rootTag.count))), parts.count == 2, parts[1].count % 17 == 0,
              var root = try? JSONDecoder().decode(Root.self, from: Data(parts[0])) else { return nil }
        let buckets = Array(parts[1])
        for at in stride(from: 0, to: buckets.count, by: 17) {
            root.buckets[[buckets[at]].hex] = Array(buckets[(at + 1)..<(at + 17)]).hex
        }
        return root
    }
}
