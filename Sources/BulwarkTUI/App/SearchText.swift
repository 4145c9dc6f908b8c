import BulwarkCore
import Foundation

/// Every entry's "title username site field-names", lower-cased, as UTF-8
/// bytes, in the entries' order: made once, off the screen's thread right
/// after unlock (`prepare`; else on the first search), then kept up to
/// date entry by entry. Shared by the copies of one snapshot; a
/// changed snapshot gets its own (`copy`, then `insert` and `remove`).
///
/// The text lies in blocks of about a thousand entries, each one run of
/// bytes with the end of every entry's title and text: a keystroke of a
/// search through 100k entries walks bytes without touching a reference
/// count per entry, and a change rewrites one block.
public final class SearchText: @unchecked Sendable {  // `blocks` is guarded by `lock`
    struct Block {
        var bytes: [UInt8] = []
        /// Where each entry's text ends in `bytes`, and its title.
        var ends: [Int32] = []
        var titleEnds: [Int32] = []
        var count: Int { ends.count }

        func start(_ i: Int) -> Int { i == 0 ? 0 : Int(ends[i - 1]) }

        mutating func append(_ text: (bytes: [UInt8], titleLength: Int)) {
            titleEnds.append(Int32(bytes.count + text.titleLength))
            bytes.append(contentsOf: text.bytes)
            ends.append(Int32(bytes.count))
        }

        mutating func insert(_ text: (bytes: [UInt8], titleLength: Int), at i: Int) {
            let at = start(i), length = Int32(text.bytes.count)
            bytes.insert(contentsOf: text.bytes, at: at)
            for j in i..<ends.count { ends[j] += length; titleEnds[j] += length }
            ends.insert(Int32(at) + length, at: i)
            titleEnds.insert(Int32(at + text.titleLength), at: i)
        }

        mutating func remove(at i: Int) {
            let from = start(i), to = Int(ends[i]), length = Int32(to - from)
            bytes.removeSubrange(from..<to)
            ends.remove(at: i)
            titleEnds.remove(at: i)
            for j in i..<ends.count { ends[j] -= length; titleEnds[j] -= length }
        }
    }

    static let blockSize = 1024
    private let lock = NSLock()
    private var blocks: [Block]?

    public init() {}
    private init(blocks: [Block]?) { self.blocks = blocks }

    func copy() -> SearchText { SearchText(blocks: lock.withLock { blocks }) }

    /// The block holding entry `index`, and the index within it.
    private static func locate(_ index: Int, in blocks: [Block], inserting: Bool) -> (block: Int, offset: Int) {
        var offset = index
        for (number, block) in blocks.enumerated() {
            if offset < block.count || (inserting && offset == block.count && number == blocks.count - 1) { return (number, offset) }
            offset -= block.count
        }
        return (max(0, blocks.count - 1), offset)
    }

    func remove(at index: Int) {
        lock.withLock {
            guard var all = blocks else { return }
            blocks = nil  // the blocks array uniquely held while it changes
            let (number, offset) = Self.locate(index, in: all, inserting: false)
            all[number].remove(at: offset)
            if all[number].count == 0 && all.count > 1 { all.remove(at: number) }
            blocks = all
        }
    }

    func insert(_ entry: Entry, at index: Int) {
        lock.withLock {
            guard var all = blocks else { return }
            blocks = nil
            if all.isEmpty { all = [Block()] }
            let (number, offset) = Self.locate(index, in: all, inserting: true)
            all[number].insert(Self.text(entry), at: offset)
            if all[number].count > 2 * Self.blockSize {
                // Split in two by rebuilding both halves.
                let block = all[number]
                var first = Block(), second = Block()
                for i in 0..<block.count {
                    let text = (Array(block.bytes[block.start(i)..<Int(block.ends[i])]), Int(block.titleEnds[i]) - block.start(i))
                    if i < block.count / 2 { first.append(text) } else { second.append(text) }
                }
                all.replaceSubrange(number...number, with: [first, second])
            }
            blocks = all
        }
    }

    static func text(_ entry: Entry) -> (bytes: [UInt8], titleLength: Int) {
        let title = entry.title.lowercased()
        // Custom fields are found by their names, never their values (which may be secret).
        let names = entry.fields.isEmpty ? "" : " " + entry.fields.map(\.name).joined(separator: " ").lowercased()
        return (Array((title + " " + entry.username.lowercased() + " " + entry.site + names).utf8), title.utf8.count)
    }

    /// Makes the text now (a keystroke that comes meanwhile waits for it, rather than making it again).
    func prepare(for entries: ChunkedArray<Entry>) { _ = blocks(for: entries) }

    /// Whether the text is made (for tests of when it is).
    var isPrepared: Bool { lock.withLock { blocks != nil } }

