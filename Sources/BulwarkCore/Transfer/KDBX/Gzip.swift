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
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                repeat { status = CZlib.inflate(&stream, Z_NO_FLUSH) } while status == Z_OK && stream.avail_out > 0
                count = target.count - Int(stream.avail_out)
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
}
