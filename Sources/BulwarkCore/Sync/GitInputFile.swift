import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What git reads on its standard input, written to a private file (its
/// folder 0700, the file 0600) a piece at a time through a small buffer,
/// so a commit of many large files is never held in memory whole. Only
/// sealed bytes pass through it (the repository's files are ciphertext).
final class GitInputFile {
    let path: String
    private let folder: URL
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-git-input-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        path = folder.appendingPathComponent("in").path
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw SyncError.git("cannot write git's input in \(folder.path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { remove() }

    func line(_ text: String) throws { try append(Array((text + "\n").utf8)) }

    func append(_ bytes: [UInt8]) throws {
        buffer += bytes
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Everything written out and the file closed; git may read it now.
    func finish() throws {
        try flush()
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    func remove() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        try? FileManager.default.removeItem(at: folder)
    }

    private func flush() throws {
        var done = 0
        while done < buffer.count {
            let wrote = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, buffer.count - done) }
            if wrote < 0, errno == EINTR { continue }
            guard wrote > 0 else { throw SyncError.git("cannot write git's input in \(folder.path): \(String(cString: strerror(errno)))") }
            done += wrote
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
