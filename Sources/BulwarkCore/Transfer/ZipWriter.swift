import CZip
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A ZIP archive written with libzip (never a hand-written zip): members
/// added from memory, the whole written at `close` into a new file beside
/// the target (0600), then renamed into place; nothing is left on failure.
final class ZipWriter {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var archive: OpaquePointer?
    private let temporary: String
    private let path: String

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

    /// Writes the archive and puts it in place, mode 0600.
    func close() throws(Failure) {
        guard let archive else { return }
        guard zip_close(archive) == 0 else { throw Failure(description: "cannot write \(path) (\(String(cString: zip_strerror(archive))))") }
        self.archive = nil
        guard chmod(temporary, 0o600) == 0, rename(temporary, path) == 0 else {
            throw Failure(description: "cannot put \(path) in place (\(String(cString: strerror(errno))))")
        }
    }
}