    private func blocks(for entries: ChunkedArray<Entry>) -> [Block] {
        lock.withLock {
            if let blocks, blocks.reduce(0, { $0 + $1.count }) == entries.count { return blocks }
            var made: [Block] = []
            var block = Block()
            for entry in entries {
                block.append(Self.text(entry))
                if block.count == Self.blockSize {
                    made.append(block)
                    block = Block()
                }
            }
            if block.count > 0 || made.isEmpty { made.append(block) }
            blocks = made
            return made
        }
    }

    /// The entries (among `candidates`, ascending, or all) with every word
    /// in the title (rank 0) or anywhere (rank 1); with `letters`, those
    /// with the letters in order instead (rank 2). Three lists, each ascending.
    func matches(words: [[UInt8]], letters: [UInt8]?, among candidates: [Int]?, entries: ChunkedArray<Entry>) -> [[Int]] {
        let all = blocks(for: entries)
        var bases = [0]
        for block in all { bases.append(bases[bases.count - 1] + block.count) }
        // A search through tens of thousands of entries is split across the
        // cores by blocks: a keystroke's frame is the budget.
        let work = candidates?.count ?? bases[bases.count - 1]
        let parts = work >= 20_000 ? max(1, min(4, ProcessInfo.processInfo.activeProcessorCount)) : 1
        var cuts = [0]
        for part in 1..<parts {
            let target = bases[bases.count - 1] * part / parts
            cuts.append(max(cuts[cuts.count - 1], bases.firstIndex { $0 >= target } ?? all.count))
        }
        cuts.append(all.count)
        // Where each part's candidates begin.
        let starts = cuts.dropLast().map { cut -> Int in
            guard let candidates else { return 0 }
            var low = 0, high = candidates.count
            while low < high {
                let middle = (low + high) / 2
                if candidates[middle] < bases[cut] { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let results = PartResults(parts)
        let (fixedCuts, fixedBases) = (cuts, bases)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            results.store(part, Self.scan(all[fixedCuts[part]..<fixedCuts[part + 1]], base: fixedBases[fixedCuts[part]], words: words,
                                          letters: letters, candidates: candidates, from: starts[part]))
        }
        return results.joined()
    }

    /// One part's blocks searched (see `matches`).
    private static func scan(_ blocks: ArraySlice<Block>, base first: Int, words: [[UInt8]], letters: [UInt8]?,
                             candidates: [Int]?, from firstCandidate: Int) -> [[Int]] {
        var title: [Int] = [], anywhere: [Int] = [], scattered: [Int] = []
        title.reserveCapacity(candidates == nil ? blocks.reduce(0) { $0 + $1.count } : 1024)
        var base = first, next = firstCandidate
        for block in blocks {
            block.bytes.withUnsafeBufferPointer { bytes in
                block.ends.withUnsafeBufferPointer { ends in
                    block.titleEnds.withUnsafeBufferPointer { titleEnds in
                        let text = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
                        func check(_ i: Int) {
                            let start = i == 0 ? 0 : Int(ends[i - 1])
                            let all = UnsafeBufferPointer(start: text + start, count: Int(ends[i]) - start)
                            if let letters {
                                if ByteSearch.containsInOrder(all, letters) { scattered.append(base + i) }
                                return
                            }
                            let inTitle = UnsafeBufferPointer(start: text + start, count: Int(titleEnds[i]) - start)
                            var titleHas = true, textHas = true
                            for word in words where textHas {
                                if titleHas && !ByteSearch.contains(inTitle, word) { titleHas = false }
                                if !titleHas && !ByteSearch.contains(all, word) { textHas = false }
                            }
                            if titleHas { title.append(base + i) } else if textHas { anywhere.append(base + i) }
                        }
                        if let candidates {
                            while next < candidates.count, candidates[next] < base + ends.count {
                                check(candidates[next] - base)
                                next += 1
                            }
                        } else {
                            for i in 0..<ends.count { check(i) }
                        }
                    }
                }
            }
            base += block.count
        }
        return [title, anywhere, scattered]
    }

    /// Each part's ranks, written once by its worker and read after all are done.
    private final class PartResults: @unchecked Sendable {  // guarded by lock
        private let lock = NSLock()
        private var parts: [[[Int]]]
        init(_ count: Int) { parts = Array(repeating: [[], [], []], count: count) }
        func store(_ part: Int, _ ranks: [[Int]]) { lock.withLock { parts[part] = ranks } }
        func joined() -> [[Int]] {
            lock.withLock { (0..<3).map { rank in parts.count == 1 ? parts[0][rank] : parts.flatMap { $0[rank] } } }
        }
    }
}
