/// An array kept in chunks of at most `ChunkedArray.chunkLimit` elements,
/// so that a copy that changes one element copies one chunk.
///
/// Why: the app's snapshot (100,000 entries, tens of thousands of
/// recommendations) is a value the screen holds while the session makes the
/// next one. With one contiguous array, changing one entry copied all of
/// them (and retained every string in each), which cost more than a frame;
/// here the copy is the chunk list and the one chunk that changed.
public struct ChunkedArray<Element>: RandomAccessCollection {
    @inlinable static var chunkLimit: Int { 1024 }

    @usableFromInline var chunks: [[Element]] = []
    /// `starts[i]` is the index of `chunks[i]`'s first element; one more
    /// entry at the end holds the count.
    @usableFromInline var starts: [Int] = [0]

    @inlinable public init() {}

    @inlinable public init<S: Sequence>(_ elements: S) where S.Element == Element {
        var chunk: [Element] = []
        chunk.reserveCapacity(Self.chunkLimit)
        for element in elements {
            chunk.append(element)
            if chunk.count == Self.chunkLimit {
                chunks.append(chunk)
                starts.append(starts[starts.count - 1] + chunk.count)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty {
            chunks.append(chunk)
            starts.append(starts[starts.count - 1] + chunk.count)
        }
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { starts[starts.count - 1] }

    /// The chunk holding `index` (a binary search over a few hundred starts).
    @inlinable func chunk(holding index: Int) -> Int {
        var low = 0, high = chunks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    @inlinable public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < endIndex, "ChunkedArray index out of range")
            let c = chunk(holding: index)
            return chunks[c][index - starts[c]]
        }
        set {
            precondition(index >= 0 && index < endIndex, "ChunkedArray index out of range")
            let c = chunk(holding: index)
            chunks[c][index - starts[c]] = newValue
        }
    }

    @inlinable public mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= endIndex, "ChunkedArray index out of range")
        if chunks.isEmpty {
            chunks = [[element]]
            starts = [0, 1]
            return
        }
        // At the very end, the last chunk takes it.
        let c = index == endIndex ? chunks.count - 1 : chunk(holding: index)
        chunks[c].insert(element, at: index - starts[c])
        for i in (c + 1)..<starts.count { starts[i] += 1 }
        if chunks[c].count > 2 * Self.chunkLimit { split(c) }
    }

    @inlinable public mutating func append(_ element: Element) { insert(element, at: endIndex) }

    @discardableResult
    @inlinable public mutating func remove(at index: Int) -> Element {
        precondition(index >= 0 && index < endIndex, "ChunkedArray index out of range")
        let c = chunk(holding: index)
        let removed = chunks[c].remove(at: index - starts[c])
        for i in (c + 1)..<starts.count { starts[i] -= 1 }
        if chunks[c].isEmpty {
            chunks.remove(at: c)
            starts.remove(at: c + 1)
        }
        return removed
    }

    @inlinable mutating func split(_ c: Int) {
        let half = chunks[c].count / 2
        let tail = Array(chunks[c][half...])
        chunks[c].removeSubrange(half...)
        chunks.insert(tail, at: c + 1)
        starts.insert(starts[c] + half, at: c + 1)
    }

    /// The first index whose element is not below (`isBelow` false), the
    /// list being ordered so that every element below comes first.
    @inlinable public func firstIndex(notBelow isBelow: (Element) -> Bool) -> Int {
        // First the chunk, by its last element; then within it.
        var low = 0, high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if isBelow(chunks[middle][chunks[middle].count - 1]) { low = middle + 1 } else { high = middle }
        }
        guard low < chunks.count else { return endIndex }
        let chunk = chunks[low]
        var first = 0, last = chunk.count
        while first < last {
            let middle = (first + last) / 2
            if isBelow(chunk[middle]) { first = middle + 1 } else { last = middle }
        }
        return starts[low] + first
    }

    /// Where `element` is, or would go, in a list ordered by `isBefore`.
    @inlinable public func insertionIndex(of element: Element, by isBefore: (Element, Element) -> Bool) -> Int {
        firstIndex(notBelow: { isBefore($0, element) })
    }

    /// Each chunk with the index of its first element, in order: for a
    /// pass over every element that should not search for each one's chunk.
    @inlinable public func forEachChunk(_ body: (_ start: Int, _ elements: [Element]) throws -> Void) rethrows {
        for (number, chunk) in chunks.enumerated() { try body(starts[number], chunk) }
    }

    /// Walks the chunks in order: iterating by index searches the chunk each time.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let chunks: [[Element]]
        @usableFromInline var chunk = 0, offset = 0
        @inlinable init(_ chunks: [[Element]]) { self.chunks = chunks }
        @inlinable public mutating func next() -> Element? {
            while chunk < chunks.count {
                if offset < chunks[chunk].count {
                    defer { offset += 1 }
                    return chunks[chunk][offset]
                }
                chunk += 1
                offset = 0
            }
            return nil
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(chunks) }
}

extension ChunkedArray: Equatable where Element: Equatable {
    @inlinable public static func == (a: ChunkedArray, b: ChunkedArray) -> Bool { a.count == b.count && a.elementsEqual(b) }
}

extension ChunkedArray: @unchecked Sendable where Element: Sendable {}

extension ChunkedArray: ExpressibleByArrayLiteral {
    @inlinable public init(arrayLiteral elements: Element...) { self.init(elements) }
}
