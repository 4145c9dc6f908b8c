/// A stack the JSON reader gathers an object's members (or an array's
/// elements) on, nested ones above their parent's, each moved out into an
/// array of exactly its size when its object closes. Growing an array per
/// object a member at a time, or copying one gathered array and emptying
/// it again, were most of the reader's time (every value copied, retained
/// and released twice).
final class MoveStack<Element> {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    func push(_ element: consuming Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        (storage + count).initialize(to: element)
        count += 1
    }

    /// The elements from `base` up, moved into an array of their number; the stack ends at `base` again.
    func pop(from base: Int) -> [Element] {
        let taken = count - base
        let array = [Element](unsafeUninitializedCapacity: taken) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: storage + base, count: taken)
            initialized = taken
        }
        count = base
        return array
    }

    /// Drops the elements from `base` up (a value that failed to read).
    func drop(from base: Int) {
        (storage + base).deinitialize(count: count - base)
        count = base
    }
}
