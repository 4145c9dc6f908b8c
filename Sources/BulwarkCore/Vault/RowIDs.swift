/// Row ids as one byte string, each id's UTF-8 and where it ends: how a
/// write hands the ids it wrote to the listing. A String an id, at 100,000,
/// was a cache miss an id each time one was read, retained or released
/// (the listing's merge alone spent 60 ms on them).
struct RowIDs {
    private(set) var bytes: [UInt8] = []
    private(set) var ends: [Int] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity * 36)
        ends.reserveCapacity(capacity)
    }

    init<S: Sequence>(_ ids: S) where S.Element == String {
        for id in ids { append(id) }
    }

    var count: Int { ends.count }

    mutating func append(_ id: String) {
        bytes.append(contentsOf: id.utf8)
        ends.append(bytes.count)
    }

    /// Another set's ids after these.
    mutating func append(_ other: RowIDs) {
        let base = bytes.count
        bytes.append(contentsOf: other.bytes)
        ends.append(contentsOf: other.ends.lazy.map { $0 + base })
    }

    func start(of index: Int) -> Int { index == 0 ? 0 : ends[index - 1] }

    /// Each id's bytes in turn, lent for the call.
    func forEach(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try bytes.withUnsafeBufferPointer { all in
            var from = 0
            for (index, end) in ends.enumerated() {
                try body(index, UnsafeBufferPointer(rebasing: all[from..<end]))
                from = end
            }
        }
    }

    var strings: [String] {
        var out: [String] = []
        out.reserveCapacity(count)
        forEach { _, id in out.append(String(decoding: id, as: UTF8.self)) }
        return out
    }
}
