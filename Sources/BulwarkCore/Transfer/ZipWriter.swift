import CZip
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A ZIP archive written with libzip (never a hand-written zip): members
/// added from memory or from a source read a piece at a time while the
/// archive is written (a file of any size in bounded memory), the whole
/// written at `close` into a new file beside the target (0600), then
/// renamed into place; nothing is left on failure.
final class ZipWriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var archive: OpaquePointer?
    private let temporary: String
    private let path: String
    /// The streamed members, whose own errors (a file that does not open) outrank libzip's "read error".
    private var streamed: [StreamedMember] = []

    init(path: String) throws(Failure) {
        self.path = path
        temporary = path + ".bulwark-\(getpid()).zip.tmp"
        unlink(temporary)
        var code: Int32 = 0
        guard let opened = zip_open(temporary, ZIP_CREATE | ZIP_EXCL, &code) else {
            throw Failure(description: "cannot write \(path) (libzip error \(code))")
        }
        archive = opened
    }

    deinit {
        if let archive { zip_discard(archive) }
        unlink(temporary)
    }

    /// A member, deflated; libzip frees its copy of the bytes once written.
    func add(_ name: String, _ bytes: [UInt8]) throws(Failure) {
        guard let archive else { throw Failure(description: "the archive is closed") }
        let copy = malloc(max(1, bytes.count))!
        bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) } }
        guard let source = zip_source_buffer(archive, copy, zip_uint64_t(bytes.count), 1) else {
            free(copy)
            throw Failure(description: "cannot add \(name) to the archive")
        }
        guard zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8)) >= 0 else {
            zip_source_free(source)
            throw Failure(description: "cannot add \(name) to the archive (\(String(cString: zip_strerror(archive))))")
        }
    }

    /// A member whose bytes come from `piece(0)`, `piece(1)`, … up to
    /// `pieces`, asked for only while `close` writes it, one at a time;
    /// an error a piece throws stops the archive and is what `close` throws.
    func add(_ name: String, size: Int64, pieces: Int, piece: @escaping (Int) throws -> [UInt8]) throws(Failure) {
        guard let archive else { throw Failure(description: "the archive is closed") }
        let member = StreamedMember(size: size, pieces: pieces, piece: piece)
        let context = Unmanaged.passRetained(member)
        guard let source = zip_source_function(archive, StreamedMember.callback, context.toOpaque()) else {
            context.release()
            throw Failure(description: "cannot add \(name) to the archive")
        }
        guard zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8)) >= 0 else {
            zip_source_free(source)  // its FREE command releases the member
            throw Failure(description: "cannot add \(name) to the archive (\(String(cString: zip_strerror(archive))))")
        }
        streamed.append(member)
    }

    /// Writes the archive and puts it in place, mode 0600.
    func close() throws {
        guard let archive else { return }
        guard zip_close(archive) == 0 else {
            if let failure = streamed.lazy.compactMap(\.failure).first { throw failure }
            throw Failure(description: "cannot write \(path) (\(String(cString: zip_strerror(archive))))")
        }
        self.archive = nil
        guard chmod(temporary, 0o600) == 0, rename(temporary, path) == 0 else {
            throw Failure(description: "cannot put \(path) in place (\(String(cString: strerror(errno))))")
        }
    }
}

/// libzip's source callback over pieces pulled one at a time: the piece in
/// hand is all that is held.
private final class StreamedMember {
    let size: Int64
    let pieces: Int
    let piece: (Int) throws -> [UInt8]
    var failure: Error?
    private var next = 0
    private var buffer: [UInt8] = []
    private var offset = 0
    private var error = zip_error_t()

    init(size: Int64, pieces: Int, piece: @escaping (Int) throws -> [UInt8]) {
        self.size = size
        self.pieces = pieces
        self.piece = piece
        zip_error_init(&error)
    }

    deinit { zip_error_fini(&error) }

    static let callback: zip_source_callback = { context, data, length, command in
        let member = Unmanaged<StreamedMember>.fromOpaque(context!)
        return member.takeUnretainedValue().answer(data, length, command, release: { member.release() })
    }

    private func answer(_ data: UnsafeMutableRawPointer?, _ length: zip_uint64_t, _ command: zip_source_cmd_t, release: () -> Void) -> zip_int64_t {
        switch command {
        case ZIP_SOURCE_OPEN:
            next = 0
            buffer = []
            offset = 0
            return 0
        case ZIP_SOURCE_READ:
            guard let data else { return -1 }
            var written = 0
            while written < Int(length) {
                if offset == buffer.count {
                    guard next < pieces else { break }
                    do {
                        buffer = try piece(next)
                    } catch {
                        failure = error
                        zip_error_set(&self.error, ZIP_ER_READ, 0)
                        return -1
                    }
                    next += 1
                    offset = 0
                    continue
                }
                let count = min(Int(length) - written, buffer.count - offset)
                buffer.withUnsafeBytes { (data + written).copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
                written += count
                offset += count
            }
            return zip_int64_t(written)
        case ZIP_SOURCE_CLOSE:
            buffer = []
            return 0
        case ZIP_SOURCE_STAT:
            guard let data, length >= MemoryLayout<zip_stat_t>.size else { return -1 }
            let stat = data.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(stat)
            stat.pointee.size = zip_uint64_t(size)
            stat.pointee.valid |= zip_uint64_t(ZIP_STAT_SIZE)
            return zip_int64_t(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_ERROR:
            guard let data else { return -1 }
            return zip_error_to_data(&error, data, length)
        case ZIP_SOURCE_FREE:
            release()
            return 0
        case ZIP_SOURCE_SUPPORTS:
            return [ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, ZIP_SOURCE_SUPPORTS]
                .reduce(zip_int64_t(0)) { $0 | (zip_int64_t(1) << zip_int64_t($1.rawValue)) }
        default:
            zip_error_set(&error, ZIP_ER_OPNOTSUPP, 0)
            return -1
        }
    }
}
