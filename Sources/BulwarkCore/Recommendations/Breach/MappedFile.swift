import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A read-only memory map of a whole file. The kernel pages in only what a
/// search touches, so a 35 GB corpus costs a few pages per lookup.
final class MappedFile: @unchecked Sendable {  // immutable after init
    let bytes: UnsafeRawBufferPointer
    private let mapping: UnsafeMutableRawPointer?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(description: "\(path): no such file")
        }
        guard !isDirectory.boolValue else { throw Failure(description: "\(path) is a directory, not a corpus file") }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(description: "\(path): \(String(cString: strerror(errno)))") }
        let size = Int(info.st_size)
        guard size > 0 else { throw Failure(description: "\(path) is empty") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw Failure(description: "\(path): cannot map (\(String(cString: strerror(errno))))")
        }
        // Lookups jump around: read-ahead would only waste page cache.
        _ = madvise(address, size, MADV_RANDOM)
        mapping = address
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    /// Copies bytes that are not in a file (the built-in corpus) so both
    /// kinds are searched the same way.
    init(copying data: Data) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 8)
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self))
        mapping = nil
        bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: data.count)
    }

    deinit {
        if let mapping { munmap(mapping, bytes.count) } else { bytes.deallocate() }
    }
}
