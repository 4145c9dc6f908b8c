import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A key kept on a page of its own: locked in memory (never swapped out),
/// left out of core dumps, and overwritten before the page is given back.
final class LockedKey {
    private let page: UnsafeMutableRawPointer
    private let size: Int
    let count: Int

    init?(_ bytes: [UInt8]) {
        size = max(Int(sysconf(Int32(_SC_PAGESIZE))), bytes.count)
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED else { return nil }
        page = mapped
        count = bytes.count
        _ = mlock(page, size)  // best effort: RLIMIT_MEMLOCK may be low; the page is still kept out of dumps
        _ = madvise(page, size, MADV_DONTDUMP)
        bytes.withUnsafeBytes { page.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
    }

    /// A copy for the one answer that needs it.
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: page, count: count)) }

    deinit {
        explicit_bzero(page, size)
        munlock(page, size)
        munmap(page, size)
    }
}
