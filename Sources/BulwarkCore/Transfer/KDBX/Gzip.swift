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
        var output: [UInt8] = []
        // gzip's trailer says the inflated size (modulo 4 GiB): room for it at once, within the limit,
        // rather than growing by doubling (a 122 MB XML held twice over on the way).
        if input.count >= 18 {
            let size = input.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
            output.reserveCapacity(min(size, limit))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = input
        var status: Int32 = Z_OK
        var overLimit = false
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit {
                    overLimit = true
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
            } while status == Z_OK
        }
        if overLimit {
            throw Failure(description: "the content inflates past \(limit / (1 << 20)) MiB (a gzip bomb, or a database too large to import)")
        }
        guard status == Z_STREAM_END else { throw Failure(description: "the compressed content is damaged (zlib: \(status))") }
        return output
    }
}
