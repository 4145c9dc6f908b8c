import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file written whole or not at all: into a new file beside the target
/// (O_EXCL, O_NOFOLLOW, 0600), synced, then linked into place (refused
/// when something is there) or renamed over it with `replacing` (a
/// symlink at the target is replaced, never followed).
public enum SafeFileWriter {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func write(to path: String, replacing: Bool, _ body: (([UInt8]) throws -> Void) throws -> Void) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).bulwark-\(UUID().uuidString.prefix(8))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot write in \(directory.isEmpty ? "." : directory) (\(String(cString: strerror(errno))))") }
        var placed = false
        defer {
            if !placed { unlink(temporary) }
        }
        do {
            defer { close(descriptor) }
            try body { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw Failure(description: "cannot write \(path) (\(String(cString: strerror(errno))))")
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw Failure(description: "cannot write \(path) (\(String(cString: strerror(errno))))") }
        }
        if replacing {
            guard rename(temporary, path) == 0 else { throw Failure(description: "cannot put \(path) in place (\(String(cString: strerror(errno))))") }
        } else {
            // link() refuses a target that exists, a symlink included: nothing is replaced by accident.
            guard link(temporary, path) == 0 else {
                throw Failure(description: errno == EEXIST ? "\(path) exists; give --force to replace it" : "cannot put \(path) in place (\(String(cString: strerror(errno))))")
            }
            unlink(temporary)
        }
        placed = true
    }
}
