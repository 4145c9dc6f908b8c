import Foundation

/// A JSON export's items found but not yet read: where each one lies, and
/// the document without them. Made in one pass over the syntax alone
/// (in `import`, while the master password's KDF runs on the other core),
/// so that the items can then be read on every core at once, each from its
/// own bytes (`JSONTape`): a one-pass reader could share out only the
/// making of entries, not the reading.
public struct JSONItemIndex: Sendable {
    /// The document with the streamed arrays left empty.
    let root: JSONObject
    /// Each item: which of the paths it was found at, and its bytes in the document.
    let items: [(path: Int, range: Range<Int>)]
    let paths: [JSONStream.Path]

    static func make(_ data: Data, paths: [JSONStream.Path]) throws(ImportError) -> JSONItemIndex {
        var items: [(path: Int, range: Range<Int>)] = []
        let root: Any
        do {
            root = try JSONStream.parse(data, skipping: paths) { path, range in
                items.append((paths.firstIndex { Self.matches($0, path) } ?? 0, range))
            }
        } catch let failure as JSONStream.Failure {
            throw ImportError(line: failure.line(in: data), message: "not valid JSON (\(failure.message))")
        } catch {
            throw ImportError(line: nil, message: "\(error)")
        }
        guard let object = root as? JSONObject else { throw ImportError(line: 1, message: "the document is not a JSON object") }
        return JSONItemIndex(root: object, items: items, paths: paths)
    }

    private static func matches(_ wanted: JSONStream.Path, _ path: JSONStream.Path) -> Bool {
        wanted.count == path.count && zip(wanted, path).allSatisfy { $0 == "*" || $0 == $1 }
    }
}

extension JSONItems {
    /// The items of `index` read from `data` (the same bytes it was made
    /// from) on every core, in batches whose pages are given back behind
    /// them, and made into entries in order. `make` gets the item's path
    /// (its index in the index's paths), its tape and the tape's root.
    static func read(_ data: Data, index: JSONItemIndex, into read: inout ImportRead,
                     make: @escaping @Sendable (Int, JSONTape, Int) -> Made) throws(ImportError) {
        let batch = 8192, chunk = 512
        var made: [Made] = []
        made.reserveCapacity(index.items.count)
        do {
            try data.withUnsafeBytes { raw in
                nonisolated(unsafe) let bytes = raw.bindMemory(to: UInt8.self)
                for first in stride(from: 0, to: index.items.count, by: batch) {
                    let items = index.items[first..<min(first + batch, index.items.count)]
                    let chunks = stride(from: items.startIndex, to: items.endIndex, by: chunk).map { $0..<min($0 + chunk, items.endIndex) }
                    for part in try Concurrently.map(chunks, chunk: 1, { range in try Self.make(index.items[range], in: bytes, make) }) {
                        made += part
                    }
                    // Read once: the mapping's pages behind the batch are given back.
                    if let last = items.last, let base = bytes.baseAddress { MappedExport.passed(base + last.range.upperBound) }
                }
            }
        } catch let failure as JSONStream.Failure {
            throw ImportError(line: failure.line(in: data), message: "not valid JSON (\(failure.message))")
        } catch {
            throw ImportError(line: nil, message: "\(error)")
        }
        add(made, to: &read)
    }

    /// One core's share: each item laid out on one reused tape and made.
    private static func make(_ items: ArraySlice<(path: Int, range: Range<Int>)>, in bytes: UnsafeBufferPointer<UInt8>,
                             _ make: (Int, JSONTape, Int) -> Made) throws(JSONStream.Failure) -> [Made] {
        var tape = JSONTape()
        var made: [Made] = []
        made.reserveCapacity(items.count)
        for item in items {
            do { try tape.read(UnsafeBufferPointer(rebasing: bytes[item.range])) } catch {
                throw JSONStream.Failure(offset: item.range.lowerBound + error.offset, message: error.message)
            }
            made.append(make(item.path, tape, tape.root))
        }
        return made
    }
}
