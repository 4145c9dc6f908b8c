import CZlib
import Foundation

/// gzip inflation with zlib, stopping at a limit so a small file that
/// inflates to gigabytes (a gzip bomb) is refused, not followed.
enum Gzip {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func inflate(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        // gzip's trailer says the inflated size (modulo 4 GiB): inflated
        // straight into an array of that size, within the limit (rather than
        // a chunk at a time copied on, growing by doubling: the 122 MB XML
        // of a 100,000-entry database held twice over, and copied once more).
        let claimed = input.count >= 18 ? input.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) } : 0
        let capacity = min(max(claimed, 1 << 16), limit)
        var status: Int32 = Z_OK
        var output: [UInt8] = input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)  // zlib only reads it
            stream.avail_in = uInt(source.count)
            return [UInt8](unsafeUninitializedCapacity: capacity) { target, count in
                let faulting = Prefault(target)
                defer { faulting?.finish() }
                // A step at a time, so that the pages made ready stay just ahead of what zlib has written.
                var written = 0
                repeat {
                    let step = min(Prefault.step, target.count - written)
                    stream.next_out = target.baseAddress.map { $0 + written }
                    stream.avail_out = uInt(step)
                    repeat { status = CZlib.inflate(&stream, Z_NO_FLUSH) } while status == Z_OK && stream.avail_out > 0
                    written += step - Int(stream.avail_out)
                    faulting?.reached(written)
                } while status == Z_OK && written < target.count
                count = written
            }
        }
        // More than the trailer said (a trailer that is wrong, or past 4 GiB): the rest a chunk at a time, to the limit.
        if status == Z_OK {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit {
                    throw Failure(description: "the content inflates past \(limit / (1 << 20)) MiB (a gzip bomb, or a database too large to import)")
                }
                output.append(contentsOf: chunk[0..<produced])
            } while status == Z_OK
        }
        guard status == Z_STREAM_END else { throw Failure(description: "the compressed content is damaged (zlib: \(status))") }
        return output
    }

    /// A large output buffer's pages made ready on another core while
    /// zlib fills it: the kernel's zeroing of each new page was half of
    /// inflating the 122 MB XML of a 100,000-entry database, on the one
    /// core the inflation has. Making a page ready changes none of its
    /// bytes, so whichever comes first, zlib's write or this, is the same.
    /// It keeps at most `ahead` in front of what zlib has written: a
    /// trailer that claims far more than the content holds costs no memory.
    private final class Prefault: @unchecked Sendable {  // `written` and `finished` are guarded by `condition`
        static let step = 4 << 20, ahead = 16 << 20
        private let condition = NSCondition()
        private var written = 0, finished = false
        private let done = DispatchSemaphore(value: 0)

        init?(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            guard let base = buffer.baseAddress, buffer.count >= 4 * Self.step, page > 0 else { return nil }
            let origin = Int(bitPattern: base), start = (origin + page - 1) / page * page, end = (origin + buffer.count) / page * page
            Thread.detachNewThread { [self] in
                var at = start
                while at < end {
                    condition.lock()
                    while !finished && at >= origin + written + Self.ahead { condition.wait() }
                    let stop = finished
                    condition.unlock()
                    // A kernel without MADV_POPULATE_WRITE (before 5.14) refuses it, and the pages are made as they are written.
                    let step = min(Self.step, end - at)
                    guard !stop, madvise(UnsafeMutableRawPointer(bitPattern: at), step, 23 /* MADV_POPULATE_WRITE */) == 0 else { break }
                    at += step
                }
                done.signal()
            }
        }

        func reached(_ count: Int) {
            condition.withLock { written = count }
            condition.signal()
        }

        /// zlib is done (or failed): the helper stops, and is waited for.
        func finish() {
            condition.withLock { finished = true }
            condition.signal()
            done.wait()
        }
    }
}
