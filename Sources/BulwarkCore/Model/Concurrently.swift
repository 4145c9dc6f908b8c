import Foundation

/// Work spread over every core.
enum Concurrently {
    /// `transform` applied to every element, in order, in chunks across the
    /// cores; the first error thrown is rethrown.
    static func map<T: Sendable, R>(_ items: [T], chunk: Int = 64, _ transform: @Sendable (T) throws -> R) throws -> [R] {
        let chunks = (items.count + chunk - 1) / chunk
        // Each chunk writes its own slots of the result straight away (a
        // list of optionals moved into it after was a second copy of every
        // result at once), and counts how many it wrote: on an error those
        // are taken down again.
        let written = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(chunks, 1))
        written.initialize(repeating: 0)
        defer { written.deallocate() }
        let failure = FirstFailure()
        let results = Array<R>(unsafeUninitializedCapacity: items.count) { buffer, count in
            nonisolated(unsafe) let slots = buffer, counts = written  // each chunk touches only its own
            DispatchQueue.concurrentPerform(iterations: chunks) { index in
                let start = index * chunk
                for i in start..<min(items.count, start + chunk) {
                    do { (slots.baseAddress! + i).initialize(to: try transform(items[i])) } catch {
                        failure.record(error)
                        return
                    }
                    counts[index] += 1
                }
            }
            if failure.error != nil {
                for index in 0..<chunks { (buffer.baseAddress! + index * chunk).deinitialize(count: written[index]) }
                count = 0
            } else {
                count = items.count
            }
        }
        if let error = failure.error { throw error }
        return results
    }
}

/// The first error thrown by concurrent work.
private final class FirstFailure: @unchecked Sendable {  // guarded by lock
    private let lock = NSLock()
    private var stored: Error?
    var error: Error? { lock.withLock { stored } }
    func record(_ error: Error) { lock.withLock { if stored == nil { stored = error } } }
}
