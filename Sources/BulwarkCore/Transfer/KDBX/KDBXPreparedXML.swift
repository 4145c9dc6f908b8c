import Foundation

/// A KeePass XML export read while the master password's KDF runs
/// (`ImportPreparation`): libxml2's parse, the document's one-core part,
/// done on the other core, its items packed to stay within 200 MB beside
/// scrypt, the mapping's pages given back behind it. After the unlock
/// only the items' mapping is left, shared across the cores.
struct KDBXPreparedXML: Sendable {
    private let batches: [KDBXPackedItems]
    private let binaries: [Int: [UInt8]]
    /// Why the document was refused: thrown when it is read, as the unprepared read would.
    private let failure: ImportError?

    init(_ data: Data) {
        var batches: [KDBXPackedItems] = []
        do {
            let document = try KDBXDocument.read(data, stream: nil) { batches.append(KDBXPackedItems($0)) }
            (self.batches, binaries, failure) = (batches, document.binaries, nil)
        } catch {
            (self.batches, binaries, failure) = ([], [:], error)
        }
    }

    /// The entries, each batch mapped on whichever core is free, in order.
    func read(now: Date) throws(ImportError) -> ImportRead {
        if let failure { throw failure }
        let parts: [ImportRead] = (try? Concurrently.map(batches, chunk: 1) { batch -> ImportRead in
            var part = ImportRead()
            KDBXImport.append(batch.items(), to: &part, now: now)
            return part
        }) ?? []
        var read = ImportRead()
        read.entries.reserveCapacity(parts.reduce(0) { $0 + $1.entries.count })
        for part in parts {
            read.entries += part.entries
            read.inTrash += part.inTrash
        }
        ImportFiles.fill(&read, from: binaries, now: now)
        return read
    }
}
