import CZip
import Foundation

/// A ZIP archive read from memory with libzip (never a hand-written
/// unzip). Reading a member stops at a limit, so a hostile archive that
/// claims or inflates to gigabytes is refused instead of filling memory.
final class ZipArchive {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// ZIP's local-file signature, "PK\u{3}\u{4}".
    static func looksLikeZip(_ data: Data) -> Bool { data.prefix(4).elementsEqual([0x50, 0x4B, 0x03, 0x04]) }

    private let archive: OpaquePointer
    private let bytes: UnsafeMutableRawBufferPointer

    init(_ data: Data) throws(Failure) {
        // libzip reads the buffer in place for the archive's lifetime: keep our own copy.
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 1)
        _ = data.copyBytes(to: bytes.bindMemory(to: UInt8.self))
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(bytes.baseAddress, zip_uint64_t(data.count), 0, &error) else {
            bytes.deallocate()
            throw Failure(description: "cannot read the ZIP: \(String(cString: zip_error_strerror(&error)))")
        }
        guard let opened = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            bytes.deallocate()
            throw Failure(description: "not a readable ZIP archive: \(String(cString: zip_error_strerror(&error)))")
        }
        archive = opened
    }

    deinit {
        zip_discard(archive)
        bytes.deallocate()
    }

    var names: [String] {
        let count = max(0, zip_get_num_entries(archive, 0))
        return (0..<count).compactMap { index in zip_get_name(archive, zip_uint64_t(index), 0).map { String(cString: $0) } }
    }

    /// The member's bytes, or nil when the archive has no such member.
    func read(_ name: String, limit: Int) throws(Failure) -> Data? {
        let index = zip_name_locate(archive, name, 0)
        guard index >= 0 else { return nil }
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        if zip_stat_index(archive, zip_uint64_t(index), 0, &stat) == 0, stat.valid & zip_uint64_t(ZIP_STAT_SIZE) != 0, stat.size > UInt64(limit) {
            throw Failure(description: "\(name) in the archive is \(stat.size) bytes, over the \(limit)-byte limit")
        }
        guard let file = zip_fopen_index(archive, zip_uint64_t(index), 0) else {
            throw Failure(description: "cannot open \(name) in the archive (encrypted or damaged)")
        }
        defer { zip_fclose(file) }
        var out = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = zip_fread(file, &chunk, zip_uint64_t(chunk.count))
            if read < 0 { throw Failure(description: "\(name) in the archive is damaged (its data does not inflate or its checksum fails)") }
            if read == 0 { break }
            guard out.count + Int(read) <= limit else { throw Failure(description: "\(name) in the archive inflates past the \(limit)-byte limit") }
            out.append(contentsOf: chunk[0..<Int(read)])
        }
        return out
    }
}
