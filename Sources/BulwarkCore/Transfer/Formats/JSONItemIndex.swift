import Foundation

/// A JSON export's items found but not yet read: where each one lies, and
/// the document without them. Made in one pass over the syntax alone
/// (in `import`, while the master password's KDF runs on the other core),
/// so that the items can then be read on every core at once, each from its
/// own bytes (`JSONTape`): a one-pass reader could share out only the
/// making of entries, not the reading.
public struct JSONItemIndex: Sendable {
    /// Where an item was found and lies.
    struct Item: Sendable {
        /// Which of the paths it was found at.
        var path: Int
        /// The element it is under where its path has a `*` (a CXF account's number), else 0.
        var outer: Int
        /// Its bytes in the document.
        var range: Range<Int>
    }

    /// The document with the streamed arrays left empty.
    let root: JSONObject
    let items: [Item]

    /// `notAnObject`: what is said when the document is JSON but not an object.
    static func make(_ data: Data, paths: [JSONStream.Path],
                     notAnObject: ImportError = ImportError(line: 1, message: "the document is not a JSON object")) throws(ImportError) -> JSONItemIndex {
        var items: [Item] = []
        let root: Any
        do {
            root = try JSONStream.parse(data, skipping: paths) { path, range in
                let which = paths.firstIndex { Self.matches($0, path) } ?? 0
                let star = paths[which].firstIndex(of: "*")
                items.append(Item(path: which, outer: star.flatMap { Int(path[$0]) } ?? 0, range: range))
            }
        } catch let failure as JSONStream.Failure {
            throw ImportError(line: failure.line(in: data), message: "not valid JSON (\(failure.message))")
        } catch {
            throw ImportError(line: nil, message: "\(error)")
        }
        guard let object = root as? JSONObject else { throw notAnObject }
        return JSONItemIndex(root: object, items: items)
    }

    private static func matches(_ wanted: JSONStream.Path, _ path: JSONStream.Path) -> Bool {
        wanted.count == path.count && zip(wanted, path).allSatisfy { $0 == "*" || $0 == $1 }
    }

    /// The items read from `data` (the bytes the index was made from) on
    /// every core, a batch at a time: `read` gets a core's share of items
    /// (their places in `items`) and the document's bytes, `take` each
    /// batch's results in order. The mapping's pages behind a batch are
    /// given back; a reading failure is named with its line in `data`.
    private func inBatches<T>(_ data: Data, read: @escaping @Sendable (Range<Int>, UnsafeBufferPointer<UInt8>) throws -> [T],
                      take: ([T]) throws -> Void) throws(ImportError) {
        let batch = 8192, chunk = 512
        do {
            try data.withUnsafeBytes { raw in
                nonisolated(unsafe) let bytes = raw.bindMemory(to: UInt8.self)
                for first in stride(from: 0, to: items.count, by: batch) {
                    let end = min(first + batch, items.count)
                    let chunks = stride(from: first, to: end, by: chunk).map { $0..<min($0 + chunk, end) }
                    var results: [T] = []
                    results.reserveCapacity(end - first)
                    for part in try Concurrently.map(chunks, chunk: 1, { range in try read(range, bytes) }) { results += part }
                    // Read once: the mapping's pages behind the batch are given back.
                    if let base = bytes.baseAddress { MappedExport.passed(base + items[end - 1].range.upperBound) }
                    try take(results)
                }
            }
        } catch let failure as JSONStream.Failure {
            throw ImportError(line: failure.line(in: data), message: "not valid JSON (\(failure.message))")
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError(line: nil, message: "\(error)")
        }
    }

    /// Each item laid out on a tape (`JSONTape`, one reused per core's
    /// share) and made by `make` there (its place in `items`, the tape, the
    /// tape's root), the results handed to `take` a batch at a time in order.
    func mapTapes<T>(_ data: Data, _ make: @escaping @Sendable (Int, JSONTape, Int) -> T, take: ([T]) throws -> Void) throws(ImportError) {
        let items = self.items
        try inBatches(data, read: { places, bytes in
            var tape = JSONTape()
            var made: [T] = []
            made.reserveCapacity(places.count)
            for place in places {
                let range = items[place].range
                do throws(JSONStream.Failure) { try tape.read(UnsafeBufferPointer(rebasing: bytes[range])) } catch {
                    throw JSONStream.Failure(offset: range.lowerBound + error.offset, message: error.message)
                }
                made.append(make(place, tape, tape.root))
            }
            return made
        }, take: take)
    }
}

extension JSONItems {
    /// The items of `index` read from `data` (the same bytes it was made
    /// from) on every core, in batches whose pages are given back behind
    /// them, and made into entries in order. `make` gets the item's path
    /// (its index in the index's paths), its tape and the tape's root.
    static func read(_ data: Data, index: JSONItemIndex, into read: inout ImportRead,
                     make: @escaping @Sendable (Int, JSONTape, Int) -> Made) throws(ImportError) {
        let items = index.items
        var made: [Made] = []
        made.reserveCapacity(items.count)
        try index.mapTapes(data, { place, tape, root in make(items[place].path, tape, root) }, take: { made += $0 })
        add(made, to: &read)
    }
}
