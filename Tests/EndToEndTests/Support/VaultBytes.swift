import Foundation

/// Damage done to a vault file from outside, as a disk or another program might.
enum VaultBytes {
    /// Flips a bit inside the sealed box of the entry `id`: its row is (id,
    /// version, box), so 40 bytes past each place the id is stored lies
    /// inside the box (or, in the narrow index, past its end). Returns how
    /// many places were changed.
    @discardableResult
    static func alterBox(ofEntry id: String, inFileAt path: String) throws -> Int {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var flipped = 0
        var from = bytes.startIndex
        while let found = bytes.range(of: Data(id.utf8), in: from..<bytes.endIndex) {
            if found.upperBound + 40 < bytes.endIndex {
                bytes[found.upperBound + 40] ^= 0x40
                flipped += 1
            }
            from = found.upperBound
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        return flipped
    }
}
