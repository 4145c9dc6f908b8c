import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An export file read through a private, read-only mapping rather than copied
/// into memory, whose pages a reader that goes front to back gives back
/// behind it (`passed`): a 138 MB export is not held whole while its
/// items become entries. Given-back pages are the file's: touched again
/// (a second pass, an error's line number), they are read from it again.
///
/// The limit of a mapping: a file cut short by another program while it
/// is read ends the process (SIGBUS) before anything is written; the
/// vault is not touched until the file is read.
public final class MappedExport: @unchecked Sendable {
    public let data: Data

    /// The file's bytes, or nil when it cannot be opened, is not a regular
    /// file, or is empty (an empty file maps to nothing: read as it is).
    public init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else { return nil }
        let count = Int(status.st_size)
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else { return nil }
        Self.regions.withLock { $0.append(Region(start: UInt(bitPattern: base), count: count)) }
        data = Data(bytesNoCopy: base, count: count, deallocator: .custom { pointer, count in
            Self.regions.withLock { $0.removeAll { $0.start == UInt(bitPattern: pointer) } }
            munmap(pointer, count)
        })
    }

    private struct Region {
        let start: UInt
        let count: Int
        var released = 0
    }

    private static let regions = Mutex<[Region]>([])
    /// Given back in steps of this many bytes (whole pages), not at every
    /// item: a few dozen calls for a 56 MB export, and at most two steps held.
    static let step = 1 << 20

    /// A reader is at `pointer` and will not look behind it again: the
    /// mapping's pages before it are given back, if it is one of ours.
    static func passed(_ pointer: UnsafeRawPointer) {
        let address = UInt(bitPattern: pointer)
        regions.withLock { regions in
            guard let index = regions.firstIndex(where: { address >= $0.start && address < $0.start + UInt($0.count) }) else { return }
            // A step behind the reader: a page given back and touched again (the name of an element
            // that began just before, compared at its end) is mapped again as the whole huge page
            // holding it, and was then never given back: nearly all of a 56 MB export stayed mapped.
            let offset = max(0, Int(address - regions[index].start) / step - 1) * step
            // Behind what was given back: a second pass from the start (Enpass's folders, then its items).
            if offset < regions[index].released { regions[index].released = 0 }
            guard offset > regions[index].released else { return }
            let from = regions[index].released
            madvise(UnsafeMutableRawPointer(bitPattern: regions[index].start + UInt(from)), offset - from, MADV_DONTNEED)
            regions[index].released = offset
        }
    }

    /// How much of the mapping holding `pointer` has been given back (tests).
    static func givenBack(_ pointer: UnsafeRawPointer) -> Int? {
        let address = UInt(bitPattern: pointer)
        return regions.withLock { $0.first { address >= $0.start && address < $0.start + UInt($0.count) }?.released }
    }
}
