import Foundation

/// A large KeePass document read as two parts at once (`XMLSplit`), each
/// part's entries mapped on its own core as they close: at 100,000
/// entries, libxml2's one-core parse was half of a KDBX import.
enum KDBXSplitRead {
    /// What both parts read, in document order; nil when either part fails
    /// or the first part's protected values do not end where the second
    /// part's stream was started (then the document is read in one go,
    /// which names any problem exactly as it always did).
    static func read(_ xml: UnsafeRawBufferPointer, split: XMLSplit, stream: StreamCiphers.KeyStream?, now: Date) -> (ImportRead, [Int: [UInt8]])? {
        // Each part unmasks with a stream of its own; `stream` stays where it is for a read in one go.
        var streams: [StreamCiphers.KeyStream?] = [nil, nil]
        if let stream {
            guard let first = try? stream.copy(), let second = try? stream.copy() else { return nil }
            second.skip(split.streamOffset)
            streams = [first, second]
        }
        let start = stream?.consumed ?? 0
        let parts = Parts()
        XMLEvents.prepareForThreads()
        split.closing.withUnsafeBytes { closing in
            split.opening.withUnsafeBytes { opening in
                nonisolated(unsafe) let pieces = [[UnsafeRawBufferPointer(rebasing: xml[..<split.at]), closing],
                                                  [opening, UnsafeRawBufferPointer(rebasing: xml[split.at...])]]
                nonisolated(unsafe) let streams = streams
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    let read = ReadBox()
                    guard let document = try? KDBXDocument.parse(pieces[index], stream: streams[index], batches: { KDBXImport.append($0, to: &read.read, now: now) })
                    else { return }
                    parts.set(index, read.read, document.binaries)
                }
            }
        }
        guard let (first, second) = parts.both() else { return nil }
        if let used = streams[0]?.consumed, used - start != split.streamOffset { return nil }
        var read = first.read
        read.entries += second.read.entries
        read.inTrash += second.read.inTrash
        // A file given twice: the later one stands, as in a read in one go.
        return (read, first.binaries.merging(second.binaries) { _, later in later })
    }

    private final class ReadBox {
        var read = ImportRead()
    }

    /// Each part's read, set by its own thread once.
    private final class Parts: @unchecked Sendable {
        private let lock = NSLock()
        private var done: [(read: ImportRead, binaries: [Int: [UInt8]])?] = [nil, nil]

        func set(_ index: Int, _ read: ImportRead, _ binaries: [Int: [UInt8]]) {
            lock.withLock { done[index] = (read, binaries) }
        }

        func both() -> ((read: ImportRead, binaries: [Int: [UInt8]]), (read: ImportRead, binaries: [Int: [UInt8]]))? {
            lock.withLock {
                guard let first = done[0], let second = done[1] else { return nil }
                return (first, second)
            }
        }
    }
}
